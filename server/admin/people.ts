import { desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { AdminPersonFacts, AdminSignIn } from '../../core/admin';
import { personName } from '../../core/team';
import type { Db } from '../../db/client';
import { signIns, systemSettings, teamMembers, users } from '../../db/schema';
import { teamNameOf } from '../team/membership';

/**
 * How many of a person's sign-ins the admin log keeps in view: enough to see a pattern (a new
 * address, a sign-in after removal was asked for), few enough for one log line per person.
 */
export const RECENT_SIGN_INS = 5;

/**
 * Each person's team, role in it and recent sign-ins, for the admin log and the accounts table
 * (docs/product.md, Help assistant and admin log): every users row is a person, a team's owner
 * or a member. Two queries for any number of people. The columns are named one by one: the
 * sign-in's network address and time, never a password hash, session or token (a sign_ins row
 * holds none).
 */
export function peopleFacts(db: Db, userIds: readonly number[]): Map<number, AdminPersonFacts> {
  const facts = new Map<number, AdminPersonFacts>();
  if (userIds.length === 0) return facts;
  const ids = [...userIds];
  const owner = users;
  const memberships = db
    .select({
      userId: teamMembers.userId,
      accountId: teamMembers.accountId,
      role: teamMembers.role,
      status: teamMembers.status,
      tradingName: systemSettings.tradingName,
      firstName: owner.firstName,
      lastName: owner.lastName,
      username: owner.username,
    })
    .from(teamMembers)
    .innerJoin(owner, eq(owner.id, teamMembers.accountId))
    .leftJoin(systemSettings, eq(systemSettings.userId, teamMembers.accountId))
    .where(inArray(teamMembers.userId, ids))
    .all();
  const byUser = new Map(memberships.map((row) => [row.userId, row]));
  // The newest few of each person's sign-ins, numbered per person by a window over their index.
  const numbered = db
    .select({
      userId: signIns.userId,
      address: signIns.address,
      createdAt: signIns.createdAt,
      n: sql<number>`row_number() over (partition by ${signIns.userId} order by ${signIns.createdAt} desc, ${signIns.id} desc)`.as('n'),
    })
    .from(signIns)
    .where(inArray(signIns.userId, ids))
    .as('numbered');
  const recent = db
    .select({ userId: numbered.userId, address: numbered.address, createdAt: numbered.createdAt })
    .from(numbered)
    .where(lte(numbered.n, RECENT_SIGN_INS))
    .orderBy(numbered.userId, desc(numbered.createdAt))
    .all();
  for (const id of ids) {
    const member = byUser.get(id);
    facts.set(id, {
      // A users row without a team_members row owns a team of one (made before teams, or by the CLI).
      team: member ? { accountId: member.accountId, name: member.tradingName?.trim() || personName(member) } : { accountId: id, name: teamNameOf(db, id) },
      teamRole: member?.role ?? 'owner',
      memberStatus: member?.status ?? 'active',
      recentSignIns: [],
    });
  }
  for (const row of recent) {
    facts.get(row.userId)?.recentSignIns.push({ at: new Date(row.createdAt).toISOString(), address: row.address });
  }
  return facts;
}

/**
 * The install's newest sign-ins, `limit` of them, each with the person and their team as
 * peopleFacts gives them (the team and role they have now: a sign_ins row keeps the account they
 * signed in to, which a hand-over of ownership does not change).
 */
export function latestSignIns(db: Db, limit: number): AdminSignIn[] {
  const rows = db
    .select({ userId: signIns.userId, address: signIns.address, createdAt: signIns.createdAt, username: users.username, firstName: users.firstName, lastName: users.lastName })
    .from(signIns)
    .innerJoin(users, eq(users.id, signIns.userId))
    .orderBy(desc(signIns.createdAt), desc(signIns.id))
    .limit(limit)
    .all();
  const facts = peopleFacts(db, [...new Set(rows.map((row) => row.userId))]);
  return rows.map((row) => {
    const person = facts.get(row.userId)!;
    return {
      at: row.createdAt.toISOString(),
      address: row.address,
      person: { id: row.userId, username: row.username, name: personName(row) },
      team: person.team,
      teamRole: person.teamRole,
    };
  });
}
