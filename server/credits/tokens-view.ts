import { eq, sql } from 'drizzle-orm';
import type { UserTokensResponse } from '../../core/credits';
import type { Db } from '../../db/client';
import { perDatabase } from '../../db/per-database';
import { userTokens } from '../../db/schema';
import type { Clock } from '../clock';

/**
 * The account's credits as the API shows them (GET /api/user-tokens, billing's answers, Download
 * my data): the balance, the plan and its dates, and the Unlimited pass while it runs.
 */

/** Prepared once per database: the balance is read on every dashboard page. */
const tokenReader = perDatabase((db) => db.select().from(userTokens).where(eq(userTokens.userId, sql.placeholder('userId'))).prepare());

const NO_TOKENS: UserTokensResponse = {
  tokensRemaining: 0,
  tokensTotal: 0,
  subscriptionType: null,
  subscriptionStatus: null,
  lastRefillDate: null,
  nextRefillDate: null,
  cancelAt: null,
  passEndsAt: null,
  unlimited: false,
};

/**
 * A read that never writes: every account has its user_tokens row from
 * registration on (createUser, and migration 0004 for older accounts), so this takes no
 * write lock; a missing row would read as an empty balance rather than be made here.
 */
export function tokensView(db: Db, clock: Clock, userId: number): UserTokensResponse {
  const row = tokenReader(db).get({ userId });
  if (!row) return NO_TOKENS;
  const now = clock.now();
  const passActive = row.passEndsAt !== null && row.passEndsAt > now;
  return {
    tokensRemaining: row.tokensRemaining,
    tokensTotal: row.tokensTotal,
    subscriptionType: row.subscriptionType,
    subscriptionStatus: row.subscriptionStatus,
    lastRefillDate: row.lastRefillDate?.toISOString() ?? null,
    nextRefillDate: row.nextRefillDate?.toISOString() ?? null,
    cancelAt: row.cancelAt?.toISOString() ?? null,
    passEndsAt: passActive ? row.passEndsAt!.toISOString() : null,
    unlimited: passActive,
  };
}
