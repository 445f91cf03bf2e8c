import { z } from 'zod';
import { userTokensResponseSchema } from './credits';

/**
 * The billing API's answers (SPEC 7; DECISIONS, Credits and payments), shared so the
 * dashboard validates what the server sends.
 */

/** GET /api/billing/config: which card form to show. null: payments are off on this server. */
export const paymentProviderKindSchema = z.enum(['stripe', 'demo']).nullable();
export type PaymentProviderKind = z.infer<typeof paymentProviderKindSchema>;

/** DECISIONS: the Unlimited pass's fair-use cap, analyses a day (the server's PASS_DAILY_CAP default). */
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
 * The demo provider's two test cards (DECISIONS): the same numbers Stripe uses in test
 * mode for a successful and a declined card (docs.stripe.com/testing).
 */
export const DEMO_TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
} as const;

/** SPEC 4: a subscription counts as active (plan buttons disabled) while active or past due. */
export function hasActiveSubscription(status: string | null | undefined): boolean {
  return status === 'active' || status === 'past_due';
}
