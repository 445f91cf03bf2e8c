import { and, like, lt, or, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { passwordResetTokens, processedPaymentEvents } from '../../db/schema';
import { deleteExpiredSessions } from '../accounts/sessions';
import { deleteExpiredEstimateTokens } from '../analysis/estimate-tokens';
import type { Clock } from '../clock';
import { runDueRefills } from '../payments/demo-renewals';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Stripe retries an event for up to 3 days and lets a dashboard resend one for 30; after 90
 * days an event id can go. Only `evt:` ids are pruned: the `pi:` keys guard a PaymentIntent's
 * effect for good, so a browser's late payment-success report can never apply it twice.
 */
export const EVENT_IDS_KEPT_DAYS = 90;
/** Reset tokens live an hour; a used or expired one is kept a day for support questions, then goes. */
export const RESET_TOKENS_KEPT_DAYS = 1;

export interface HousekeepingResult {
  sessions: number;
  resetTokens: number;
  eventIds: number;
  refills: number;
  estimateTokens: number;
}

/**
 * What the server does at start and hourly: expired sessions, old reset tokens, visitors'
 * expired lead tokens and old webhook event ids are deleted (each by an index on its time column, migration 0006),
 * and demo subscriptions due a monthly refill get it.
 */
export function runHousekeeping(db: Db, clock: Clock): HousekeepingResult {
  const now = clock.now();
  const sessions = deleteExpiredSessions(db, clock);
  const tokensBefore = new Date(now.getTime() - RESET_TOKENS_KEPT_DAYS * DAY_MS);
  const resetTokens = db
    .delete(passwordResetTokens)
    .where(or(lt(passwordResetTokens.expiresAt, tokensBefore), and(eq(passwordResetTokens.used, true), lt(passwordResetTokens.createdAt, tokensBefore))))
    .run().changes;
  const eventIds = db
    .delete(processedPaymentEvents)
    .where(and(lt(processedPaymentEvents.createdAt, new Date(now.getTime() - EVENT_IDS_KEPT_DAYS * DAY_MS)), like(processedPaymentEvents.id, 'evt:%')))
    .run().changes;
  const refills = runDueRefills(db, clock);
  const estimateTokens = deleteExpiredEstimateTokens(db, clock);
  return { sessions, resetTokens, eventIds, refills, estimateTokens };
}
