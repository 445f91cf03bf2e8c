import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { TeamRole } from '../../core/team';
import type { Db } from '../../db/client';
import { perDatabase } from '../../db/per-database';
import { sessions, teamMembers, users, type UserRow } from '../../db/schema';
import type { Clock } from '../clock';
import { randomSecret, sha256 } from '../secrets/tokens';

/** docs/product.md, Accounts: 30 days, sliding. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Extend a session at most once an hour, so most requests do not write. */
const SLIDE_AFTER_MS = 60 * 60 * 1000;

export interface StartedSession {
  /** The random id, sealed into the cookie; only its hash is stored. */
  id: string;
  key: string;
  expiresAt: Date;
}

/** The sessions table's key for a session id: its SHA-256, so a stolen database holds no usable id. */
export function sessionKey(id: string): string {
  return sha256(id);
}

export function startSession(db: Db, clock: Clock, userId: number): StartedSession {
  const id = randomSecret();
  const key = sessionKey(id);
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  db.insert(sessions).values({ id: key, userId, expiresAt, createdAt: now }).run();
  return { id, key, expiresAt };
}

/**
 * Who a session is (docs/product.md, Team): the person signed in, and the team account whose
 * records they work on, with their role in it. A person with no team_members row is the owner of
 * a team of one, their own account (accounts made before teams, or by the CLI).
 */
export interface SignedInPerson {
  user: UserRow;
  role: TeamRole;
  /** Their team_members row, null for a team of one that has none. */
  memberId: number | null;
}

export interface ActiveSession {
  key: string;
  person: SignedInPerson;
  /** The team's account: the users row its jobs, invoices, settings and credits are keyed by. */
  account: UserRow;
  /** True when the expiry moved and the cookie should be re-sent. */
  extended: boolean;
  expiresAt: Date;
}

const account = alias(users, 'account');

/**
 * The session lookup runs on every signed-in request, so it is built and prepared once per
 * database (drizzle rebuilding it each call cost 0.3-0.5 ms; prepared, 10 µs).
 * It still reads the rows every time: nothing about a session's validity, nor a person's role or
 * place in a team, is kept in memory, so a removal or a role change counts on the next request.
 */
const sessionLookup = perDatabase((db) =>
  db
    .select({ person: users, member: { id: teamMembers.id, role: teamMembers.role }, account, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(teamMembers, eq(teamMembers.userId, users.id))
    .leftJoin(account, eq(account.id, teamMembers.accountId))
    // Milliseconds, as the timestamp_ms column stores them: a placeholder is bound as given.
    // A removed member has no session (removal deletes them); the status check makes sure.
    .where(
      and(
        eq(sessions.id, sql.placeholder('key')),
        gt(sessions.expiresAt, sql.placeholder('now')),
        or(isNull(teamMembers.id), eq(teamMembers.status, 'active')),
      ),
    )
    .prepare(),
);

/** The session with this key (sessionKey of the cookie's id), sliding its expiry forward; undefined when unknown or expired. */
export function resumeSession(db: Db, clock: Clock, key: string): ActiveSession | undefined {
  const now = clock.now();
  const row = sessionLookup(db).get({ key, now: now.getTime() });
  if (!row) return undefined;
  const person: SignedInPerson = { user: row.person, role: row.member?.role ?? 'owner', memberId: row.member?.id ?? null };
  const found = { key, person, account: row.account ?? row.person };
  const fresh = new Date(now.getTime() + SESSION_TTL_MS);
  if (fresh.getTime() - row.expiresAt.getTime() < SLIDE_AFTER_MS) {
    return { ...found, extended: false, expiresAt: row.expiresAt };
  }
  // At most once an hour: the expiry moves, and the team's list shows when the person was last seen.
  db.update(sessions).set({ expiresAt: fresh }).where(eq(sessions.id, key)).run();
  noteSeen(db, row.person.id, now);
  return { ...found, extended: true, expiresAt: fresh };
}

/** The person's last request, as the team's list shows it (to the hour: see SLIDE_AFTER_MS). */
export function noteSeen(db: Db, userId: number, now: Date): void {
  db.update(teamMembers).set({ lastSeenAt: now }).where(eq(teamMembers.userId, userId)).run();
}

export function endSession(db: Db, key: string): void {
  db.delete(sessions).where(eq(sessions.id, key)).run();
}

export function endAllSessions(db: Db, userId: number): void {
  db.delete(sessions).where(eq(sessions.userId, userId)).run();
}

export function deleteExpiredSessions(db: Db, clock: Clock): number {
  return db.delete(sessions).where(lt(sessions.expiresAt, clock.now())).run().changes;
}
