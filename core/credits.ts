import { z } from 'zod';

export { ANALYSIS_COST_CREDITS, analysesAvailable } from './analysis-cost';

export const subscriptionTypeSchema = z.enum(['lite', 'standard', 'pro']);
export type SubscriptionType = z.infer<typeof subscriptionTypeSchema>;

export const userTokensResponseSchema = z.object({
  tokensRemaining: z.number().int(),
  tokensTotal: z.number().int(),
  subscriptionType: subscriptionTypeSchema.nullable(),
  subscriptionStatus: z.string().nullable(),
  lastRefillDate: z.string().nullable(),
  nextRefillDate: z.string().nullable(),
  /** The subscription ends on this date (cancelled at the period's end). */
  cancelAt: z.string().nullable().default(null),
  /** End of the 30-day Unlimited pass, while one is active. */
  passEndsAt: z.string().nullable().default(null),
  /** True while the Unlimited pass is active: analyses cost no credits. */
  unlimited: z.boolean().default(false),
});
export type UserTokensResponse = z.output<typeof userTokensResponseSchema>;
