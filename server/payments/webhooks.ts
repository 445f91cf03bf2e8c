import { eq, or } from 'drizzle-orm';
import { PLANS, UNLIMITED_PASS_PRICE_PENCE } from '../../core/plans';
import { immediate } from '../../db/client';
import { userTokens } from '../../db/schema';
import { setBalanceTo } from '../credits/ledger';
import { addMonth } from './demo-provider';
import { applyPass, applySubscriptionStart, markProcessed, type BillingDeps } from './billing';
import type { BillingEvent, PaymentIntentInfo, SubscriptionInfo } from './types';

/**
 * Stripe webhooks (DECISIONS): each event applied once (its id stored in the same
 * transaction as its effect), and safe out of order: the subscription is re-read from
 * Stripe before it is applied, and a renewal older than the last one applied changes
 * nothing.
 */
export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored';

export async function handleBillingEvent(deps: BillingDeps, event: BillingEvent): Promise<WebhookOutcome> {
  const { db, clock, payments } = deps;
  if (event.type === 'ignored') {
    return immediate(db, (tx) => (markProcessed(tx, clock, `evt:${event.id}`, event.stripeType, null) ? 'ignored' : 'duplicate'));
  }

  // Provider reads happen before the transaction (better-sqlite3 transactions are synchronous).
  let subscription: SubscriptionInfo | null = null;
  let intent: PaymentIntentInfo | null = null;
  if (event.type === 'payment_intent.succeeded') intent = await payments.retrievePaymentIntent(event.paymentIntentId);
  else subscription = await payments.retrieveSubscription(event.subscriptionId);

  if (event.type === 'payment_intent.succeeded') {
    const userId = Number(intent?.metadata.userId);
    const owner = Number.isSafeInteger(userId) ? db.select().from(userTokens).where(eq(userTokens.userId, userId)).get() : undefined;
    if (!immediate(db, (tx) => markProcessed(tx, clock, `evt:${event.id}`, event.type, owner?.userId ?? null))) return 'duplicate';
    if (!intent || !owner || intent.status !== 'succeeded' || intent.currency !== 'gbp' || owner.stripeCustomerId !== intent.customerId) return 'ignored';
    // A payment the browser never reported (a closed tab) is applied here, under the same key as payment-success.
    if (intent.metadata.kind === 'pass' && intent.amount === UNLIMITED_PASS_PRICE_PENCE) {
      applyPass(db, clock, owner.userId, intent.id);
      return 'applied';
    }
    if (intent.metadata.kind === 'subscription' && intent.subscriptionId && intent.subscriptionId === owner.stripeSubscriptionId) {
      const sub = await payments.retrieveSubscription(intent.subscriptionId);
      const plan = sub?.plan ?? owner.subscriptionType;
      if (sub && plan && sub.customerId === owner.stripeCustomerId && intent.amount === PLANS[plan].pricePence) {
        applySubscriptionStart(db, clock, owner.userId, plan, intent.id, sub);
        return 'applied';
      }
    }
    return 'ignored';
  }

  const row = db
    .select()
    .from(userTokens)
    .where(or(eq(userTokens.stripeSubscriptionId, event.subscriptionId), eq(userTokens.stripeCustomerId, event.customerId)))
    .get();

  if (event.type === 'invoice.paid' && event.billingReason === 'subscription_create') {
    if (!immediate(db, (tx) => markProcessed(tx, clock, `evt:${event.id}`, event.type, row?.userId ?? null))) return 'duplicate';
    const plan = subscription?.plan ?? row?.subscriptionType;
    if (row && subscription && plan && row.stripeSubscriptionId === subscription.id && event.paymentIntentId) {
      applySubscriptionStart(db, clock, row.userId, plan, event.paymentIntentId, subscription);
    }
    return 'applied';
  }

  return immediate(db, (tx) => {
    if (!markProcessed(tx, clock, `evt:${event.id}`, event.type, row?.userId ?? null)) return 'duplicate';
    // Events for a subscription the user no longer has change nothing.
    if (!row || row.stripeSubscriptionId !== event.subscriptionId) return 'ignored';
    const set = (values: Partial<typeof userTokens.$inferInsert>) => tx.update(userTokens).set(values).where(eq(userTokens.userId, row.userId)).run();

    if (event.type === 'invoice.paid') {
      const periodStart = event.periodStart ?? event.created;
      const plan = subscription?.plan ?? row.subscriptionType;
      if (!plan || (row.lastRefillDate && periodStart <= row.lastRefillDate)) return 'ignored';
      // Each paid month sets the balance to the plan's credits: no carry-over.
      setBalanceTo(tx, clock, row.userId, PLANS[plan].creditsPerMonth, 'plan_renewal', event.invoiceId);
      set({
        subscriptionStatus: subscription?.status ?? 'active',
        lastRefillDate: periodStart,
        nextRefillDate: subscription?.currentPeriodEnd ?? addMonth(periodStart),
      });
      return 'applied';
    }
    if (event.type === 'invoice.payment_failed') {
      set({ subscriptionStatus: subscription?.status ?? 'past_due' });
      return 'applied';
    }
    // customer.subscription.updated / deleted: the re-read object is the truth, whatever the order.
    const status = subscription?.status ?? (event.type === 'customer.subscription.deleted' ? 'canceled' : row.subscriptionStatus);
    set({
      subscriptionStatus: status,
      cancelAt: subscription?.cancelAtPeriodEnd ? (subscription.cancelAt ?? subscription.currentPeriodEnd) : status === 'canceled' ? row.cancelAt : null,
    });
    return 'applied';
  });
}
