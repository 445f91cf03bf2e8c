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

/** Credits the dashboard suggests an operator grant at once: ten analyses. */
export const SUGGESTED_GRANT_CREDITS = 100;

/**
 * The operator's command that adds credits to an account (server/cli.ts grant-credits), as the
 * dashboard shows it where this install sells none (in production without Stripe keys, credits
 * come only from it): run in the app's folder on the server.
 */
export const grantCreditsCommand = (username: string, credits: number = SUGGESTED_GRANT_CREDITS): string => `npm run cli -- grant-credits ${username} ${credits}`;
