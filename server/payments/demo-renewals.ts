import { and, eq, like, lte } from 'drizzle-orm';
import { addMonth } from '../../core/billing';
import { PLANS } from '../../core/plans';
import { immediate, type Db } from '../../db/client';
import { userTokens } from '../../db/schema';
import type { Clock } from '../clock';
import { setBalanceTo } from '../credits/ledger';
import { DEMO_SUBSCRIPTION_PREFIX } from './demo-provider';

/**
 * Demo subscriptions renew here (Stripe's renew by webhook): when a refill is due the
 * balance is set to the plan's credits; past a cancellation date the plan ends.
 * Checked at start and hourly with the injected clock (server/ops/housekeeping.ts). Stripe's
 * subscriptions never match: their ids are Stripe's own.
 */
export function runDueRefills(db: Db, clock: Clock): number {
  const now = clock.now();
  const due = db
    .select()
    .from(userTokens)
    .where(and(like(userTokens.stripeSubscriptionId, `${DEMO_SUBSCRIPTION_PREFIX}_%`), eq(userTokens.subscriptionStatus, 'active'), lte(userTokens.nextRefillDate, now)))
    .all();
  for (const row of due) {
    immediate(db, (tx) => {
      if (row.cancelAt && row.cancelAt <= now) {
        tx.update(userTokens).set({ subscriptionStatus: 'canceled' }).where(eq(userTokens.userId, row.userId)).run();
        return;
      }
      if (!row.subscriptionType || !row.nextRefillDate) return;
      let next = row.nextRefillDate;
      while (next <= now) next = addMonth(next);
      setBalanceTo(tx, clock, row.userId, PLANS[row.subscriptionType].creditsPerMonth, 'plan_refill', `${row.stripeSubscriptionId}:${row.nextRefillDate.toISOString()}`);
      tx.update(userTokens).set({ lastRefillDate: row.nextRefillDate, nextRefillDate: next }).where(eq(userTokens.userId, row.userId)).run();
    });
  }
  return due.length;
}

