import type { Db } from '../../db/client';
import { getSettings } from '../settings/settings';
import type { JobPricing } from './jobs';

/** What the account's jobs are priced with: its VAT mode (Pricing) and its rounding rule. */
export function jobPricingFor(db: Db, userId: number): JobPricing {
  const settings = getSettings(db, userId);
  return { vatMode: settings.pricing.vatMode, roundingPence: settings.quoteRoundingPence };
}
