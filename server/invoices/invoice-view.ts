import { DomainError } from '../../core/errors';
import { accruedInterestPence, chargesVat, formatSortCode, INVOICE_MESSAGES, invoiceStatus, invoiceTitle, owedPence, STATUTORY_INTEREST_OVER_BASE_PERCENT, taxPoint, type Invoice, type InvoiceStatus, type PublicInvoice } from '../../core/invoices';
import { getInvoiceSettings } from '../settings/invoice-settings';
import { formatVatNumber } from '../../core/company-profile';
import { ukToday } from '../../core/job-booking';
import { parsePence, penceToDecimal } from '../../core/money';
import type { Db } from '../../db/client';
import { paymentDisputes, quoteVersions } from '../../db/schema';
import { disputeReasonWords } from '../../core/card-payments';
import { heldMailOf } from './held-mail';
import { eq } from 'drizzle-orm';
import { jobsOf, linesOf, type InvoiceRow } from './invoices';
import { creditNotesOf, paidPence, paymentsOf, refundsOf, type PaymentRow } from './payments';
import type { AppDeps } from '../deps';
import { quoteCompanyFor } from '../settings/quote-company';
import { buildInvoicePdf } from './invoice-pdf';
import { namedBy, teamNamesOf, type NameOf } from '../team/names';

/**
 * An invoice as the API answers it (core/invoices.ts invoiceSchema): its lines and totals, what
 * was paid, credited and is owed, and its status on `now`'s UK day.
 */
export function toInvoiceView(db: Db, row: InvoiceRow, now: Date): Invoice {
  const today = ukToday(now);
  const lines = linesOf(db, [row.id]);
  const payments = paymentsOf(db, row.id);
  const notes = creditNotesOf(db, row.id);
  const paid = paidPence(payments);
  const credited = notes.reduce((sum, note) => sum + note.grossPence, 0);
  const job = jobsOf(db, [row.jobId]).get(row.jobId);
  const version = db.select({ content: quoteVersions.content }).from(quoteVersions).where(eq(quoteVersions.id, row.versionId)).get();
  const live = payments.filter((payment) => payment.removedAt === null);
  const firstPaidOn = live.length > 0 ? live.map((payment) => payment.paidOn).sort()[0]! : null;
  const doneOn = job?.doneAt ? ukToday(job.doneAt) : null;
  // Who did what, only in a team that has had more than one person (team/names.ts).
  const names = teamNamesOf(db, row.userId);
  const customer = row.parties?.customer ?? { name: version?.content.customer.name ?? job?.customerName ?? '', email: version?.content.customer.email ?? null, address: version?.content.customer.siteAddress ?? null };
  return {
    id: row.id,
    jobId: row.jobId,
    number: row.number,
    kind: row.kind,
    status: statusOf(row, paid, credited, today),
    quoteReference: version?.content.reference ?? '',
    customer,
    vatMode: row.vatMode,
    vatRatePercent: row.vatRatePercent,
    depositPercent: row.depositPercent,
    issuedOn: row.issuedOn,
    ...namedBy(names, 'issuedBy', row.issuedBy),
    dueOn: row.dueOn,
    taxPoint: row.issuedOn ? taxPoint(row.kind, row.issuedOn, doneOn, firstPaidOn) : null,
    lines: lines.map((line) => ({
      id: line.id,
      kind: line.kind,
      description: line.description,
      note: line.note,
      quantity: line.quantity,
      unitPrice: penceToDecimal(line.unitPence),
      net: penceToDecimal(line.netPence),
      vat: penceToDecimal(line.vatPence),
      gross: penceToDecimal(line.grossPence),
    })),
    totals: { net: penceToDecimal(row.netPence), vat: penceToDecimal(row.vatPence), gross: penceToDecimal(row.grossPence) },
    paid: penceToDecimal(paid),
    credited: penceToDecimal(credited),
    owed: penceToDecimal(row.number ? owedPence({ grossPence: row.grossPence, paidPence: paid, creditedPence: credited }) : 0),
    payments: live.map((payment) => paymentView(payment, names)),
    removedPayments: payments
      .filter((payment) => payment.removedAt !== null)
      .map((payment) => ({ ...paymentView(payment, names), removedAt: payment.removedAt!.toISOString(), reason: payment.removedReason ?? '' })),
    refunds: refundsOf(db, row.id).map((refund) => ({
      id: refund.id,
      paymentId: refund.paymentId,
      amount: penceToDecimal(refund.amountPence),
      reason: refund.reason,
      at: refund.createdAt.toISOString(),
      providerRefundId: refund.providerRefundId,
      creditNoteNumber: notes.find((note) => note.id === refund.creditNoteId)?.number ?? null,
      ...namedBy(names, 'recordedBy', refund.recordedBy),
    })),
    creditNotes: notes.map((note) => ({
      id: note.id,
      number: note.number,
      issuedOn: note.issuedOn,
      reason: note.reason,
      net: penceToDecimal(note.netPence),
      vat: penceToDecimal(note.vatPence),
      gross: penceToDecimal(note.grossPence),
      ...namedBy(names, 'issuedBy', note.issuedBy),
    })),
    disputes: disputesOf(db, row.id),
    sentTo: row.sentTo,
    sentAt: row.sentAt?.toISOString() ?? null,
    ...namedBy(names, 'sentBy', row.sentBy),
    linksWithdrawnAt: row.linksWithdrawnAt?.toISOString() ?? null,
    heldMail: heldMailOf(db, row.id).map((held) => ({ kind: held.kind, at: held.createdAt.toISOString() })),
    remindersSent: [row.firstReminderAt, row.secondReminderAt].filter((at): at is Date => at !== null).map((at) => at.toISOString()),
    lateInterest: lateInterestOf(db, row, version?.content.consumer ?? true, live, notes, today),
    createdAt: row.createdAt.toISOString(),
    ...namedBy(names, 'createdBy', row.createdBy),
  };
}

/** The disputes of the invoice's card payments, oldest first. */
function disputesOf(db: Db, invoiceId: number): Invoice['disputes'] {
  return db
    .select()
    .from(paymentDisputes)
    .where(eq(paymentDisputes.invoiceId, invoiceId))
    .orderBy(paymentDisputes.id)
    .all()
    .map((dispute) => ({
      id: dispute.id,
      paymentId: dispute.paymentId,
      amount: penceToDecimal(dispute.amountPence),
      reason: dispute.reason,
      reasonWords: disputeReasonWords(dispute.reason),
      status: dispute.status,
      evidenceDueBy: dispute.evidenceDueBy?.toISOString() ?? null,
      openedAt: dispute.createdAt.toISOString(),
      closedAt: dispute.closedAt?.toISOString() ?? null,
    }));
}

/** A payment as the API shows it; `names` as teamNamesOf's. */
function paymentView(payment: PaymentRow, names: NameOf | null): Invoice['payments'][number] {
  return {
    id: payment.id,
    amount: penceToDecimal(payment.amountPence),
    paidOn: payment.paidOn,
    method: payment.method,
    reference: payment.reference,
    recordedAt: payment.createdAt.toISOString(),
    refunded: penceToDecimal(payment.refundedPence),
    refundable: penceToDecimal(payment.removedAt === null ? payment.amountPence - payment.refundedPence : 0),
    online: payment.providerPaymentId !== null,
    ...namedBy(names, 'recordedBy', payment.recordedBy),
  };
}

/** The status of an invoice row on `today`, given what was paid and credited. */
export function statusOf(row: InvoiceRow, paid: number, credited: number, today: string): InvoiceStatus {
  return invoiceStatus({ issuedOn: row.issuedOn, dueOn: row.dueOn, viewed: row.viewedAt !== null, grossPence: row.grossPence, paidPence: paid, creditedPence: credited }, today);
}

/** An issued invoice's PDF: its view, the parties frozen when it was issued, and the account's logo. */
export async function invoicePdfOf(deps: Pick<AppDeps, 'db' | 'photos' | 'clock'>, row: InvoiceRow): Promise<Buffer> {
  if (!row.parties || !row.number) throw new DomainError('CONFLICT', INVOICE_MESSAGES.notIssued);
  const company = await quoteCompanyFor(deps.db, deps.photos, row.userId);
  return buildInvoicePdf({ invoice: toInvoiceView(deps.db, row, deps.clock.now()), parties: row.parties, logo: company.logo, accent: null });
}

/** The PDF's file name: "invoice-INV-0001.pdf" (the number's "/" made "-"). */
export const invoicePdfFilename = (row: Pick<InvoiceRow, 'number'>): string => `invoice-${(row.number ?? 'draft').replace(/[^A-Za-z0-9-]/g, '-')}.pdf`;

/**
 * The customer's copy of an issued invoice (GET /api/invoice-links/{token}): what they owe and how
 * to pay. `payByCard`: whether the business takes card payments now (card-payments/checkout.ts
 * cardPaymentsOpen), which this layer cannot know.
 */
export function toPublicInvoice(db: Db, row: InvoiceRow, now: Date, payByCard = false): PublicInvoice {
  const view = toInvoiceView(db, row, now);
  const parties = row.parties!;
  const vat = chargesVat(view, parties);
  return {
    number: row.number!,
    title: invoiceTitle(view, parties),
    kind: view.kind,
    status: view.status,
    quoteReference: view.quoteReference,
    business: { ...parties.supplier, vatNumber: vat ? formatVatNumber(parties.supplier.vatNumber) : '' },
    customer: { name: parties.customer.name, address: parties.customer.address },
    chargesVat: vat,
    vatRatePercent: view.vatRatePercent,
    issuedOn: view.issuedOn!,
    dueOn: view.dueOn!,
    taxPoint: view.taxPoint!,
    lines: view.lines.map((line) => ({ description: line.description, note: line.note, quantity: line.quantity, net: line.net, vat: line.vat, gross: line.gross })),
    totals: view.totals,
    // The money received as it came in, and what of it went back, so the sums read down the page.
    paid: penceToDecimal(view.payments.reduce((sum, payment) => sum + parsePence(payment.amount)!, 0)),
    refunded: penceToDecimal(view.payments.reduce((sum, payment) => sum + parsePence(payment.refunded)!, 0)),
    credited: view.credited,
    owed: view.owed,
    payments: view.payments.map((payment) => ({ amount: payment.amount, paidOn: payment.paidOn })),
    refunds: view.refunds.map((refund) => ({ amount: refund.amount, refundedOn: ukToday(new Date(refund.at)), creditNoteNumber: refund.creditNoteNumber })),
    creditNotes: view.creditNotes.map((note) => ({ id: note.id, number: note.number, issuedOn: note.issuedOn, reason: note.reason, gross: note.gross })),
    bankTransfer: parties.bank ? { accountName: parties.bank.accountName, sortCode: formatSortCode(parties.bank.sortCode), accountNumber: parties.bank.accountNumber, reference: row.number! } : null,
    payByCard: payByCard && view.owed !== '0.00',
    lateInterest: view.lateInterest,
  };
}

/**
 * Statutory interest on a business customer's overdue invoice, when the account charges it (the
 * Late Payment of Commercial Debts (Interest) Act 1998: 8% over the base rate set in Settings):
 * accrued from the due date on what was owed day by day. A consumer is never charged it here
 * (only the surgeon's own terms could, and those are theirs to enforce).
 */
function lateInterestOf(
  db: Db,
  row: InvoiceRow,
  consumer: boolean,
  payments: readonly { paidOn: string; amountPence: number; refundedPence: number }[],
  notes: readonly { issuedOn: string; grossPence: number }[],
  today: string,
): Invoice['lateInterest'] {
  if (consumer || !row.number || !row.dueOn || row.dueOn >= today) return null;
  const base = getInvoiceSettings(db, row.userId).lateInterestBaseRatePercent;
  if (base === null) return null;
  const ratePercent = STATUTORY_INTEREST_OVER_BASE_PERCENT + base;
  const settled = [...payments.map((p) => ({ day: p.paidOn, pence: p.amountPence - p.refundedPence })), ...notes.map((n) => ({ day: n.issuedOn, pence: n.grossPence }))];
  const accrued = accruedInterestPence({ grossPence: row.grossPence, dueOn: row.dueOn, today, ratePercent, settled });
  if (accrued.pence === 0) return null;
  return { ratePercent, days: accrued.days, amount: penceToDecimal(accrued.pence) };
}
