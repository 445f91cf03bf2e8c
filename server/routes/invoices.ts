import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { matchesSearch } from '../../core/job-summary';
import { creditNoteCreateSchema, INVOICE_STATUSES, invoicePatchSchema, invoiceSendSchema, paymentCreateSchema, paymentRemoveSchema, type Invoice, type JobMoney } from '../../core/invoices';
import type { AppEnv } from '../http/context';
import { validationError } from '../http/errors';
import { currentPerson, currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { invoicePdfFilename, invoicePdfOf, toInvoiceView } from '../invoices/invoice-view';
import { invoiceSummary } from '../invoices/summary';
import { exportInvoices } from '../invoices/export';
import { jobMoney } from '../invoices/job-money';
import { exportQuerySchema } from '../../core/invoice-export';
import { deleteDraft, findOwnInvoice, issueInvoice, listOwnInvoices, updateDraft, type InvoiceRow } from '../invoices/invoices';
import { removePayment } from '../invoices/payments';
import { issueCreditNoteWithEmail } from '../invoices/credit-note-flow';
import { creditNoteOf, creditNotePdfFilename, creditNotePdfOf } from '../invoices/credit-notes';
import { recordPaymentWithReceipt, sendInvoice } from '../invoices/invoice-flow';
import { revokeInvoiceLinks } from '../invoices/invoice-links';
import { refundPayment } from '../card-payments/refunds';
import { cardPaymentsOpen } from '../card-payments/checkout';
import { refundCreateSchema } from '../../core/card-payments';

/**
 * Invoices (docs/product.md, Getting paid): the signed-in account's own. Another account's
 * invoice is a 404. Made from a job (routes/jobs.ts POST /api/jobs/{id}/invoices); every change
 * to one reads it again inside its own transaction (server/invoices/).
 */
export const invoiceRoutes = new Hono<AppEnv>().use(requireUser);

function ownInvoice(c: Context<AppEnv>): InvoiceRow {
  return findOwnInvoice(c.var.deps.db, currentUser(c).id, Number(c.req.param('id')));
}

/** Who is doing it: the signed-in person (the `by` columns), not the team's account that keys the invoice. */
const byPerson = (c: Context<AppEnv>): number => currentPerson(c).user.id;

const answer = (c: Context<AppEnv>, row: InvoiceRow, status: 200 | 201 = 200) => c.json({ invoice: toInvoiceView(c.var.deps.db, row, c.var.deps.clock.now()) satisfies Invoice }, status);

const listQuerySchema = z.object({
  status: z.enum(INVOICE_STATUSES, `status must be one of ${INVOICE_STATUSES.join(', ')}`).optional(),
  q: z.string().max(200, 'Search for at most 200 characters').default(''),
});

/**
 * The account's invoices: overdue first, then newest; `?status=` one status, `?q=` the customer's
 * name or e-mail or the invoice number holding every word (case and accent blind, as Jobs).
 */
invoiceRoutes.get('/', (c) => {
  const { db, clock } = c.var.deps;
  const parsed = listQuerySchema.safeParse({ status: c.req.query('status'), q: c.req.query('q') });
  if (!parsed.success) throw validationError(parsed.error);
  const { status, q } = parsed.data;
  const now = clock.now();
  const views = listOwnInvoices(db, currentUser(c).id)
    .map((row) => toInvoiceView(db, row, now))
    .filter((invoice) => (!status || invoice.status === status) && (!q || matchesSearch([invoice.customer.name, invoice.customer.email, invoice.number, invoice.quoteReference], q)));
  views.sort((a, b) => Number(b.status === 'overdue') - Number(a.status === 'overdue'));
  return c.json({ invoices: views });
});

/** The Invoices page's figures: counts and sums by status, and what is owed by age. */
invoiceRoutes.get('/summary', (c) => {
  const { db, clock } = c.var.deps;
  return c.json({ summary: invoiceSummary(db, currentUser(c).id, clock.now()) });
});

/**
 * The accountant's export: the invoices issued and credit notes made in a period, as Xero's or
 * QuickBooks Online's import file (server/invoices/export.ts).
 */
invoiceRoutes.get('/export.csv', (c) => {
  const parsed = exportQuerySchema.safeParse({ format: c.req.query('format'), from: c.req.query('from'), to: c.req.query('to') });
  if (!parsed.success) throw validationError(parsed.error);
  const { format, from, to } = parsed.data;
  const csv = exportInvoices(c.var.deps.db, currentUser(c).id, parsed.data);
  return c.body(csv, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="invoices-${format}-${from}-to-${to}.csv"`,
    'Cache-Control': 'private, no-store',
  });
});

/** Each accepted job's money state for the Jobs list and the job page (and whether it waits for a deposit). */
invoiceRoutes.get('/jobs', (c) => {
  const { db, clock } = c.var.deps;
  return c.json({ jobs: jobMoney(db, currentUser(c).id, clock.now()) satisfies JobMoney[] });
});

invoiceRoutes.get('/:id{[0-9]+}', (c) => answer(c, ownInvoice(c)));

/** A draft's deposit or on-site lines; an issued invoice answers 409. */
invoiceRoutes.patch('/:id{[0-9]+}', async (c) => {
  const { db, clock } = c.var.deps;
  const invoice = ownInvoice(c);
  const input = await readJson(c, invoicePatchSchema);
  return answer(c, updateDraft(db, clock, invoice, input));
});

invoiceRoutes.delete('/:id{[0-9]+}', (c) => {
  deleteDraft(c.var.deps.db, ownInvoice(c));
  return c.body(null, 204);
});

/** Issues the draft: the account's next number, the date, the due date, the parties frozen. */
invoiceRoutes.post('/:id{[0-9]+}/issue', (c) => {
  const { db, clock } = c.var.deps;
  return answer(c, issueInvoice(db, clock, ownInvoice(c), byPerson(c)));
});

/** Records a payment; the customer gets a receipt (where the invoice has an e-mail address). */
invoiceRoutes.post('/:id{[0-9]+}/payments', async (c) => {
  const { db } = c.var.deps;
  const invoice = ownInvoice(c);
  const input = await readJson(c, paymentCreateSchema);
  recordPaymentWithReceipt(c.var.deps, byPerson(c), invoice, input);
  return answer(c, findOwnInvoice(db, invoice.userId, invoice.id), 201);
});

/** Removes a payment recorded by mistake: it stays in the invoice's history with the reason. */
invoiceRoutes.delete('/:id{[0-9]+}/payments/:paymentId{[0-9]+}', async (c) => {
  const { db, clock } = c.var.deps;
  const invoice = ownInvoice(c);
  const { reason } = await readJson(c, paymentRemoveSchema);
  removePayment(db, clock, invoice, Number(c.req.param('paymentId')), reason);
  return answer(c, findOwnInvoice(db, invoice.userId, invoice.id));
});

/**
 * Refunds all of what is left of a payment, or a part, with a reason: a card payment taken online
 * back through Stripe on its account, any other recorded; a credit note of the same amount either
 * way (card-payments/refunds.ts). 502 with nothing recorded when Stripe refuses.
 */
invoiceRoutes.post('/:id{[0-9]+}/payments/:paymentId{[0-9]+}/refund', async (c) => {
  const invoice = ownInvoice(c);
  const input = await readJson(c, refundCreateSchema);
  await refundPayment(c.var.deps, byPerson(c), invoice, Number(c.req.param('paymentId')), input);
  return answer(c, findOwnInvoice(c.var.deps.db, invoice.userId, invoice.id));
});

/** A credit note for the whole of what is open on the invoice, or a part of it; the customer is e-mailed it with its PDF. */
invoiceRoutes.post('/:id{[0-9]+}/credit-notes', async (c) => {
  const { db } = c.var.deps;
  const invoice = ownInvoice(c);
  const input = await readJson(c, creditNoteCreateSchema);
  issueCreditNoteWithEmail(c.var.deps, invoice, input, byPerson(c));
  return answer(c, findOwnInvoice(db, invoice.userId, invoice.id), 201);
});

/** A credit note of the invoice as a PDF (one not on this invoice, or on another account's, is a 404). */
invoiceRoutes.get('/:id{[0-9]+}/credit-notes/:creditNoteId{[0-9]+}/credit-note.pdf', async (c) => {
  const row = ownInvoice(c);
  const note = creditNoteOf(c.var.deps.db, row.id, Number(c.req.param('creditNoteId')));
  const pdf = await creditNotePdfOf(c.var.deps, row, note);
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${creditNotePdfFilename(note)}"`,
    'Cache-Control': 'private, no-store',
  });
});

/** The issued invoice as a PDF (a draft has none yet: 409). */
invoiceRoutes.get('/:id{[0-9]+}/invoice.pdf', async (c) => {
  const row = ownInvoice(c);
  const pdf = await invoicePdfOf(c.var.deps, row);
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${invoicePdfFilename(row)}"`,
    'Cache-Control': 'private, no-store',
  });
});

/** E-mails the issued invoice (a new link and the PDF) to the customer, or to a typed address. */
invoiceRoutes.post('/:id{[0-9]+}/send', async (c) => {
  const invoice = ownInvoice(c);
  const { email } = await readJson(c, invoiceSendSchema);
  return answer(c, sendInvoice(c.var.deps, invoice, email, cardPaymentsOpen(c.var.deps, invoice.userId), byPerson(c)));
});

/** Withdraws the customer's links sent so far: they open nothing but say so. */
invoiceRoutes.post('/:id{[0-9]+}/revoke', (c) => {
  const { db, clock } = c.var.deps;
  return answer(c, revokeInvoiceLinks(db, clock, ownInvoice(c)));
});
