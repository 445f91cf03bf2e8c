import { and, eq, gte, sql } from 'drizzle-orm';
import { ANALYSIS_COST_CREDITS } from '../../core/credits';
import { immediate, type Db } from '../../db/client';
import { creditLedger, userTokens } from '../../db/schema';
import type { Clock } from '../clock';

/**
 * The credit ledger (DECISIONS, Credits): every balance change is a ledger row written
 * in the same transaction as the running balance in user_tokens, so the sum of a
 * user's ledger always equals their balance.
 */
export type LedgerReason = 'grant' | 'analysis' | 'analysis_refund' | 'plan_refill' | 'plan_start';

export function balanceOf(db: Db, userId: number): number {
  return db.select({ n: userTokens.tokensRemaining }).from(userTokens).where(eq(userTokens.userId, userId)).get()?.n ?? 0;
}

export function ledgerSum(db: Db, userId: number): number {
  return (
    db
      .select({ n: sql<number>`coalesce(sum(${creditLedger.delta}), 0)` })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .get()?.n ?? 0
  );
}

function ensureTokenRow(tx: Db, clock: Clock, userId: number): void {
  tx.insert(userTokens).values({ userId, createdAt: clock.now() }).onConflictDoNothing().run();
}

/** Adds credits (a manual top-up or a purchase); the total granted grows with it. */
export function grantCredits(db: Db, clock: Clock, userId: number, amount: number, reason: LedgerReason, reference?: string): number {
  if (!Number.isInteger(amount) || amount <= 0) throw new RangeError('amount must be a positive whole number of credits');
  return immediate(db, (tx) => {
    ensureTokenRow(tx, clock, userId);
    tx.update(userTokens)
      .set({
        tokensRemaining: sql`${userTokens.tokensRemaining} + ${amount}`,
        tokensTotal: sql`${userTokens.tokensTotal} + ${amount}`,
      })
      .where(eq(userTokens.userId, userId))
      .run();
    tx.insert(creditLedger).values({ userId, delta: amount, reason, reference, createdAt: clock.now() }).run();
    return balanceOf(tx, userId);
  });
}

/**
 * Takes the 10 credits of one analysis before the model is asked. A conditional
 * update: it succeeds only while the balance covers it, so concurrent requests can
 * never take the balance below zero. Returns false, changing nothing, when it does not.
 */
export function reserveAnalysisCredits(db: Db, clock: Clock, userId: number, reference: string): boolean {
  return immediate(db, (tx) => {
    const changed = tx
      .update(userTokens)
      .set({ tokensRemaining: sql`${userTokens.tokensRemaining} - ${ANALYSIS_COST_CREDITS}` })
      .where(and(eq(userTokens.userId, userId), gte(userTokens.tokensRemaining, ANALYSIS_COST_CREDITS)))
      .run().changes;
    if (changed === 0) return false;
    tx.insert(creditLedger)
      .values({ userId, delta: -ANALYSIS_COST_CREDITS, reason: 'analysis', reference, createdAt: clock.now() })
      .run();
    return true;
  });
}

/** Gives back a reservation when the analysis failed. */
export function refundAnalysisCredits(db: Db, clock: Clock, userId: number, reference: string): void {
  immediate(db, (tx) => {
    tx.update(userTokens)
      .set({ tokensRemaining: sql`${userTokens.tokensRemaining} + ${ANALYSIS_COST_CREDITS}` })
      .where(eq(userTokens.userId, userId))
      .run();
    tx.insert(creditLedger)
      .values({ userId, delta: ANALYSIS_COST_CREDITS, reason: 'analysis_refund', reference, createdAt: clock.now() })
      .run();
  });
}
