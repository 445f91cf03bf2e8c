import { and, eq, inArray } from 'drizzle-orm';
import { type JobMoney, type JobMoneyState } from '../../core/invoices';
import { ukToday } from '../../core/job-booking';
import { penceToDecimal } from '../../core/money';
import type { Db } from '../../db/client';
import { invoices, jobs } from '../../db/schema';
import { contentTotals, acceptedOf } from '../jobs/quote-links';
import { depositOnAcceptance } from '../../core/card-payments';
import { depositAskOfContent } from './invoices';
import { statusOf } from './invoice-view';
import { settledOf } from './payments';

/**
 * Each of the account's accepted, booked or done jobs with where its money is (docs/product.md,
 * Getting paid): the final invoice's status once there is one, else its deposits', else nothing
 * invoiced; what is owed; and whether the accepted quote's deposit is still awaited.
 */
export function jobMoney(db: Db, userId: number, now: Date): JobMoney[] {
  const today = ukToday(now);
  const rows = db.select().from(jobs).where(and(eq(jobs.userId, userId), inArray(jobs.status, ['accepted', 'booked', 'done']))).all();
  if (rows.length === 0) return [];
  const byJob = new Map<number, (typeof invoices.$inferSelect)[]>();
  for (const invoice of db.select().from(invoices).where(inArray(invoices.jobId, rows.map((row) => row.id))).all()) {
    byJob.set(invoice.jobId, [...(byJob.get(invoice.jobId) ?? []), invoice]);
  }
  return rows.map((job) => {
    const issued = (byJob.get(job.id) ?? [])
      .filter((invoice) => invoice.number !== null)
      .map((invoice) => {
        const settled = settledOf(db, invoice);
        return { invoice, status: statusOf(invoice, settled.paidPence, settled.creditedPence, today), owed: settled.owedPence };
      })
      .filter((entry) => entry.status !== 'credited');
    const final = issued.find((entry) => entry.invoice.kind === 'final');
    const deposits = issued.filter((entry) => entry.invoice.kind === 'deposit');
    const depositPaid = deposits.some((entry) => entry.status === 'paid');
    let state: JobMoneyState = 'not_invoiced';
    if (final) state = final.status === 'paid' ? 'paid' : final.status === 'overdue' ? 'overdue' : final.status === 'part_paid' ? 'part_paid' : 'invoiced';
    else if (deposits.length > 0) state = depositPaid ? 'deposit_paid' : 'deposit_due';
    const accepted = acceptedOf(db, job.id);
    const acceptedGross = accepted ? contentTotals(accepted.version.content, accepted.answer.optionalItemIds ?? []).grossPence : 0;
    const asked = accepted !== undefined && depositOnAcceptance(depositAskOfContent(db, userId, accepted.version.content), acceptedGross) !== null;
    return {
      jobId: job.id,
      state,
      owed: penceToDecimal(issued.reduce((sum, entry) => sum + entry.owed, 0)),
      waitingForDeposit: asked && !depositPaid && job.status !== 'done' && !final,
    };
  });
}
