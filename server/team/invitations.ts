import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { formatBookingDate, ukToday } from '../../core/job-booking';
import { INVITATION_GONE_MESSAGE, INVITATION_TTL_MS, personName, TEAM_MESSAGES, type InvitationPreview, type TeamInvitation } from '../../core/team';
import type { InviteInput } from '../../core/team-requests';
import { immediate, type Db } from '../../db/client';
import { teamInvitations, teamMembers, type TeamInvitationRow } from '../../db/schema';
import type { Clock } from '../clock';
import { findUserByEmail, findUserById } from '../accounts/users';
import { queueMail } from '../mail/outbox';
import { teamInvitationEmail } from '../mail/team-invitation-email';
import { randomSecret, sha256 } from '../secrets/tokens';
import { readLogo } from '../settings/logo';
import { getCompanyProfile } from '../settings/settings';
import type { PhotoStore } from '../storage/photo-store';
import { teamNameOf } from './membership';

/**
 * Invitations to a team (docs/product.md, Team). The link is a capability (CONVENTIONS 13): 256
 * random bits, only the SHA-256 kept, 7 days, single use, revocable; a used, withdrawn, replaced,
 * expired or unknown link is one answer (410 INVITATION_GONE). Looking a link up by its hash is
 * the comparison: nothing compares a secret byte by byte, so no timing tells how near a guess was.
 * The e-mail is written to the outbox in the transaction that makes or renews the link
 * (CONVENTIONS 18), so an invitation never exists without its message, nor a message without it.
 */
export interface InvitationDeps {
  db: Db;
  clock: Clock;
  config: { publicUrl: string; mailFrom: string };
}

/** Who acts: the team's account and the person (their own users row) doing it. */
export interface TeamActor {
  accountId: number;
  personId: number;
}

export const invitationGone = () => new DomainError('INVITATION_GONE', INVITATION_GONE_MESSAGE);
const notFound = () => new DomainError('NOT_FOUND', 'That invitation is not open in your team.');

/** The join page for a token. */
export function joinLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/join/${token}`;
}

/** An invitation still waiting: neither used nor withdrawn (expired ones stay, for "send again"). */
const isOpen = () => and(isNull(teamInvitations.usedAt), isNull(teamInvitations.withdrawnAt));

function toInvitation(db: Db, row: TeamInvitationRow): TeamInvitation {
  const inviter = row.invitedBy === null ? undefined : findUserById(db, row.invitedBy);
  return { id: row.id, email: row.email, name: row.name, role: row.role, expiresAt: row.expiresAt.toISOString(), invitedBy: inviter ? personName(inviter) : null };
}

/** The team's open invitations, newest first (an expired one shows its past expiresAt, for the owner to send again). */
export function openInvitations(db: Db, accountId: number): TeamInvitation[] {
  return db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.accountId, accountId), isOpen()))
    .orderBy(desc(teamInvitations.sentAt), desc(teamInvitations.id))
    .all()
    .map((row) => toInvitation(db, row));
}

/**
 * Whether `email` may be invited to the account's team: not someone already in it, and not an
 * address that signs in elsewhere (a users row is one person's sign-in, in one team). A removed
 * member of this team may be invited back: joining reactivates their row.
 */
function assertInvitable(db: Db, accountId: number, email: string): void {
  const existing = findUserByEmail(db, email);
  if (!existing) return;
  if (existing.id === accountId) throw new DomainError('CONFLICT', TEAM_MESSAGES.alreadyMember);
  const member = db.select().from(teamMembers).where(eq(teamMembers.userId, existing.id)).get();
  if (member?.accountId === accountId) {
    if (member.status === 'active') throw new DomainError('CONFLICT', TEAM_MESSAGES.alreadyMember);
    return;
  }
  throw new DomainError('CONFLICT', TEAM_MESSAGES.emailTaken);
}

/** Writes the invitation's e-mail to the outbox (the caller's transaction), with a fresh link. */
function queueInvitationMail(deps: InvitationDeps, row: TeamInvitationRow, token: string): void {
  const inviter = row.invitedBy === null ? undefined : findUserById(deps.db, row.invitedBy);
  const teamName = teamNameOf(deps.db, row.accountId);
  const profile = getCompanyProfile(deps.db, row.accountId);
  const message = teamInvitationEmail({
    to: row.email,
    name: row.name,
    teamName,
    invitedBy: inviter ? personName(inviter) : teamName,
    role: row.role,
    link: joinLink(deps.config.publicUrl, token),
    lastDay: formatBookingDate(ukToday(row.expiresAt), 'long'),
  });
  // From the business by name (the install's address still sends it: server/mail/sender.ts);
  // a reply reaches the company's address, else whoever invited them.
  const replyTo = profile.email || inviter?.email;
  queueMail(deps, { ...message, from: teamName || 'TreeAnalyzer Pro', ...(replyTo ? { replyTo } : {}) }, { label: `team invitation ${row.id}`, userId: row.accountId });
}

/** The owner invites someone: a new link and its e-mail, in one transaction. */
export function invite(deps: InvitationDeps, actor: TeamActor, input: InviteInput): TeamInvitation {
  const { db, clock } = deps;
  return immediate(db, (tx) => {
    const email = input.email.trim().toLowerCase();
    assertInvitable(tx, actor.accountId, email);
    const waiting = tx.select({ id: teamInvitations.id }).from(teamInvitations).where(and(eq(teamInvitations.accountId, actor.accountId), eq(teamInvitations.email, email), isOpen())).get();
    if (waiting) throw new DomainError('CONFLICT', TEAM_MESSAGES.alreadyInvited);
    const token = randomSecret();
    const now = clock.now();
    const row = tx
      .insert(teamInvitations)
      .values({
        accountId: actor.accountId,
        email,
        name: input.name,
        role: input.role,
        tokenHash: sha256(token),
        invitedBy: actor.personId,
        createdAt: now,
        sentAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      })
      .returning()
      .get();
    queueInvitationMail(deps, row, token);
    return toInvitation(tx, row);
  });
}

/** One of the team's open invitations, or 404 (another team's, used or withdrawn). */
function openInvitationOf(db: Db, accountId: number, id: number): TeamInvitationRow {
  const row = db.select().from(teamInvitations).where(and(eq(teamInvitations.id, id), eq(teamInvitations.accountId, accountId), isOpen())).get();
  if (!row) throw notFound();
  return row;
}

/**
 * Sends an invitation again: a new token and a new 7 days on the same row, so the link sent
 * before answers 410 from now on, and the e-mail again. The one who resends is named as inviting.
 */
export function resend(deps: InvitationDeps, actor: TeamActor, id: number): TeamInvitation {
  const { db, clock } = deps;
  return immediate(db, (tx) => {
    const open = openInvitationOf(tx, actor.accountId, id);
    assertInvitable(tx, actor.accountId, open.email);
    const token = randomSecret();
    const now = clock.now();
    const row = tx
      .update(teamInvitations)
      .set({ tokenHash: sha256(token), invitedBy: actor.personId, sentAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) })
      .where(eq(teamInvitations.id, open.id))
      .returning()
      .get();
    queueInvitationMail(deps, row, token);
    return toInvitation(tx, row);
  });
}

/** Withdraws an invitation: its link answers 410 from now on. */
export function withdraw(db: Db, clock: Clock, actor: TeamActor, id: number): void {
  immediate(db, (tx) => {
    const open = openInvitationOf(tx, actor.accountId, id);
    tx.update(teamInvitations).set({ withdrawnAt: clock.now() }).where(eq(teamInvitations.id, open.id)).run();
  });
}

/** The invitation a link opens: open and unexpired, else INVITATION_GONE whatever the reason. */
export function invitationByToken(db: Db, clock: Clock, token: string): TeamInvitationRow {
  const row = db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.tokenHash, sha256(token)), isOpen(), gt(teamInvitations.expiresAt, clock.now())))
    .get();
  if (!row) throw invitationGone();
  return row;
}

/** What the join page shows for a link: the team's name and logo, the role, the address and name. */
export function previewInvitation(db: Db, clock: Clock, token: string, logoUrl: string): InvitationPreview {
  const row = invitationByToken(db, clock, token);
  const hasLogo = getCompanyProfile(db, row.accountId).logoPath !== null;
  return {
    businessName: teamNameOf(db, row.accountId),
    logoUrl: hasLogo ? logoUrl : null,
    role: row.role,
    email: row.email,
    name: row.name,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The team's logo, for the join page: only through a link that is still open. */
export async function invitationLogo(deps: { db: Db; clock: Clock; photos: PhotoStore }, token: string): Promise<Buffer> {
  const row = invitationByToken(deps.db, deps.clock, token);
  const bytes = await readLogo(deps.photos, getCompanyProfile(deps.db, row.accountId).logoPath);
  if (!bytes) throw new DomainError('NOT_FOUND', 'Logo not found');
  return bytes;
}
