import { count, desc, eq, gt, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AdminAccount, AdminAccountPage, AdminAccountsQuery } from '../../core/admin';
import type { Db } from '../../db/client';
import { users, userTokens } from '../../db/schema';
import { peopleFacts } from './people';

/**
 * Every account as an admin reads it (docs/product.md, Help assistant and admin log): the user's own fields and its
 * credit row. The columns are named one by one, so the password hash, sessions, reset tokens
 * and payment provider ids are never read, let alone shown or logged.
 */
const accountColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  subscriptionType: userTokens.subscriptionType,
  subscriptionStatus: userTokens.subscriptionStatus,
  tokensRemaining: userTokens.tokensRemaining,
  tokensTotal: userTokens.tokensTotal,
  lastRefillDate: userTokens.lastRefillDate,
  nextRefillDate: userTokens.nextRefillDate,
};

function selectAccounts(db: Db) {
  // Left join: an account is listed even should its credit row ever be missing (balance 0).
  return db.select(accountColumns).from(users).leftJoin(userTokens, eq(userTokens.userId, users.id));
}

type AccountRow = Awaited<ReturnType<ReturnType<typeof selectAccounts>['all']>>[number];

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Accounts with each person's team, role in it and recent sign-ins (people.ts): two more queries for the lot. */
function toAdminAccounts(db: Db, rows: readonly AccountRow[]): AdminAccount[] {
  const facts = peopleFacts(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...toAdminAccount(row), ...facts.get(row.id)! }));
}

function toAdminAccount(row: AccountRow): Omit<AdminAccount, 'team' | 'teamRole' | 'memberStatus' | 'recentSignIns'> {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    subscriptionType: row.subscriptionType,
    subscriptionStatus: row.subscriptionStatus,
    tokensRemaining: row.tokensRemaining ?? 0,
    tokensTotal: row.tokensTotal ?? 0,
    lastRefillDate: iso(row.lastRefillDate),
    nextRefillDate: iso(row.nextRefillDate),
  };
}

/**
 * What the admin typed, matched literally: `%`, `_` and the escape character itself lose
 * their LIKE meaning, so searching for "100%" finds that text rather than every account.
 */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * Username, e-mail or full name ("first last") containing the text (SQLite's LIKE
 * ignores ASCII case). A contains-search cannot use an index whatever we build, and the
 * table is read by an admin now and then, so it scans the users table: no index added.
 */
function matching(query: string): SQL | undefined {
  if (query === '') return undefined;
  const pattern = likePattern(query);
  const like = (column: SQLWrapper) => sql`${column} LIKE ${pattern} ESCAPE '\\'`;
  // "first last" holds the first name and the last name alone too.
  return or(like(users.username), like(users.email), like(sql`${users.firstName} || ' ' || ${users.lastName}`));
}

/** One page of accounts for the admin table, newest first, with the total that match. */
export function listAccounts(db: Db, { query, page, limit }: AdminAccountsQuery): AdminAccountPage {
  const where = matching(query);
  const total = db.select({ n: count() }).from(users).where(where).get()?.n ?? 0;
  const rows = selectAccounts(db)
    .where(where)
    .orderBy(desc(users.id))
    .limit(limit)
    .offset((page - 1) * limit)
    .all();
  return { accounts: toAdminAccounts(db, rows), query, page, limit, total, totalPages: Math.ceil(total / limit) };
}

/**
 * Accounts in id order after `afterId`, `size` at a time: the whole-server log walks them in
 * batches, so it never holds every account in memory and an account registered meanwhile is
 * neither skipped nor logged twice.
 */
export function accountsAfter(db: Db, afterId: number, size: number): AdminAccount[] {
  return toAdminAccounts(db, selectAccounts(db).where(gt(users.id, afterId)).orderBy(users.id).limit(size).all());
}
