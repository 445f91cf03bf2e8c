import { OWED_AGES, type InvoiceSummary, type OwedAge } from '../../core/invoice-summary';
import { daysBetween, INVOICE_STATUSES, owedPence, type InvoiceStatus } from '../../core/invoices';
import { ukToday } from '../../core/job-booking';
import { penceToDecimal } from '../../core/money';
import type { Db } from '../../db/client';
import { statusOf } from './invoice-view';
import { creditedMoney, listOwnInvoices } from './invoices';
import { paidPence, paymentsOf, refundsOf } from './payments';

/**
 * GET /api/invoices/summary (docs/product.md, Getting paid): the account's invoices by status,
 * each a count and the invoices' totals, what was paid this UK month, and what is owed by age.
 * "Paid" this month is the money that came in less the money that went back in the month: a £50
 * refund after £1,164 came in reads £1,114 (the refund's credit note already lowers "Invoiced",
 * so the refund counts once on each side).
 */
export function invoiceSummary(db: Db, userId: number, now: Date): InvoiceSummary {
  const today = ukToday(now);
  const month = today.slice(0, 7);
  const byStatus = Object.fromEntries(INVOICE_STATUSES.map((status) => [status, { count: 0, pence: 0 }])) as Record<InvoiceStatus, { count: number; pence: number }>;
  const owedByAge = Object.fromEntries(OWED_AGES.map((age) => [age, 0])) as Record<OwedAge, number>;
  let invoicedThisMonth = 0;
  let paidThisMonth = 0;
  for (const row of listOwnInvoices(db, userId)) {
    const payments = paymentsOf(db, row.id);
    const paid = paidPence(payments);
    const credited = creditedMoney(db, row.id).grossPence;
    const status = statusOf(row, paid, credited, today);
    byStatus[status].count += 1;
    byStatus[status].pence += row.grossPence;
    if (!row.issuedOn) continue;
    if (row.issuedOn.startsWith(month)) invoicedThisMonth += row.grossPence - credited;
    paidThisMonth += payments.filter((p) => p.removedAt === null && p.paidOn.startsWith(month)).reduce((sum, p) => sum + p.amountPence, 0);
    paidThisMonth -= refundsOf(db, row.id)
      .filter((refund) => ukToday(refund.createdAt).startsWith(month))
      .reduce((sum, refund) => sum + refund.amountPence, 0);
    const owed = owedPence({ grossPence: row.grossPence, paidPence: paid, creditedPence: credited });
    if (owed === 0) continue;
    const late = row.dueOn ? daysBetween(row.dueOn, today) : 0;
    owedByAge[late <= 0 ? 'notDue' : late <= 30 ? 'days1to30' : late <= 60 ? 'days31to60' : 'over60'] += owed;
  }
  return {
    byStatus: Object.fromEntries(INVOICE_STATUSES.map((status) => [status, { count: byStatus[status].count, gross: penceToDecimal(byStatus[status].pence) }])) as InvoiceSummary['byStatus'],
    owedByAge: Object.fromEntries(OWED_AGES.map((age) => [age, penceToDecimal(owedByAge[age])])) as InvoiceSummary['owedByAge'],
    owed: penceToDecimal(Object.values(owedByAge).reduce((sum, pence) => sum + pence, 0)),
    thisMonth: { month, invoiced: penceToDecimal(invoicedThisMonth), paid: penceToDecimal(paidThisMonth) },
  };
}
