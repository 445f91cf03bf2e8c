import { eq, sql } from 'drizzle-orm';
import type { PublicUser, Role } from '../../core/accounts';
import { immediate, type Db } from '../../db/client';
import { systemSettings, teamMembers, users, userTokens, type UserRow } from '../../db/schema';
import type { Clock } from '../clock';
import { DomainError } from '../../core/errors';

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
}

export function toPublicUser(user: UserRow): PublicUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    createdAt: user.createdAt.toISOString(),
  };
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.select().from(users).where(eq(users.id, id)).get();
}

export function findUserByUsername(db: Db, username: string): UserRow | undefined {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username.trim()})`)
    .get();
}

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get();
}

/** Login accepts either; an "@" means an e-mail, since usernames cannot contain one. */
export function findUserByUsernameOrEmail(db: Db, value: string): UserRow | undefined {
  return value.includes('@') ? findUserByEmail(db, value) : findUserByUsername(db, value);
}

/**
 * Creates the account with its credit balance (0) and AI settings rows. The first
 * account on an empty database is the admin (docs/product.md, Accounts); the count and the
 * insert share one immediate transaction so two first sign-ups cannot both be admin.
 */
export function createUser(db: Db, clock: Clock, input: NewUser): UserRow {
  return immediate(db, (tx) => {
    if (findUserByUsername(tx, input.username)) {
      throw new DomainError('CONFLICT', 'Username is already taken');
    }
    if (findUserByEmail(tx, input.email)) {
      throw new DomainError('CONFLICT', 'An account with this email already exists');
    }
    const existing = tx.select({ n: sql<number>`count(*)` }).from(users).get()?.n ?? 0;
    const role: Role = existing === 0 ? 'admin' : 'user';
    const now = clock.now();
    const user = tx
      .insert(users)
      .values({
        username: input.username.trim(),
        email: input.email.trim().toLowerCase(),
        password: input.passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        role,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    tx.insert(userTokens).values({ userId: user.id, createdAt: now }).run();
    tx.insert(systemSettings).values({ userId: user.id, createdAt: now, updatedAt: now }).run();
    // A new account is the owner of a team of one (docs/product.md, Team).
    tx.insert(teamMembers).values({ accountId: user.id, userId: user.id, role: 'owner', joinedAt: now }).run();
    return user;
  });
}

export function setPasswordHash(db: Db, clock: Clock, userId: number, passwordHash: string): void {
  db.update(users).set({ password: passwordHash, updatedAt: clock.now() }).where(eq(users.id, userId)).run();
}

export function setRole(db: Db, clock: Clock, username: string, role: Role): UserRow | undefined {
  const user = findUserByUsername(db, username);
  if (!user) return undefined;
  return db.update(users).set({ role, updatedAt: clock.now() }).where(eq(users.id, user.id)).returning().get();
}
