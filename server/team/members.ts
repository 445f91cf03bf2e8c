import { and, asc, eq } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { personName, TEAM_MESSAGES, TEAM_ROLES, type InvitableRole, type TeamMember, type TeamView } from '../../core/team';
import { immediate, type Db } from '../../db/client';
import { teamMembers, users, type TeamMemberRow, type UserRow } from '../../db/schema';
import type { Clock } from '../clock';
import { endAllSessions } from '../accounts/sessions';
import { openInvitations, type TeamActor } from './invitations';

/**
 * The team's people (docs/product.md, Team): who is in it with what role, a role changed, someone
 * taken out. Every change reads the member inside its own immediate transaction (CONVENTIONS 15).
 * A member id of another team, or of someone already taken out, is a 404, as any record outside
 * the team is.
 */

const notFound = () => new DomainError('NOT_FOUND', 'That person is not in your team.');

function toMember(row: { member: TeamMemberRow; user: UserRow }, personId: number): TeamMember {
  return {
    id: row.member.id,
    name: personName(row.user),
    email: row.user.email,
    role: row.member.role,
    status: row.member.status,
    lastSeenAt: row.member.lastSeenAt?.toISOString() ?? null,
    you: row.user.id === personId,
  };
}

/**
 * The team as Settings → Team shows it: its active members, the owner first, then office, then
 * crew, each by name; and its open invitations, newest first. People taken out are not listed:
 * they cannot sign in, what they did stays named in each record's history, and inviting their
 * address again brings their row back (joining.ts).
 */
export function teamView(db: Db, actor: TeamActor): TeamView {
  const rows = db
    .select({ member: teamMembers, user: users })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.accountId, actor.accountId), eq(teamMembers.status, 'active')))
    .orderBy(asc(teamMembers.id))
    .all();
  const rank = (row: { member: TeamMemberRow }) => TEAM_ROLES.indexOf(row.member.role);
  const members = rows
    .sort((a, b) => rank(a) - rank(b) || personName(a.user).localeCompare(personName(b.user), 'en-GB') || a.member.id - b.member.id)
    .map((row) => toMember(row, actor.personId));
  return { members, invitations: openInvitations(db, actor.accountId) };
}

/** An active member of the actor's team, or 404. */
export function memberOfTeam(db: Db, actor: TeamActor, memberId: number): { member: TeamMemberRow; user: UserRow } {
  const row = db
    .select({ member: teamMembers, user: users })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.id, memberId), eq(teamMembers.accountId, actor.accountId), eq(teamMembers.status, 'active')))
    .get();
  if (!row) throw notFound();
  return row;
}

/**
 * An active member of the actor's team whom the actor may change: never the owner (ownership is
 * handed on, not taken: POST /api/team/owner), never themselves.
 */
function changeableMember(db: Db, actor: TeamActor, memberId: number): { member: TeamMemberRow; user: UserRow } {
  const row = memberOfTeam(db, actor, memberId);
  if (row.member.role === 'owner') throw new DomainError('CONFLICT', TEAM_MESSAGES.ownerCannotChange);
  if (row.user.id === actor.personId) throw new DomainError('FORBIDDEN', TEAM_MESSAGES.notYourself);
  return row;
}

/** Office or crew: counts from the person's next request (the session reads the role every time). */
export function changeRole(db: Db, actor: TeamActor, memberId: number, role: InvitableRole): TeamMember {
  return immediate(db, (tx) => {
    const row = changeableMember(tx, actor, memberId);
    const member = tx.update(teamMembers).set({ role }).where(eq(teamMembers.id, row.member.id)).returning().get();
    return toMember({ member, user: row.user }, actor.personId);
  });
}

/**
 * Takes someone out of the team: their row says removed (when and by whom) and every session of
 * theirs ends in the same transaction, so their next request is a 401. Their users row stays, so
 * the jobs, quotes and payments they touched still name them.
 */
export function removeMember(db: Db, clock: Clock, actor: TeamActor, memberId: number): void {
  immediate(db, (tx) => {
    const row = changeableMember(tx, actor, memberId);
    tx.update(teamMembers).set({ status: 'removed', removedAt: clock.now(), removedBy: actor.personId }).where(eq(teamMembers.id, row.member.id)).run();
    endAllSessions(tx, row.user.id);
  });
}
