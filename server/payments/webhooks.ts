import { eq, or } from 'drizzle-orm';
import { PLANS, UNLIMITED_PASS_PRICE_PENCE } from '../../core/plans';
import { immediate, type Db } from '../../db/client';
import { userTokens } from '../../db/schema';
import { setBalanceTo } from '../credits/ledger';
import { addMonth, upgradeCredits } from '../../core/billing';
import { applyPass, applySubscriptionStart, markProcessed, type BillingDeps } from './billing';
import { applyPlanChange, shareLeft } from './plan-change';
import type { Clock } from '../clock';
import { isChargeCurrency } from './currency';
import type { BillingEvent, PaymentIntentInfo, SubscriptionInfo } from './types';

type SubscriptionEvent = Exclude<BillingEvent, { type: 'ignored' } | { type: 'payment_intent.succeeded' }>;

/**
 * Stripe webhooks (docs/payments.md, Stripe): each event applied once, and safe out of order: the
 * subscription is re-read from Stripe before it is applied, and a renewal older than the last
 * one applied changes nothing.
 *
 * Every provider read happens first; then the event's mark and its effect commit in one
 * transaction. A read that fails throws (the route answers 5xx) with nothing
 * marked, so Stripe's retry applies the event; a mark without its effect cannot happen.
 */
export type WebhookOutcome = 'applied' | 'duplicate' | 'ignored';

export async function handleBillingEvent(deps: BillingDeps, event: BillingEvent): Promise<WebhookOutcome> {
  const { db, clock, payments } = deps;
  if (event.type === 'ignored') {
    return immediate(db, (tx) => (markProcessed(tx, clock, `evt:${event.id}`, event.stripeType, null) ? 'ignored' : 'duplicate'));
  }

  // Reads first (better-sqlite3 transactions are synchronous and must not await).
  if (event.type === 'payment_intent.succeeded') {
    const intent = await payments.retrievePaymentIntent(event.paymentIntentId);
    const subscription =
      intent?.metadata.kind === 'subscription' && intent.subscriptionId ? await payments.retrieveSubscription(intent.subscriptionId) : null;
    return immediate(db, (tx) => applyPaymentIntent(tx, clock, event.id, intent, subscription));
  }
  const subscription = await payments.retrieveSubscription(event.subscriptionId);
  return immediate(db, (tx) => applySubscriptionEvent(tx, clock, event, subscription));
}

/** payment_intent.succeeded: a payment the browser never reported (a closed tab), under the same key as payment-success. */
function applyPaymentIntent(tx: Db, clock: Clock, eventId: string, intent: PaymentIntentInfo | null, sub: SubscriptionInfo | null): WebhookOutcome {
  const userId = Number(intent?.metadata.userId);
  const owner = Number.isSafeInteger(userId) ? tx.select().from(userTokens).where(eq(userTokens.userId, userId)).get() : undefined;
  if (!markProcessed(tx, clock, `evt:${eventId}`, 'payment_intent.succeeded', owner?.userId ?? null)) return 'duplicate';
  if (!intent || !owner || intent.status !== 'succeeded' || !isChargeCurrency(intent.currency) || owner.stripeCustomerId !== intent.customerId) return 'ignored';
  if (intent.metadata.kind === 'pass' && intent.amount === UNLIMITED_PASS_PRICE_PENCE) {
    applyPass(tx, clock, owner.userId, intent.id);
    return 'applied';
  }
  if (intent.metadata.kind === 'subscription' && intent.subscriptionId && intent.subscriptionId === owner.stripeSubscriptionId) {
    const plan = sub?.plan ?? owner.subscriptionType;
    if (sub && plan && sub.customerId === owner.stripeCustomerId && intent.amount === PLANS[plan].pricePence) {
      applySubscriptionStart(tx, clock, owner.userId, plan, intent.id, sub);
      return 'applied';
    }
  }
  return 'ignored';
}

/** The invoice and subscription events, from the re-read subscription. */
function applySubscriptionEvent(tx: Db, clock: Clock, event: SubscriptionEvent, subscription: SubscriptionInfo | null): WebhookOutcome {
  const row = tx
    .select()
    .from(userTokens)
    .where(or(eq(userTokens.stripeSubscriptionId, event.subscriptionId), eq(userTokens.stripeCustomerId, event.customerId)))
    .get();
  if (!markProcessed(tx, clock, `evt:${event.id}`, event.type, row?.userId ?? null)) return 'duplicate';

  if (event.type === 'invoice.paid' && event.billingReason === 'subscription_create') {
    const plan = subscription?.plan ?? row?.subscriptionType;
    // Usually payment_intent.succeeded starts it: webhook invoices rarely carry their payments.
    if (row && subscription && plan && row.stripeSubscriptionId === subscription.id && event.paymentIntentId) {
      applySubscriptionStart(tx, clock, row.userId, plan, event.paymentIntentId, subscription);
      return 'applied';
    }
    return 'ignored';
  }

  // Events for a subscription the user no longer has change nothing.
  if (!row || row.stripeSubscriptionId !== event.subscriptionId) return 'ignored';

  if (event.type === 'invoice.paid' && event.billingReason === 'subscription_update') {
    // A plan change's proration, never a new month: the change route normally applied it under
    // the same key (the invoice); this covers a change whose answer never reached us.
    const to = subscription?.plan;
    const from = row.subscriptionType;
    if (!subscription || !to || !from || to === from) return 'ignored';
    const upgrade = PLANS[to].creditsPerMonth > PLANS[from].creditsPerMonth;
    const stored = row.lastRefillDate && row.nextRefillDate ? { start: row.lastRefillDate, end: row.nextRefillDate } : null;
    const credits = upgrade ? upgradeCredits(PLANS[from].creditsPerMonth, PLANS[to].creditsPerMonth, shareLeft(subscription, stored, event.periodStart ?? event.created)) : 0;
    return applyPlanChange(tx, clock, row.userId, { from, to, credits, reference: event.invoiceId }) === 'applied' ? 'applied' : 'ignored';
  }
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
  // A downgrade made at Stripe whose answer never reached us (an upgrade waits for its invoice.paid):
  // the new plan from now, no credits, as the change route would have written it.
  const billed = subscription?.plan;
  if (event.type === 'customer.subscription.updated' && billed && row.subscriptionType && billed !== row.subscriptionType) {
    if (PLANS[billed].creditsPerMonth < PLANS[row.subscriptionType].creditsPerMonth) {
      applyPlanChange(tx, clock, row.userId, { from: row.subscriptionType, to: billed, credits: 0, reference: `${event.subscriptionId}:${event.id}` });
    }
  }
  // customer.subscription.updated / deleted: the re-read object is the truth, whatever the order.
  const status = subscription?.status ?? (event.type === 'customer.subscription.deleted' ? 'canceled' : row.subscriptionStatus);
  set({
    subscriptionStatus: status,
    cancelAt: subscription?.cancelAtPeriodEnd ? (subscription.cancelAt ?? subscription.currentPeriodEnd) : status === 'canceled' ? row.cancelAt : null,
  });
  return 'applied';
}
