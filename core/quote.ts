import { z } from 'zod';
import { LEAD_LIMITS } from './embed';
import type { SiteDetails } from './site';
import { assumedPhrases, CAUTIOUS_SITE } from './site-assumptions';
import { METHOD_LABELS, type Method } from './time-model';

/**
 * The customer quote's rules, shared by the PDF and anything that shows a quote: the quote's
 * dates and the work described in plain words. The price and VAT are core/price.ts's.
 */

const LONDON = 'Europe/London';
// Made once: a formatter costs far more to make than to use, and quotes, invoices and their PDFs
// format many dates.
const UK_NUMERIC_DATE = new Intl.DateTimeFormat('en-GB', { timeZone: LONDON, year: 'numeric', month: 'numeric', day: 'numeric' });
const UK_LONG_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: LONDON });

/** The calendar date in the UK (year, month 1-12, day) of an instant. */
function ukCalendarDate(instant: Date): { year: number; month: number; day: number } {
  const parts = UK_NUMERIC_DATE.formatToParts(instant);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/**
 * The last day a quote issued at `issuedAt` holds: its UK date plus the validity in days,
 * counted on the calendar (so a clock change in between does not move it). Returned as noon
 * UTC of that date, which is the same date in London whatever the season.
 */
export function quoteValidUntil(issuedAt: Date, validityDays: number): Date {
  const { year, month, day } = ukCalendarDate(issuedAt);
  return new Date(Date.UTC(year, month - 1, day + validityDays, 12));
}

/** "22 November 2026", on the UK calendar whatever the server's time zone. */
export function formatQuoteDate(date: Date): string {
  return UK_LONG_DATE.format(date);
}

/** The work method as a customer reads it: what will happen in their garden, and why. */
const METHOD_SENTENCES: Record<Method, string> = {
  straight_fell:
    'The tree has room to come down in one piece: it will be felled whole with a controlled cut, then cut up on the ground.',
  section_fell:
    'The tree will be taken down in sections from the ground, top first, so each piece lands clear of what is around it.',
  climb_dismantle:
    'A climber will dismantle the tree from the top down, lowering each piece on ropes so nothing falls on nearby buildings, fences or lines.',
};

export interface MethodDescription {
  /** "Climb and dismantle" (core/time-model.ts METHOD_LABELS, capitalised). */
  title: string;
  sentence: string;
}

/** null when the analysis has no method the time model knows. */
export function describeMethod(method: string | null): MethodDescription | null {
  if (!method || !(method in METHOD_LABELS)) return null;
  const label = METHOD_LABELS[method as Method];
  return { title: label.charAt(0).toUpperCase() + label.slice(1), sentence: METHOD_SENTENCES[method as Method] };
}

export interface QuoteItem {
  text: string;
  included: boolean;
}

/**
 * What the price covers: what the estimate's time was worked out with. The time model names
 * stump grinding and waste removal in the factors ("Stump grinding included in cleanup",
 * "Wood and chippings taken away", "Wood left on site in rounds"), which also catches a
 * request made in the project details; failing those, the site answers, and for a question
 * left unanswered the estimate's own assumption (core/site-assumptions.ts: no stump
 * grinding, wood and waste taken away).
 */
export function includedWork(site: SiteDetails | null, factors: readonly string[] = []): QuoteItem[] {
  const said = (text: string) => factors.some((f) => f.toLowerCase().startsWith(text));
  const stump = said('stump grinding included') ? true : (site?.stumpGrinding ?? CAUTIOUS_SITE.stumpGrinding.value);
  const waste = said('wood left on site') ? false : said('wood and chippings taken away') ? true : (site?.wasteRemoval ?? CAUTIOUS_SITE.wasteRemoval.value);
  return [
    { text: 'Setting up and protecting the work area', included: true },
    { text: 'Taking the tree down as described', included: true },
    { text: 'Tidying the site when the work is done', included: true },
    stump
      ? { text: 'Stump grinding below ground level', included: true }
      : { text: 'Stump grinding (stump left low at ground level)', included: false },
    waste
      ? { text: 'Removal of all wood, brush and chippings', included: true }
      : { text: 'Waste removal (wood left on site in rounds)', included: false },
  ];
}

/** How the estimate's factor for what nobody said starts (core/site-assumptions.ts, server/analysis/estimate.ts writes it). */
export { SITE_ASSUMED_PREFIX } from './site-assumptions';

/**
 * What the estimate took for the site questions nobody answered or answered "Not sure" ("a
 * building within falling distance", "side gate only access"), and a size nobody could give, from
 * its factor: whoever sees the price sees what it was priced for, the visitor on the widget, the
 * owner in the lead and the customer on the quote.
 */
export function siteAssumptions(factors: readonly string[]): string[] {
  return assumedPhrases(factors);
}

/**
 * GET /api/analysis/{id}/report.pdf?copy=: the customer's quote (the default), or the internal
 * copy, which adds the contractor's notes page (assumptions, calibration, provider, sources).
 */
export const REPORT_COPIES = ['customer', 'internal'] as const;
export type ReportCopy = (typeof REPORT_COPIES)[number];

/**
 * Who the quote is for, printed under "Prepared for": typed on the results before download
 * (prefilled with a website lead's name, so a lead's longest name fits). Bounded so the header
 * stays a header: 300 characters is a full UK address on several lines.
 */
export const QUOTE_CUSTOMER_NAME_MAX = LEAD_LIMITS.name;
export const QUOTE_SITE_ADDRESS_MAX = 300;

/** "" and spaces only mean "not given"; line breaks are kept for the address. */
const optionalText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `${what} can be at most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : undefined));

export const quoteRecipientSchema = z.object({
  customerName: optionalText(QUOTE_CUSTOMER_NAME_MAX, 'The customer name').transform((value) => value?.replace(/\s+/g, ' ')),
  siteAddress: optionalText(QUOTE_SITE_ADDRESS_MAX, 'The site address'),
});
export type QuoteRecipient = Partial<z.output<typeof quoteRecipientSchema>>;

/** GET /api/analysis/{id}/report.pdf's query: which copy, and who it is prepared for. */
export const reportQuerySchema = quoteRecipientSchema.extend({
  copy: z.enum(REPORT_COPIES, { error: 'copy must be customer or internal' }).default('customer'),
});

/**
 * GET /api/analysis/{id}/quote-recipient: what the download's fields start with. A website
 * lead's name when the analysis came with one; a lead gives no address, so that starts empty.
 */
export const quoteRecipientResponseSchema = z.object({ customerName: z.string().nullable(), siteAddress: z.string().nullable() });
export type QuoteRecipientResponse = z.infer<typeof quoteRecipientResponseSchema>;
