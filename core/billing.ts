import { z } from 'zod';
import { subscriptionTypeSchema, userTokensResponseSchema } from './credits';

/**
 * The billing API's answers (docs/product.md, Credits and payments), shared so the
 * dashboard validates what the server sends.
 */

/** GET /api/billing/config: which card form to show. null: payments are off on this server. */
export const paymentProviderKindSchema = z.enum(['stripe', 'demo']).nullable();
export type PaymentProviderKind = z.infer<typeof paymentProviderKindSchema>;

/** docs/product.md, Credits and payments: the Unlimited pass's fair-use cap, analyses a day (the server's PASS_DAILY_CAP default). */
export const DEFAULT_PASS_DAILY_CAP = 25;

export const billingConfigSchema = z.object({
  provider: paymentProviderKindSchema,
  publishableKey: z.string().nullable(),
  passPricePence: z.number().int(),
  /** The server's configured cap; older servers do not send it. */
  passDailyCap: z.number().int().positive().default(DEFAULT_PASS_DAILY_CAP),
});
export type BillingConfig = z.infer<typeof billingConfigSchema>;

/** POST /api/create-payment-intent and POST /api/create-subscription. */
export const clientSecretResponseSchema = z.object({ clientSecret: z.string().min(1) });

export const paymentTypeSchema = z.enum(['monthly', 'one_time']);
export type PaymentType = z.infer<typeof paymentTypeSchema>;

/** POST /api/payment-success and POST /api/cancel-subscription answer with the new balance. */
export const paymentSuccessResponseSchema = z.object({
  message: z.string(),
  applied: z.boolean(),
  tokens: userTokensResponseSchema,
});

export const cancelSubscriptionResponseSchema = z.object({
  message: z.string(),
  tokens: userTokensResponseSchema,
});

/** POST /api/demo/confirm-payment. */
export const demoConfirmResponseSchema = z.object({
  status: z.literal('succeeded'),
  paymentIntentId: z.string().min(1),
});

/**
 * The demo provider's two test cards (docs/payments.md, Demo mode): the same numbers Stripe uses in test
 * mode for a successful and a declined card (docs.stripe.com/testing).
 */
export const DEMO_TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
} as const;

/** docs/product.md, Credits and payments: a subscription counts as active (plan buttons disabled) while active or past due. */
export function hasActiveSubscription(status: string | null | undefined): boolean {
  return status === 'active' || status === 'past_due';
}

/** POST /api/subscription/change: the plan to move an active subscription to. */
export const planChangeRequestSchema = z.object({ plan: subscriptionTypeSchema });

export const planChangeResponseSchema = z.object({
  message: z.string(),
  /** 'upgrade' takes effect now; 'downgrade' keeps this month's credits and bills the new price from the next renewal. */
  direction: z.enum(['upgrade', 'downgrade']),
  /** Credits added now (an upgrade's share of the month left), integer. */
  creditsAdded: z.number().int(),
  /** What the provider charged now for the rest of this month, integer pence (0 for a downgrade). */
  chargedPence: z.number().int(),
  tokens: userTokensResponseSchema,
});
export type PlanChangeResponse = z.infer<typeof planChangeResponseSchema>;

/**
 * The share of the current period still to run at `at`, 0 to 1: the proration fraction
 * Stripe uses for a mid-period change (its proration is by the second, over the period:
 * docs.stripe.com/billing/subscriptions/prorations).
 */
export function remainingShare(periodStart: Date, periodEnd: Date, at: Date): number {
  const length = periodEnd.getTime() - periodStart.getTime();
  if (length <= 0) return 0;
  return Math.min(1, Math.max(0, (periodEnd.getTime() - at.getTime()) / length));
}

/**
 * An upgrade's extra credits now: the difference in monthly credits for the share of the
 * month left, to the nearest whole credit (as the charge is to the nearest penny), the same
 * share Stripe charges of the price difference. Moments after subscribing that is still the
 * full difference (Lite to Pro: 700).
 */
export function upgradeCredits(fromCredits: number, toCredits: number, share: number): number {
  return Math.max(0, Math.round((toCredits - fromCredits) * share));
}

/** The demo provider's charge for an upgrade: the price difference for the share left, in whole pence. */
export function upgradePricePence(fromPence: number, toPence: number, share: number): number {
  return Math.max(0, Math.round((toPence - fromPence) * share));
}

/** One month on, the way Stripe bills monthly: same day of month, clamped to its end. */
export function addMonth(date: Date): Date {
  const next = new Date(date);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}
