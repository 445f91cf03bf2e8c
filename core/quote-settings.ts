import { z } from 'zod';
import { plainLine } from './plain-text';

/**
 * Two settings of the surgeon's job quotes (docs/product.md, Settings): how the price they set
 * for each tree is rounded, and the terms printed on every quote. One each per account, kept in
 * its system_settings row.
 */

/** Quoted prices are rounded to the nearest £1, £5 or £10; £5 unless changed. */
export const QUOTE_ROUNDINGS_PENCE = [100, 500, 1000] as const;
export type QuoteRoundingPence = (typeof QUOTE_ROUNDINGS_PENCE)[number];
export const DEFAULT_QUOTE_ROUNDING_PENCE = 500 satisfies QuoteRoundingPence;

/** The rounding as the API writes it: whole pounds as text, like the rest of its money. */
export const QUOTE_ROUNDINGS = ['1', '5', '10'] as const;
export type QuoteRounding = (typeof QUOTE_ROUNDINGS)[number];

const PENCE_OF: Record<QuoteRounding, QuoteRoundingPence> = { '1': 100, '5': 500, '10': 1000 };
const TEXT_OF: Record<QuoteRoundingPence, QuoteRounding> = { 100: '1', 500: '5', 1000: '10' };

export const quoteRoundingText = (pence: QuoteRoundingPence): QuoteRounding => TEXT_OF[pence];

/** "£5", for the Settings form and anything that names the rule. */
export const quoteRoundingLabel = (rounding: QuoteRounding) => `£${rounding}`;

export const QUOTE_ROUNDING_MESSAGE = 'Quote rounding must be "1", "5" or "10" (pounds)';

/** PATCH /api/system-settings `quoteRounding`: "1", "5" or "10" and nothing else; answers pence. */
export const quoteRoundingSchema = z.enum(QUOTE_ROUNDINGS, { error: QUOTE_ROUNDING_MESSAGE }).transform((pounds) => PENCE_OF[pounds]);

export const MAX_QUOTE_TERMS_CHARS = 4000;
export const QUOTE_TERMS_MESSAGE = `Quote terms must be at most ${MAX_QUOTE_TERMS_CHARS.toLocaleString('en-GB')} characters`;

/**
 * The terms a new account's quotes carry until the surgeon writes their own: what a UK tree
 * surgeon's quote to a homeowner usually says, in plain words. The law they name: Town and
 * Country Planning Act 1990 (Tree Preservation Orders, s.198; conservation areas, s.211 notice),
 * Wildlife and Countryside Act 1981 s.1 (nests in use or being built), and the Consumer Contracts
 * (Information, Cancellation and Additional Charges) Regulations 2013 (14 days to cancel a
 * contract made at a distance or away from the trader's premises; the notice itself goes with
 * the quote: core/consumer-rights.ts).
 */
export function standardQuoteTerms(paymentTermsDays = 7): string {
  return [
    '1. Price: the price is fixed for the work described in this quote and holds until the quote expires. Any further work is agreed with you, and priced, before it is done.',
    paymentTermsSentence(paymentTermsDays),
    '3. Insurance: we hold public liability insurance. A copy of the certificate is available on request.',
    '4. Protected trees: before starting, we check with your local council whether any tree is covered by a Tree Preservation Order or stands in a conservation area. Where consent or notice is needed, the work waits until it is given.',
    '5. Nesting birds: nests in use are protected by the Wildlife and Countryside Act 1981. We check each tree before work starts; if birds are nesting, the work on that tree waits until they have gone.',
    '6. Wood and waste: we take away all wood and green waste unless this quote says it is left. We can leave logs for you on request.',
    '7. Access and parking: please give us clear access to the trees and parking for our vehicles close to the work, and move cars and anything fragile out of the way beforehand.',
    '8. Your right to cancel: if you accept this quote online or away from our premises, you may cancel within 14 days under the Consumer Contracts Regulations 2013; the full notice and a cancellation form come with this quote.',
  ].join('\n');
}

/**
 * The standard terms' payment sentence follows the account's payment terms (Settings, Getting
 * paid: on completion, 7, 14 or 30 days; 7 unless changed). A quote may ask a deposit on
 * acceptance (the job's or the Settings rule), so the sentence says when that one is due too:
 * the quote itself states whether it asks one, how much and how to pay it.
 */
export function paymentTermsSentence(days: number): string {
  const rest = days === 0 ? 'on receipt of our invoice' : `within ${days} days of our invoice`;
  return `2. Payment: where this quote asks a deposit, the deposit is due when you accept the quote, and is taken off our final invoice. The rest is due when the work is finished, by bank transfer ${rest} (or by card, where we offer it).`;
}

/** The standard terms with the standard payment terms (7 days). */
export const DEFAULT_QUOTE_TERMS = standardQuoteTerms();

/** Every form of the standard terms, one per payment term: sent back unchanged, each is stored as "the standard terms". */
const STANDARD_TERMS_FORMS = new Set([0, 7, 14, 30].map(standardQuoteTerms));

/** Any line break, for splitting terms into lines (NEL and the Unicode separators too). */
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/;

/**
 * Terms as they are kept and printed: one plain line per line (no control or bidi characters,
 * runs of spaces closed up, core/plain-text.ts), at most one blank line between paragraphs, and
 * none at either end. The customer reads them on the quote page and its PDF.
 */
export function quoteTermsText(text: string): string {
  const lines = text.split(LINE_BREAK).map(plainLine);
  return lines
    .filter((line, i) => line !== '' || (i > 0 && lines[i - 1] !== ''))
    .join('\n')
    .trim();
}

/**
 * PATCH /api/system-settings `quoteTerms`: the surgeon's own terms, or "" or null for the
 * standard ones. Answers the text to store, or null for the standard terms, which is also what
 * the standard text sent back unchanged becomes, so an account that never wrote its own follows
 * any later improvement to them (a quote already sent keeps the terms it was sent with).
 */
export const quoteTermsSchema = z
  .string({ error: 'Quote terms must be text, or null for the standard terms' })
  .nullable()
  .transform((text) => (text === null ? '' : quoteTermsText(text)))
  .refine((text) => text.length <= MAX_QUOTE_TERMS_CHARS, QUOTE_TERMS_MESSAGE)
  .transform((text) => (text === '' || STANDARD_TERMS_FORMS.has(text) ? null : text));

/** A stored terms column as the terms a quote carries. */
export function storedQuoteTerms(stored: string | null | undefined, paymentTermsDays = 7): string {
  return stored ?? standardQuoteTerms(paymentTermsDays);
}

/**
 * Days after a quote is sent when its customer is reminded, once, if they have not answered; 0
 * for never. Five by default: long enough not to hurry a homeowner, inside a month's validity.
 */
export const DEFAULT_QUOTE_REMINDER_DAYS = 5;
export const MAX_QUOTE_REMINDER_DAYS = 60;
export const QUOTE_REMINDER_MESSAGE = `The reminder must be a whole number of days from 0 (never) to ${MAX_QUOTE_REMINDER_DAYS}`;
export const quoteReminderDaysSchema = z
  .number({ error: QUOTE_REMINDER_MESSAGE })
  .int(QUOTE_REMINDER_MESSAGE)
  .min(0, QUOTE_REMINDER_MESSAGE)
  .max(MAX_QUOTE_REMINDER_DAYS, QUOTE_REMINDER_MESSAGE);

