import { z } from 'zod';
import { INVOICE_STATUSES } from './invoices';

/**
 * GET /api/invoices/summary as the Invoices page reads it (docs/product.md, Getting paid), and
 * the period its accountant's export starts with. Money is pounds text ("600.00"), exact in pence.
 */

/** What is owed, by how long past its due date (server/invoices/summary.ts adds it up). */
export const OWED_AGES = ['notDue', 'days1to30', 'days31to60', 'over60'] as const;
export type OwedAge = (typeof OWED_AGES)[number];

export const OWED_AGE_WORDS: Record<OwedAge, string> = {
  notDue: 'Not yet due',
  days1to30: '1–30 days late',
  days31to60: '31–60 days late',
  over60: 'Over 60 days late',
};

const countAndGross = z.object({ count: z.number().int(), gross: z.string() });

export const invoiceSummarySchema = z.object({
  byStatus: z.object(Object.fromEntries(INVOICE_STATUSES.map((status) => [status, countAndGross])) as Record<(typeof INVOICE_STATUSES)[number], typeof countAndGross>),
  owedByAge: z.object(Object.fromEntries(OWED_AGES.map((age) => [age, z.string()])) as Record<OwedAge, z.ZodString>),
  owed: z.string(),
  /** The UK month ("2026-11"): what was invoiced in it (less credits), and paid in it less what was refunded in it. */
  thisMonth: z.object({ month: z.string(), invoiced: z.string(), paid: z.string() }),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;
export const invoiceSummaryResponseSchema = z.object({ summary: invoiceSummarySchema });

/**
 * The calendar month before the one `today` ("YYYY-MM-DD", a UK day) falls in, as the export's
 * from and to days: an accountant is usually sent last month's invoices.
 */
export function lastCalendarMonth(today: string): { from: string; to: string } {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  // Day 0 of this month is the last day of the one before (Date.UTC rolls the month back).
  const last = new Date(Date.UTC(year, month - 1, 0));
  const to = last.toISOString().slice(0, 10);
  return { from: `${to.slice(0, 8)}01`, to };
}

/** "November 2026" from the summary's "2026-11". */
export function monthWords(month: string): string {
  const date = new Date(`${month}-01T12:00:00Z`);
  return Number.isNaN(date.getTime()) ? month : date.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}
