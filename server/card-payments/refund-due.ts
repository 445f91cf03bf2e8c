import { eq, inArray } from 'drizzle-orm';
import { refundDueBy, type RefundDue } from '../../core/card-payments';
import { penceToDecimal } from '../../core/money';
import type { Db } from '../../db/client';
import { invoices, jobs, quoteCancellations } from '../../db/schema';
import { paidPence, paymentsOf } from '../invoices/payments';

/**
 * Refunds due after a cancellation (docs/product.md, Card payments: refunds): a consumer who
 * cancels within their 14 days is repaid what they paid within 14 days of the business being told
 * (Consumer Contracts Regulations 2013, reg. 34). For each of the account's cancelled jobs with
 * money still kept on its invoices, what is to refund and by which day, until it is refunded.
 * (Whether an early start's work done before cancelling may be kept back is the business's to
 * judge: the figure is what was paid, and the list says so.)
 */

export function refundsDue(db: Db, userId: number, jobId?: number): RefundDue[] {
  const cancelled = db
    .select({ cancellation: quoteCancellations, job: jobs })
    .from(quoteCancellations)
    .innerJoin(jobs, eq(jobs.id, quoteCancellations.jobId))
    .where(eq(jobs.userId, userId))
    .all()
    .filter((row) => jobId === undefined || row.job.id === jobId);
  if (cancelled.length === 0) return [];
  const byJob = new Map<number, number>();
  for (const invoice of db.select().from(invoices).where(inArray(invoices.jobId, cancelled.map((row) => row.job.id))).all()) {
    byJob.set(invoice.jobId, (byJob.get(invoice.jobId) ?? 0) + paidPence(paymentsOf(db, invoice.id)));
  }
  return cancelled
    .filter((row) => (byJob.get(row.job.id) ?? 0) > 0)
    .map((row) => ({
      jobId: row.job.id,
      customerName: row.job.customerName,
      amount: penceToDecimal(byJob.get(row.job.id)!),
      cancelledOn: row.cancellation.receivedOn,
      refundBy: refundDueBy(row.cancellation.receivedOn),
      withinPeriod: row.cancellation.withinPeriod,
    }));
}
