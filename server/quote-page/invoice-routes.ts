import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError } from '../../core/errors';
import { INVOICE_LINK_MESSAGES } from '../../core/invoices';
import type { AppEnv } from '../http/context';
import { clientNetwork } from '../http/rate-limit';
import { INVOICE_TOKEN_MAX, markInvoiceViewed, openInvoiceLink } from '../invoices/invoice-links';
import { invoicePdfFilename, invoicePdfOf, toPublicInvoice } from '../invoices/invoice-view';
import { creditNoteOf, creditNotePdfFilename, creditNotePdfOf } from '../invoices/credit-notes';
import { describeError } from '../log';
import { messagePage } from './html';
import { openedByPerson } from './opened-by-person';
import { fromThisPage, html, pageHeaders, type PageContext } from './page-response';
import { cardPaymentsOpen, paymentBeingConfirmed, startCheckout } from '../card-payments/checkout';
import type { InvoiceRow } from '../invoices/invoices';
import { invoicePage, type InvoicePageInput } from './invoice-page';

/**
 * The customer's invoice page, `/invoice/<token>` (docs/product.md, Getting paid): server-rendered
 * HTML for the link in the customer's e-mail, no account, no bundle, the quote page's headers and
 * policy (page-response.ts). The link's token is the credential, limited per network
 * as the JSON API's. Opening it by a person (not a mail scanner) marks the invoice viewed.
 */
export const invoicePageRoutes = new Hono<AppEnv>();

// '/invoice/*' only: a sub-app's '*' would reach every path of the app.
invoicePageRoutes.use('/invoice', pageHeaders);
invoicePageRoutes.use('/invoice/*', pageHeaders);

async function tokenOf(c: PageContext): Promise<string> {
  await c.var.limits.consume('invoiceLinksPerAddress', clientNetwork(c), 'Too many requests from this connection. Please wait a few minutes and try again.');
  const token = c.req.param('token') ?? '';
  if (token.length > INVOICE_TOKEN_MAX) throw new DomainError('NOT_FOUND', INVOICE_LINK_MESSAGES.unknown);
  return token;
}

/**
 * What an invoice page shows beyond the invoice: whether it can be paid by card, and (back from
 * paying, `?paid=card`, with the payment's event not yet in) that the payment is being confirmed,
 * looked for again a few times.
 */
export function invoicePageState(c: PageContext, row: InvoiceRow): Pick<InvoicePageInput, 'invoice' | 'confirming' | 'checks'> {
  const { deps } = c.var;
  const now = deps.clock.now();
  const invoice = toPublicInvoice(deps.db, row, now, cardPaymentsOpen(deps, row.userId));
  const checks = Number(c.req.query('checks') ?? '0');
  const confirming = c.req.query('paid') === 'card' && invoice.owed !== '0.00' && paymentBeingConfirmed(deps.db, row.id, now);
  return { invoice, confirming, checks: Number.isSafeInteger(checks) ? checks : 0 };
}

invoicePageRoutes.get('/invoice/:token', async (c) => {
  const { db, clock } = c.var.deps;
  const token = await tokenOf(c);
  const row = openInvoiceLink(db, token);
  if (openedByPerson((name) => c.req.header(name))) markInvoiceViewed(db, clock, row);
  return html(c, (nonce) => invoicePage({ token, nonce, payHref: `/invoice/${encodeURIComponent(token)}/pay`, ...invoicePageState(c, row) }));
});

/** "Pay by card": a checkout for what is owed now, coming back to this page (card-payments/checkout.ts). */
invoicePageRoutes.post('/invoice/:token/pay', async (c) => {
  const token = await tokenOf(c);
  if (!fromThisPage(c)) throw new DomainError('FORBIDDEN', 'This payment did not come from the invoice page. Please open the link in your e-mail and pay there.');
  const row = openInvoiceLink(c.var.deps.db, token);
  const page = `/invoice/${encodeURIComponent(token)}`;
  return c.redirect(await startCheckout(c.var.deps, row, { successPath: `${page}?paid=card`, cancelPath: page }), 303);
});

invoicePageRoutes.get('/invoice/:token/invoice.pdf', async (c) => {
  const row = openInvoiceLink(c.var.deps.db, await tokenOf(c));
  const pdf = await invoicePdfOf(c.var.deps, row);
  return c.body(new Uint8Array(pdf), 200, { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${invoicePdfFilename(row)}"` });
});

/** A credit note of the invoice as a PDF, linked from the page (one not on this invoice: the page's 404). */
invoicePageRoutes.get('/invoice/:token/credit-notes/:creditNoteId{[0-9]{1,9}}/credit-note.pdf', async (c) => {
  const row = openInvoiceLink(c.var.deps.db, await tokenOf(c));
  const note = creditNoteOf(c.var.deps.db, row.id, Number(c.req.param('creditNoteId')));
  const pdf = await creditNotePdfOf(c.var.deps, row, note);
  return c.body(new Uint8Array(pdf), 200, { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${creditNotePdfFilename(note)}"` });
});

// Nothing else under /invoice reaches the dashboard's app page.
const notFoundPage = (c: PageContext) => html(c, (nonce) => messagePage('Invoice not found', INVOICE_LINK_MESSAGES.unknown, nonce), 404);
invoicePageRoutes.all('/invoice', notFoundPage);
invoicePageRoutes.all('/invoice/*', notFoundPage);

const HEADINGS: Partial<Record<DomainError['code'], string>> = {
  NOT_FOUND: 'Invoice not found',
  QUOTE_GONE: 'Invoice link withdrawn',
  RATE_LIMITED: 'Too many requests',
  CONFLICT: 'Nothing to pay',
  FORBIDDEN: 'Payment refused',
  PAYMENTS_NOT_CONFIGURED: 'Card payments unavailable',
  PAYMENT_PROVIDER_ERROR: 'Card payment unavailable',
};

/** Every refusal as a small page with its plain message and status. */
invoicePageRoutes.onError((err, c) => {
  if (err instanceof DomainError && (err.status < 500 || err.code === 'PAYMENTS_NOT_CONFIGURED')) {
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    return html(c, (nonce) => messagePage(HEADINGS[err.code] ?? 'Something went wrong', err.message, nonce), err.status as ContentfulStatusCode);
  }
  // No path: it holds the link's token.
  c.var.deps.logger.error({ requestId: c.var.requestId, method: c.req.method, error: describeError(err) }, 'request failed');
  return html(c, (nonce) => messagePage('Something went wrong', 'Something went wrong on our side. Please try again.', nonce), 500);
});
