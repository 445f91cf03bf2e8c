import { and, eq, gte, sql } from 'drizzle-orm';
import { ANALYSIS_COST_CREDITS } from '../../core/credits';
import { immediate, type Db } from '../../db/client';
import { creditLedger, userTokens } from '../../db/schema';
import type { Clock } from '../clock';

/**
 * The credit ledger (docs/product.md, Credits and payments): every balance change is a ledger row written
 * in the same transaction as the running balance in user_tokens, so the sum of a
 * user's ledger always equals their balance.
 */
export type LedgerReason =
  | 'grant'
  | 'analysis'
  | 'analysis_refund'
  | 'plan_start'
  | 'plan_renewal'
  | 'plan_refill'
  /** A plan change mid-month: an upgrade's extra credits, or a zero row marking a downgrade. */
  | 'plan_change'
  /** An analysis under the Unlimited pass: a zero row, so the daily fair-use cap can be counted. */
  | 'analysis_pass'
  | 'analysis_pass_refund';

/** How an analysis was paid for, so a failure refunds the same way. */
export type AnalysisPayment = 'credits' | 'pass';

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
    addCredits(tx, clock, userId, amount, reason, reference);
    return balanceOf(tx, userId);
  });
}

/** Credits in: the balance and the period's total grow together, with their ledger row. Call inside a transaction. */
function addCredits(tx: Db, clock: Clock, userId: number, amount: number, reason: LedgerReason, reference?: string): void {
  ensureTokenRow(tx, clock, userId);
  tx.update(userTokens)
    .set({
      tokensRemaining: sql`${userTokens.tokensRemaining} + ${amount}`,
      tokensTotal: sql`${userTokens.tokensTotal} + ${amount}`,
    })
    .where(eq(userTokens.userId, userId))
    .run();
  tx.insert(creditLedger).values({ userId, delta: amount, reason, reference, createdAt: clock.now() }).run();
}

/**
 * Pays for one analysis before the model is asked. During an Unlimited pass it costs no
 * credits, up to the daily fair-use cap; past the cap, or without a pass, it
 * takes 10 credits by a conditional update that succeeds only while the balance covers
 * it, so concurrent requests can never take the balance below zero. Returns null,
 * changing nothing, when it cannot be paid.
 */
export function reserveAnalysis(
  db: Db,
  clock: Clock,
  userId: number,
  reference: string,
  passDailyCap: number,
  /** The person spending the team's credits (credit_ledger.by_user_id); null for a visitor's or background work. */
  by: number | null = null,
): AnalysisPayment | null {
  return immediate(db, (tx) => reserveAnalysisIn(tx, clock, userId, reference, passDailyCap, by));
}

/** reserveAnalysis inside a transaction the caller holds (an embed also counts its daily cap there). */
export function reserveAnalysisIn(
  tx: Db,
  clock: Clock,
  userId: number,
  reference: string,
  passDailyCap: number,
  by: number | null = null,
): AnalysisPayment | null {
  const now = clock.now();
  if (passCovers(tx, userId, now, passDailyCap)) {
    tx.insert(creditLedger).values({ userId, delta: 0, reason: 'analysis_pass', reference, byUserId: by, createdAt: now }).run();
    return 'pass';
  }
  const changed = tx
    .update(userTokens)
    .set({ tokensRemaining: sql`${userTokens.tokensRemaining} - ${ANALYSIS_COST_CREDITS}` })
    .where(and(eq(userTokens.userId, userId), gte(userTokens.tokensRemaining, ANALYSIS_COST_CREDITS)))
    .run().changes;
  if (changed === 0) return null;
  tx.insert(creditLedger)
    .values({ userId, delta: -ANALYSIS_COST_CREDITS, reason: 'analysis', reference, byUserId: by, createdAt: now })
    .run();
  return 'credits';
}

function passCovers(db: Db, userId: number, now: Date, passDailyCap: number): boolean {
  const row = db.select({ passEndsAt: userTokens.passEndsAt }).from(userTokens).where(eq(userTokens.userId, userId)).get();
  return Boolean(row?.passEndsAt && row.passEndsAt > now && passAnalysesToday(db, userId, now) < passDailyCap);
}

/**
 * Whether one analysis could be paid now, changing nothing: the early refusal of a public
 * embed before its upload is read. reserveAnalysis still decides, atomically.
 */
export function canPayAnalysis(db: Db, clock: Clock, userId: number, passDailyCap: number): boolean {
  return passCovers(db, userId, clock.now(), passDailyCap) || balanceOf(db, userId) >= ANALYSIS_COST_CREDITS;
}

/** Pass analyses since midnight UTC, less those refunded. */
export function passAnalysesToday(db: Db, userId: number, now: Date): number {
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const count = (reason: LedgerReason) =>
    db
      .select({ n: sql<number>`count(*)` })
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, reason), gte(creditLedger.createdAt, midnight)))
      .get()?.n ?? 0;
  return count('analysis_pass') - count('analysis_pass_refund');
}

/** Gives back a reservation when the analysis failed, the way it was paid. */
export function refundAnalysis(db: Db, clock: Clock, userId: number, reference: string, payment: AnalysisPayment): void {
  immediate(db, (tx) => {
    if (payment === 'pass') {
      tx.insert(creditLedger).values({ userId, delta: 0, reason: 'analysis_pass_refund', reference, createdAt: clock.now() }).run();
      return;
    }
    tx.update(userTokens)
      .set({ tokensRemaining: sql`${userTokens.tokensRemaining} + ${ANALYSIS_COST_CREDITS}` })
      .where(eq(userTokens.userId, userId))
      .run();
    tx.insert(creditLedger)
      .values({ userId, delta: ANALYSIS_COST_CREDITS, reason: 'analysis_refund', reference, createdAt: clock.now() })
      .run();
  });
}

/**
 * Sets the balance to a plan's monthly credits (each paid month sets the
 * balance, no carry-over: docs/product.md, Credits and payments), as one ledger row of the difference. Call inside a transaction.
 */
export function setBalanceTo(tx: Db, clock: Clock, userId: number, credits: number, reason: LedgerReason, reference: string): void {
  ensureTokenRow(tx, clock, userId);
  const delta = credits - balanceOf(tx, userId);
  tx.update(userTokens).set({ tokensRemaining: credits, tokensTotal: credits }).where(eq(userTokens.userId, userId)).run();
  tx.insert(creditLedger).values({ userId, delta, reason, reference, createdAt: clock.now() }).run();
}

/**
 * Adds a plan change's credits (zero for a downgrade, which keeps this month's credits) as
 * one ledger row, the period's total growing with it. Call inside a transaction.
 */
export function addPlanChangeCredits(tx: Db, clock: Clock, userId: number, credits: number, reference: string): void {
  if (!Number.isInteger(credits) || credits < 0) throw new RangeError('credits must be a whole number, 0 or more');
  addCredits(tx, clock, userId, credits, 'plan_change', reference);
}
