import { eq } from 'drizzle-orm';
import { addMonth, hasActiveSubscription } from '../../core/billing';
import type { SubscriptionType } from '../../core/credits';
import { PLANS, UNLIMITED_PASS_DAYS, UNLIMITED_PASS_PRICE_PENCE } from '../../core/plans';
import { immediate, type Db } from '../../db/client';
import { processedPaymentEvents, userTokens, type UserRow } from '../../db/schema';
import type { Clock } from '../clock';
import { setBalanceTo } from '../credits/ledger';
import { DomainError } from '../../core/errors';
import { isChargeCurrency } from './currency';
import type { PaymentIntentInfo, PaymentProvider, SubscriptionInfo } from './types';

/**
 * Billing (docs/product.md, Credits and payments): the server decides every price, honours a
 * payment only after re-reading it from the provider and checking status, amount,
 * currency and owner, and applies each payment and each webhook event once, in the same
 * transaction as its effect (processed_payment_events).
 */
export interface BillingDeps {
  db: Db;
  clock: Clock;
  payments: PaymentProvider;
}

type TokenRow = typeof userTokens.$inferSelect;
const DAY_MS = 24 * 60 * 60 * 1000;
export const ALREADY_SUBSCRIBED_MESSAGE = 'You already have an active subscription. Cancel it before choosing another plan.';

/** The user's balance row, made on a write path for an account that somehow lacks one. */
function tokenRow(db: Db, clock: Clock, userId: number): TokenRow {
  db.insert(userTokens).values({ userId, createdAt: clock.now() }).onConflictDoNothing().run();
  return db.select().from(userTokens).where(eq(userTokens.userId, userId)).get()!;
}

/** Records an id once; false when it was already recorded (the effect must not run again). */
function markProcessed(tx: Db, clock: Clock, key: string, kind: string, userId: number | null): boolean {
  return tx.insert(processedPaymentEvents).values({ id: key, kind, userId, createdAt: clock.now() }).onConflictDoNothing().run().changes === 1;
}

export function isSubscriptionActive(row: Pick<TokenRow, 'subscriptionStatus'>): boolean {
  return hasActiveSubscription(row.subscriptionStatus);
}

async function customerFor(deps: BillingDeps, user: UserRow): Promise<string> {
  const row = tokenRow(deps.db, deps.clock, user.id);
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  const customerId = await deps.payments.ensureCustomer({ id: user.id, email: user.email, name }, row.stripeCustomerId);
  if (customerId !== row.stripeCustomerId) {
    deps.db.update(userTokens).set({ stripeCustomerId: customerId }).where(eq(userTokens.userId, user.id)).run();
  }
  return customerId;
}

/** The £29.99 pass: the amount comes from core/plans.ts, whatever the client sent. */
export async function startPassPayment(deps: BillingDeps, user: UserRow): Promise<string> {
  const customerId = await customerFor(deps, user);
  const created = await deps.payments.createPassPayment({ customerId, userId: user.id, amountPence: UNLIMITED_PASS_PRICE_PENCE });
  return created.clientSecret;
}

export async function startSubscription(deps: BillingDeps, user: UserRow, plan: SubscriptionType): Promise<string> {
  if (isSubscriptionActive(tokenRow(deps.db, deps.clock, user.id))) throw new DomainError('CONFLICT', ALREADY_SUBSCRIBED_MESSAGE);
  const customerId = await customerFor(deps, user);
  const created = await deps.payments.createSubscription({ customerId, userId: user.id, plan, amountPence: PLANS[plan].pricePence });
  // Remember the pending subscription: only its payment can start the plan.
  deps.db
    .update(userTokens)
    .set({ stripeSubscriptionId: created.subscriptionId, subscriptionStatus: 'incomplete', subscriptionType: plan, cancelAt: null })
    .where(eq(userTokens.userId, user.id))
    .run();
  return created.clientSecret;
}

const refuse = (message: string) => new DomainError('VALIDATION_ERROR', message);

/** Checks a payment intent belongs to this user and is paid in full, in pounds. */
function verifyIntent(intent: PaymentIntentInfo | null, row: TokenRow, userId: number, amountPence: number): PaymentIntentInfo {
  if (!intent || !row.stripeCustomerId || intent.customerId !== row.stripeCustomerId) throw refuse('This payment could not be found for your account.');
  if (intent.metadata.userId !== undefined && intent.metadata.userId !== String(userId)) throw refuse('This payment could not be found for your account.');
  if (intent.status !== 'succeeded') throw new DomainError('PAYMENT_FAILED', 'This payment has not succeeded yet.');
  if (!isChargeCurrency(intent.currency) || intent.amount !== amountPence) throw refuse('This payment does not match the price of what you bought.');
  return intent;
}

export interface PaymentConfirmation {
  paymentType: 'monthly' | 'one_time';
  paymentIntentId: string;
  subscriptionType?: SubscriptionType;
}

/** POST /api/payment-success: verify with the provider, then apply once. */
export async function confirmPayment(deps: BillingDeps, user: UserRow, input: PaymentConfirmation): Promise<{ applied: boolean }> {
  const { db, clock, payments } = deps;
  const intent = await payments.retrievePaymentIntent(input.paymentIntentId);
  const row = tokenRow(db, clock, user.id);
  if (input.paymentType === 'one_time') {
    if (intent && intent.metadata.kind !== 'pass') throw refuse('This payment is not for the Unlimited pass.');
    verifyIntent(intent, row, user.id, UNLIMITED_PASS_PRICE_PENCE);
    return { applied: applyPass(db, clock, user.id, input.paymentIntentId) };
  }
  if (!intent?.subscriptionId || intent.subscriptionId !== row.stripeSubscriptionId) {
    throw refuse('This payment is not for your pending subscription.');
  }
  const subscription = await payments.retrieveSubscription(intent.subscriptionId);
  const plan = subscription?.plan ?? row.subscriptionType;
  if (!subscription || subscription.customerId !== row.stripeCustomerId || !plan) throw refuse('This subscription could not be found for your account.');
  if (input.subscriptionType && input.subscriptionType !== plan) throw refuse('This payment is for a different plan.');
  verifyIntent(intent, row, user.id, PLANS[plan].pricePence);
  return { applied: applySubscriptionStart(db, clock, user.id, plan, intent.id, subscription) };
}

/** The pass runs 30 days from payment, or on from the end of a pass still running. */
function applyPass(db: Db, clock: Clock, userId: number, paymentIntentId: string): boolean {
  return immediate(db, (tx) => {
    if (!markProcessed(tx, clock, `pi:${paymentIntentId}`, 'pass', userId)) return false;
    const now = clock.now();
    const row = tokenRow(tx, clock, userId);
    const from = row.passEndsAt && row.passEndsAt > now ? row.passEndsAt : now;
    tx.update(userTokens)
      .set({ passEndsAt: new Date(from.getTime() + UNLIMITED_PASS_DAYS * DAY_MS), stripePaymentIntentId: paymentIntentId })
      .where(eq(userTokens.userId, userId))
      .run();
    return true;
  });
}

/** The first paid month: the plan's credits (no carry-over), the dates and the ids. */
function applySubscriptionStart(db: Db, clock: Clock, userId: number, plan: SubscriptionType, paymentIntentId: string, subscription: SubscriptionInfo): boolean {
  return immediate(db, (tx) => {
    if (!markProcessed(tx, clock, `pi:${paymentIntentId}`, 'subscription_start', userId)) return false;
    const row = tokenRow(tx, clock, userId);
    // The webhook may have started this subscription already under another key.
    if (row.stripeSubscriptionId === subscription.id && isSubscriptionActive(row) && row.lastRefillDate) return false;
    const now = clock.now();
    setBalanceTo(tx, clock, userId, PLANS[plan].creditsPerMonth, 'plan_start', paymentIntentId);
    tx.update(userTokens)
      .set({
        subscriptionType: plan,
        subscriptionStatus: 'active',
        stripeSubscriptionId: subscription.id,
        stripePaymentIntentId: paymentIntentId,
        lastRefillDate: now,
        nextRefillDate: subscription.currentPeriodEnd ?? addMonth(now),
        cancelAt: null,
      })
      .where(eq(userTokens.userId, userId))
      .run();
    return true;
  });
}

export async function cancelSubscription(deps: BillingDeps, userId: number): Promise<void> {
  const row = tokenRow(deps.db, deps.clock, userId);
  if (!row.stripeSubscriptionId || !isSubscriptionActive(row)) throw new DomainError('NOT_FOUND', 'You have no active subscription to cancel.');
  const info = await deps.payments.cancelAtPeriodEnd(row.stripeSubscriptionId);
  deps.db
    .update(userTokens)
    .set({ cancelAt: info.cancelAt ?? info.currentPeriodEnd ?? row.nextRefillDate })
    .where(eq(userTokens.userId, userId))
    .run();
}

export { applyPass, applySubscriptionStart, markProcessed, tokenRow };
