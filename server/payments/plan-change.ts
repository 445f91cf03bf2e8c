import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { remainingShare, upgradeCredits } from '../../core/billing';
import type { SubscriptionType } from '../../core/credits';
import { DomainError } from '../../core/errors';
import { formatGbp } from '../../core/money';
import { PLANS } from '../../core/plans';
import { immediate, type Db } from '../../db/client';
import { perDatabase } from '../../db/per-database';
import { userTokens } from '../../db/schema';
import type { Clock } from '../clock';
import { addPlanChangeCredits } from '../credits/ledger';
import { isSubscriptionActive, markProcessed, tokenRow, type BillingDeps } from './billing';
import type { SubscriptionInfo } from './types';

/**
 * Changing plan (docs/payments.md, Changing plan). Each paid month sets
 * the balance to the plan's credits. A change in the middle of a month is read that way:
 *
 * - Upgrade (more credits): at once. The provider charges the price difference for the share
 *   of the month left (Stripe's proration, invoiced and paid now), and the same share of the
 *   credit difference is added to the balance now (Lite to Pro with half the month left: about
 *   £24 and 350 credits). Nothing else moves: the renewal date stays, and at the renewal the
 *   balance is set to the new plan's credits. Proportional, so upgrading on the last day of a
 *   month buys a day's worth, not a month's credits for a day's price.
 * - Downgrade (fewer credits): the plan is the new one from now (what renews, what the cards
 *   show), the credits already paid for this month stay usable, and the next renewal bills the
 *   new price and sets the new plan's credits. No charge and no refund now, so buying a big plan,
 *   using it and downgrading gets no money back for credits already used.
 *
 * Each change is one ledger row ('plan_change', zero for a downgrade) written with the new plan
 * in one transaction, keyed once (processed_payment_events) by the upgrade's invoice, which its
 * invoice.paid webhook also uses (server/payments/webhooks.ts).
 */
export interface PlanChangeOutcome {
  direction: 'upgrade' | 'downgrade';
  creditsAdded: number;
  chargedPence: number;
  message: string;
}

/** Users with a change on its way to the provider: a second click waits for the first. */
const inFlight = perDatabase(() => new Set<number>());

function claim(db: Db, userId: number): () => void {
  const users = inFlight(db);
  if (users.has(userId)) throw new DomainError('CONFLICT', 'A plan change is already in progress. Please wait a moment.');
  users.add(userId);
  return () => users.delete(userId);
}

export const NO_SUBSCRIPTION_TO_CHANGE = 'You have no active subscription to change. Choose a plan to subscribe.';

export async function changePlan(deps: BillingDeps, userId: number, plan: SubscriptionType): Promise<PlanChangeOutcome> {
  const { db, clock, payments } = deps;
  const row = tokenRow(db, clock, userId);
  if (!row.stripeSubscriptionId || !row.subscriptionType || !isSubscriptionActive(row)) throw new DomainError('NOT_FOUND', NO_SUBSCRIPTION_TO_CHANGE);
  const from = PLANS[row.subscriptionType];
  const to = PLANS[plan];
  if (from.id === to.id) throw new DomainError('CONFLICT', `You are already on the ${to.name} plan.`);
  if (row.subscriptionStatus === 'past_due') {
    throw new DomainError('CONFLICT', 'Your last monthly payment did not go through, so the plan cannot be changed until it is paid.');
  }
  if (row.cancelAt) {
    throw new DomainError('CONFLICT', 'Your subscription is set to end at the close of this period, so its plan cannot be changed. Subscribe again once it has ended.');
  }

  const release = claim(db, userId);
  try {
    const upgrade = to.creditsPerMonth > from.creditsPerMonth;
    const now = clock.now();
    const storedPeriod = row.lastRefillDate && row.nextRefillDate ? { start: row.lastRefillDate, end: row.nextRefillDate } : null;
    const result = await payments.changePlan({
      subscriptionId: row.stripeSubscriptionId,
      plan: to.id,
      amountPence: to.pricePence,
      prorate: upgrade,
      prorationDate: now,
      fromAmountPence: from.pricePence,
      storedPeriod,
    });
    if (result.status === 'payment_failed') {
      throw new DomainError('PAYMENT_FAILED', `The charge for the upgrade did not go through (${result.message.toLowerCase()}), so you stay on the ${from.name} plan.`);
    }
    const credits = upgrade ? upgradeCredits(from.creditsPerMonth, to.creditsPerMonth, shareLeft(result.subscription, storedPeriod, now)) : 0;
    // A downgrade, or the demo, has no invoice: a fresh id, so two changes in the same instant stay two.
    const reference = result.invoiceId ?? `${row.stripeSubscriptionId}:${randomUUID()}`;
    const applied = immediate(db, (tx) => applyPlanChange(tx, clock, userId, { from: from.id, to: to.id, credits, reference }));
    // 'already': the upgrade's invoice.paid webhook got here first and added the same credits.
    const creditsAdded = applied === 'superseded' ? 0 : credits;
    return {
      direction: upgrade ? 'upgrade' : 'downgrade',
      creditsAdded,
      chargedPence: result.chargedPence,
      message: upgrade
        ? `You are now on the ${to.name} plan: ${creditsAdded} credits were added for the rest of this month, for ${formatGbp(result.chargedPence)}.`
        : `You are now on the ${to.name} plan: you keep this month's credits, and from your next renewal you pay ${formatGbp(to.pricePence)} for ${to.creditsPerMonth} credits a month.`,
    };
  } finally {
    release();
  }
}

/** The share of the paid period left: the provider's period (Stripe), else the stored one (demo). */
export function shareLeft(subscription: SubscriptionInfo, stored: { start: Date; end: Date } | null, at: Date): number {
  const start = subscription.currentPeriodStart ?? stored?.start;
  const end = subscription.currentPeriodEnd ?? stored?.end;
  return start && end ? remainingShare(start, end, at) : 0;
}

/**
 * Writes a change once under its reference ('already' when it was written before), and only
 * from the plan it was priced from ('superseded' when the plan is no longer that one: another
 * change, or its webhook, got there first).
 */
export function applyPlanChange(
  tx: Db,
  clock: Clock,
  userId: number,
  change: { from: SubscriptionType; to: SubscriptionType; credits: number; reference: string },
): 'applied' | 'already' | 'superseded' {
  if (!markProcessed(tx, clock, `plan_change:${change.reference}`, 'plan_change', userId)) return 'already';
  const row = tokenRow(tx, clock, userId);
  if (row.subscriptionType !== change.from) return row.subscriptionType === change.to ? 'already' : 'superseded';
  addPlanChangeCredits(tx, clock, userId, change.credits, change.reference);
  tx.update(userTokens).set({ subscriptionType: change.to }).where(eq(userTokens.userId, userId)).run();
  return 'applied';
}
