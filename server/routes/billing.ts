import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { planChangeRequestSchema } from '../../core/billing';
import { subscriptionTypeSchema } from '../../core/credits';
import { PLANS, UNLIMITED_PASS_PRICE_PENCE } from '../../core/plans';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { signedWebhookEvent, viaProvider } from '../http/payment-provider';
import { currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { tokensView } from '../credits/tokens-view';
import { cancelSubscription, confirmPayment, startPassPayment, startSubscription, type BillingDeps } from '../payments/billing';
import type { DemoProvider } from '../payments/demo-provider';
import { changePlan } from '../payments/plan-change';
import { handleBillingEvent } from '../payments/webhooks';

/** Billing routes (docs/product.md, Credits and payments). */
export const billingRoutes = new Hono<AppEnv>();

function billing(c: Context<AppEnv>): BillingDeps {
  const { db, clock, payments } = c.var.deps;
  if (!payments) throw new ApiError('PAYMENTS_NOT_CONFIGURED', 'Payments are not configured on this server. Ask the operator to set the Stripe keys.');
  return { db, clock, payments };
}

billingRoutes.get('/billing/config', requireUser, (c) => {
  const payments = c.var.deps.payments;
  return c.json({
    provider: payments?.kind ?? null,
    publishableKey: payments?.publishableKey ?? null,
    passPricePence: UNLIMITED_PASS_PRICE_PENCE,
    passDailyCap: c.var.deps.config.passDailyCap,
    plans: Object.values(PLANS),
  });
});

// The client may send an amount; it is ignored: the server decides every price.
billingRoutes.post('/create-payment-intent', requireUser, async (c) => {
  const deps = billing(c);
  const clientSecret = await viaProvider(() => startPassPayment(deps, currentUser(c)));
  return c.json({ clientSecret });
});

billingRoutes.post('/create-subscription', requireUser, async (c) => {
  const deps = billing(c);
  const { subscriptionType } = await readJson(c, z.object({ subscriptionType: subscriptionTypeSchema }));
  const clientSecret = await viaProvider(() => startSubscription(deps, currentUser(c), subscriptionType));
  return c.json({ clientSecret });
});

const paymentSuccessSchema = z.object({
  subscriptionType: subscriptionTypeSchema.optional(),
  paymentType: z.enum(['monthly', 'one_time']).default('monthly'),
  paymentIntentId: z.string().min(1).max(255),
});

billingRoutes.post('/payment-success', requireUser, async (c) => {
  const deps = billing(c);
  const input = await readJson(c, paymentSuccessSchema);
  const user = currentUser(c);
  const { applied } = await viaProvider(() => confirmPayment(deps, user, input));
  return c.json({
    message: applied ? 'Payment applied.' : 'This payment was already applied.',
    applied,
    tokens: tokensView(deps.db, deps.clock, user.id),
  });
});

billingRoutes.post('/cancel-subscription', requireUser, async (c) => {
  const deps = billing(c);
  const user = currentUser(c);
  await viaProvider(() => cancelSubscription(deps, user.id));
  return c.json({ message: 'Your subscription will end at the close of the current period.', tokens: tokensView(deps.db, deps.clock, user.id) });
});

/** Moves an active subscription to another plan (server/payments/plan-change.ts says how credits and charges follow). */
billingRoutes.post('/subscription/change', requireUser, async (c) => {
  const deps = billing(c);
  const { plan } = await readJson(c, planChangeRequestSchema);
  const user = currentUser(c);
  const outcome = await viaProvider(() => changePlan(deps, user.id, plan));
  return c.json({ ...outcome, tokens: tokensView(deps.db, deps.clock, user.id) });
});

/** The demo card form's confirm step (demo provider only). */
billingRoutes.post('/demo/confirm-payment', requireUser, async (c) => {
  const payments = c.var.deps.payments;
  if (payments?.kind !== 'demo') throw new ApiError('NOT_FOUND', 'Demo payments are not enabled on this server.');
  const { clientSecret, cardNumber } = await readJson(c, z.object({ clientSecret: z.string().min(1).max(300), cardNumber: z.string().min(1).max(40) }));
  const result = (payments as DemoProvider).confirm(clientSecret, cardNumber);
  if (result.status === 'not_found') throw new ApiError('NOT_FOUND', 'This payment was not found. Please start again.');
  if (result.status === 'declined') throw new ApiError('PAYMENT_FAILED', result.message);
  if (result.status === 'unknown_card') throw new ApiError('VALIDATION_ERROR', result.message, { details: { cardNumber: [result.message] } });
  return c.json({ status: 'succeeded', paymentIntentId: result.paymentIntentId });
});

/**
 * Stripe webhooks: signature checked over the raw body; no cookies, no same-origin rule. Anyone
 * can post here, so the body is read like every other public one: at most 1 MB, with the idle
 * timeout (http/body.ts).
 */
billingRoutes.post(
  '/stripe/webhook',
  async (c) => {
    const deps = billing(c);
    const event = await signedWebhookEvent(c, (raw, signature) => deps.payments.parseWebhook(raw, signature));
    const outcome = await viaProvider(() => handleBillingEvent(deps, event));
    return c.json({ received: true, outcome });
  },
);
