import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { perDatabase } from '../../db/per-database';
import { sessions, users, type UserRow } from '../../db/schema';
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

export interface ActiveSession {
  key: string;
  user: UserRow;
  /** True when the expiry moved and the cookie should be re-sent. */
  extended: boolean;
  expiresAt: Date;
}

/**
 * The session lookup runs on every signed-in request, so it is built and prepared once per
 * database (drizzle rebuilding it each call cost 0.3-0.5 ms; prepared, 10 µs).
 * It still reads the row every time: nothing about a session's validity is kept in memory.
 */
const sessionLookup = perDatabase((db) =>
  db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    // Milliseconds, as the timestamp_ms column stores them: a placeholder is bound as given.
    .where(and(eq(sessions.id, sql.placeholder('key')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .prepare(),
);

/** The session with this key (sessionKey of the cookie's id), sliding its expiry forward; undefined when unknown or expired. */
export function resumeSession(db: Db, clock: Clock, key: string): ActiveSession | undefined {
  const now = clock.now();
  const row = sessionLookup(db).get({ key, now: now.getTime() });
  if (!row) return undefined;
  const fresh = new Date(now.getTime() + SESSION_TTL_MS);
  if (fresh.getTime() - row.expiresAt.getTime() < SLIDE_AFTER_MS) {
    return { key, user: row.user, extended: false, expiresAt: row.expiresAt };
  }
  db.update(sessions).set({ expiresAt: fresh }).where(eq(sessions.id, key)).run();
  return { key, user: row.user, extended: true, expiresAt: fresh };
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
