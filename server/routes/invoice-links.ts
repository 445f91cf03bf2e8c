import { Hono, type Context } from 'hono';
import { DomainError } from '../../core/errors';
import { INVOICE_LINK_MESSAGES, type PublicInvoice } from '../../core/invoices';
import type { AppEnv } from '../http/context';
import { clientNetwork } from '../http/rate-limit';
import { INVOICE_TOKEN_MAX, markInvoiceViewed, openInvoiceLink } from '../invoices/invoice-links';
import { invoicePdfFilename, invoicePdfOf, toPublicInvoice } from '../invoices/invoice-view';
import { cardPaymentsOpen, startCheckout } from '../card-payments/checkout';
import { viaProvider } from '../http/payment-provider';
import { creditNoteOf, creditNotePdfFilename, creditNotePdfOf } from '../invoices/credit-notes';

/**
 * The customer's invoice by its link (docs/product.md, Getting paid): no account, the token is
 * the credential, limited per network as quote links are. A token of the wrong shape is the same
 * 404 as an unknown one; a withdrawn link is a 410.
 */
export const invoiceLinkRoutes = new Hono<AppEnv>();

async function tokenOf(c: Context<AppEnv>): Promise<string> {
  await c.var.limits.consume('invoiceLinksPerAddress', clientNetwork(c), 'Too many requests from this connection. Please wait a few minutes and try again.');
  const token = c.req.param('token') ?? '';
  if (token.length > INVOICE_TOKEN_MAX) throw new DomainError('NOT_FOUND', INVOICE_LINK_MESSAGES.unknown);
  return token;
}

/** Never kept by a shared cache or shown to a search engine, and no link out carries the address. */
const keepPrivate = (c: Context<AppEnv>) => {
  c.header('Cache-Control', 'private, no-store');
  c.header('X-Robots-Tag', 'noindex');
  c.header('Referrer-Policy', 'no-referrer');
};

/** The customer's copy; the first open marks the invoice viewed. */
invoiceLinkRoutes.get('/:token', async (c) => {
  const { deps } = c.var;
  const row = openInvoiceLink(deps.db, await tokenOf(c));
  markInvoiceViewed(deps.db, deps.clock, row);
  keepPrivate(c);
  return c.json({ invoice: toPublicInvoice(deps.db, row, deps.clock.now(), cardPaymentsOpen(deps, row.userId)) satisfies PublicInvoice });
});

/**
 * "Pay by card": a checkout for what is owed now, on the business's account, coming back to the
 * invoice page (card-payments/checkout.ts). 409 when nothing is owed or the business takes no card
 * payments; 503 when card payments are off on this install. Coming back records nothing: the
 * provider's signed event does.
 */
invoiceLinkRoutes.post('/:token/checkout', async (c) => {
  const token = await tokenOf(c);
  const { deps } = c.var;
  const row = openInvoiceLink(deps.db, token);
  const page = `/invoice/${encodeURIComponent(token)}`;
  const url = await viaProvider(() => startCheckout(deps, row, { successPath: `${page}?paid=card`, cancelPath: page }));
  keepPrivate(c);
  return c.json({ url });
});

/** The invoice as a PDF, by the same link and checks. */
invoiceLinkRoutes.get('/:token/invoice.pdf', async (c) => {
  const { deps } = c.var;
  const row = openInvoiceLink(deps.db, await tokenOf(c));
  const pdf = await invoicePdfOf(deps, row);
  keepPrivate(c);
  return c.body(new Uint8Array(pdf), 200, { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${invoicePdfFilename(row)}"` });
});

/** One of the invoice's credit notes as a PDF, by the same link and checks (one not on this invoice: 404). */
invoiceLinkRoutes.get('/:token/credit-notes/:creditNoteId{[0-9]+}/credit-note.pdf', async (c) => {
  const { deps } = c.var;
  const row = openInvoiceLink(deps.db, await tokenOf(c));
  const note = creditNoteOf(deps.db, row.id, Number(c.req.param('creditNoteId')));
  const pdf = await creditNotePdfOf(deps, row, note);
  keepPrivate(c);
  return c.body(new Uint8Array(pdf), 200, { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${creditNotePdfFilename(note)}"` });
});
