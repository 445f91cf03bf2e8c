import { eq } from 'drizzle-orm';
import type { PublicUser } from '../../core/accounts';
import { personName, type SignedInMember } from '../../core/team';
import type { Db } from '../../db/client';
import { signIns, systemSettings, teamMembers, users, type TeamMemberRow, type UserRow } from '../../db/schema';
import type { SignedInPerson } from '../accounts/sessions';
import { noteSeen } from '../accounts/sessions';
import { toPublicUser } from '../accounts/users';

/**
 * A person's place in a team (docs/product.md, Team): which account they work in and with what
 * role. A users row with no team_members row is the owner of a team of one, its own account.
 */
export function membershipOf(db: Db, userId: number): TeamMemberRow | undefined {
  return db.select().from(teamMembers).where(eq(teamMembers.userId, userId)).get();
}

/** The team's name, as invitations, the join page and the header say it: the trading name, else the owner's name. */
export function teamNameOf(db: Db, accountId: number): string {
  const row = db
    .select({ tradingName: systemSettings.tradingName, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(users)
    .leftJoin(systemSettings, eq(systemSettings.userId, users.id))
    .where(eq(users.id, accountId))
    .get();
  if (!row) return '';
  return row.tradingName?.trim() || personName(row);
}

/** Who is signed in, as the API answers it beside `user` (GET /api/auth/me, sign-in, joining). */
export function signedInMember(db: Db, person: SignedInPerson, accountId: number): SignedInMember {
  return { memberId: person.memberId, name: personName(person.user), role: person.role, businessName: teamNameOf(db, accountId) };
}

/** GET /api/auth/me's answer: the person's own sign-in and who they are in their team. */
export function signedInAnswer(db: Db, person: SignedInPerson, accountId: number): { user: PublicUser; member: SignedInMember } {
  return { user: toPublicUser(person.user), member: signedInMember(db, person, accountId) };
}

/** The person and their team as a fresh sign-in finds them (the same rules as a session's lookup). */
export function personOf(db: Db, user: UserRow): { person: SignedInPerson; accountId: number; removed: boolean } {
  const member = membershipOf(db, user.id);
  return {
    person: { user, role: member?.role ?? 'owner', memberId: member?.id ?? null },
    accountId: member?.accountId ?? user.id,
    removed: member?.status === 'removed',
  };
}

/** A sign-in, kept per person for the admin log, and the moment the team's list shows as last seen. */
export function recordSignIn(db: Db, now: Date, sign: { userId: number; accountId: number; address: string | null; userAgent: string | null }): void {
  db.insert(signIns)
    .values({ userId: sign.userId, accountId: sign.accountId, address: sign.address, userAgent: sign.userAgent?.slice(0, 200) ?? null, createdAt: now })
    .run();
  noteSeen(db, sign.userId, now);
}
