import { DomainError } from '../../core/errors';
import { parsePence } from '../../core/money';

/** The rate is stored as decimal(10,2) money: at most £99,999,999.99. */
export const MAX_HOURLY_RATE_PENCE = 9_999_999_999;

export const HOURLY_RATE_MESSAGE = 'Hourly rate must be a number of pounds, 0 or more';

/**
 * An hourly rate's pounds text (Settings' or a business's; the schema has already checked its
 * form) in pence, or a VALIDATION_ERROR on `hourlyRate` past what the rate can hold.
 */
export function hourlyRatePence(text: string): number {
  const pence = parsePence(text);
  if (pence === undefined || pence > MAX_HOURLY_RATE_PENCE) {
    throw new DomainError('VALIDATION_ERROR', HOURLY_RATE_MESSAGE, { details: { hourlyRate: [HOURLY_RATE_MESSAGE] } });
  }
  return pence;
}
