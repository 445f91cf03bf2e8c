import { z } from 'zod';
import { JOB_STATUSES } from './jobs';
import type { VatMode } from './price';
import { quoteTotals, type PricedItem } from './quote-totals';

/**
 * The Jobs page's figures (docs/product.md, The Jobs pages): how many jobs are in each status,
 * and what was quoted, accepted and done this month, plus the search of the list. Money is
 * pounds text at the API's edge, whole pence inside (core/money.ts); the rules for what each
 * figure counts are here so the server's sums and the dashboard's words agree.
 */

/**
 * "This month" is the calendar month in the UK, where the surgeons and their customers are: a
 * quote accepted at 00:30 on 1 July British Summer Time (23:30 UTC on 30 June) is July's. The
 * server's clock says when "now" is; this says which month that is.
 */
export const JOB_SUMMARY_TIME_ZONE = 'Europe/London';

const wallClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: JOB_SUMMARY_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});

/** The UK wall clock at `instant`, as numbers. */
function ukParts(instant: number): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts = Object.fromEntries(wallClock.formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** How far the UK's clock is ahead of UTC at `instant` (0 in winter, an hour in summer), in ms. */
function ukOffsetMs(instant: number): number {
  const p = ukParts(instant);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
}

/** Midnight at the start of the 1st of `month` (1-12, may run past 12) in the UK, as an instant. */
function ukMonthStart(year: number, month: number): Date {
  const midnightUtc = Date.UTC(year, month - 1, 1);
  // The clocks change at 01:00 UTC on a last Sunday, never at midnight on a 1st, so the offset
  // at midnight UTC is the offset at the UK's midnight.
  return new Date(midnightUtc - ukOffsetMs(midnightUtc));
}

/** The UK calendar month holding `now`: from its first midnight (inclusive) to the next month's (exclusive). */
export function ukMonth(now: Date): { start: Date; end: Date } {
  const { year, month } = ukParts(now.getTime());
  return { start: ukMonthStart(year, month), end: ukMonthStart(year, month + 1) };
}

/** The money of a version as sent (core/quote-versions.ts QuoteContent). */
export interface QuotedMoney {
  items: readonly PricedItem[];
  vatMode: VatMode;
  vatRatePercent: number;
}

/**
 * A version's value as quoted: its included items, with VAT by its own mode and rate (what the
 * customer pays if they take no option), in pence.
 */
export function quotedGrossPence(content: QuotedMoney): number {
  return quoteTotals(content.items, new Set(), content.vatMode, content.vatRatePercent).grossPence;
}

/** An acceptance's value: the version's included items and the optional ones the customer chose, with VAT, in pence. */
export function acceptedGrossPence(content: QuotedMoney, chosen: readonly number[]): number {
  return quoteTotals(content.items, new Set(chosen), content.vatMode, content.vatRatePercent).grossPence;
}

/** The longest search the list takes, in characters. */
export const JOB_SEARCH_MAX = 100;

/** GET /api/jobs?q=&status=: jobs in one status, and/or whose customer matches every word of `q`. */
export const jobListQuerySchema = z.object({
  q: z
    .string()
    .max(JOB_SEARCH_MAX, `Search for at most ${JOB_SEARCH_MAX} characters`)
    .optional()
    .transform((v) => v?.trim() ?? ''),
  status: z.enum(JOB_STATUSES, `status must be one of ${JOB_STATUSES.join(', ')}`).optional(),
  /** `council`: jobs still to do whose booking waits on the council (a notice's weeks or a consent; core/protection.ts). */
  waiting: z.enum(['council'], "waiting must be 'council'").optional(),
});
export type JobListQuery = z.input<typeof jobListQuerySchema>;

/** Letters a decomposition leaves as they are, spelt as people type them without the accent. */
const PLAIN_LETTERS: Record<string, string> = { ł: 'l', ø: 'o', đ: 'd', ß: 'ss', æ: 'ae', œ: 'oe', ı: 'i' };

/** Lower case without accents, so "wojcik" finds "Wójcik", "lukasz" "Łukasz" and "zoe" "Zoë". */
export function searchable(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLocaleLowerCase('en-GB')
    .replace(/[łøđßæœı]/g, (ch) => PLAIN_LETTERS[ch] ?? ch);
}

/**
 * Whether `fields` (a customer's name, e-mail and the quote number) hold every word of `search`,
 * each taken literally: "%" and "_" are characters like any other.
 */
export function matchesSearch(fields: readonly (string | null)[], search: string): boolean {
  const words = searchable(search).split(/\s+/).filter(Boolean);
  const haystack = searchable(fields.filter((f): f is string => f !== null).join(' '));
  return words.every((word) => haystack.includes(word));
}

const figureSchema = z.object({
  /** How many jobs (or acceptances) it counts. */
  count: z.number().int(),
  /** What the customers pay, VAT included where charged: pounds text ("1225.00"). */
  gross: z.string(),
});

/** GET /api/jobs/summary. */
export const jobSummarySchema = z.object({
  /** Every status, 0 where no job is in it. */
  counts: z.record(z.enum(JOB_STATUSES), z.number().int()),
  /** Every job of the account. */
  total: z.number().int(),
  month: z.object({
    /** The UK calendar month (Europe/London) holding the server's now: [start, end). */
    timeZone: z.literal(JOB_SUMMARY_TIME_ZONE),
    start: z.string(),
    end: z.string(),
    /** Jobs with a version sent this month, each once at the newest such version: its included items. */
    quoted: figureSchema,
    /** Acceptances this month: the accepted version's included items and the options chosen. */
    accepted: figureSchema,
    /** Jobs marked done this month, at what the customer accepted (or the job's own total if they accepted off-line). */
    done: figureSchema,
  }),
});
export type JobSummary = z.infer<typeof jobSummarySchema>;
export const jobSummaryResponseSchema = z.object({ summary: jobSummarySchema });
