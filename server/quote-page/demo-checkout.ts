import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { CARD_MESSAGES } from '../../core/card-payments';
import { DomainError } from '../../core/errors';
import { formatGbp } from '../../core/money';
import type { AppEnv } from '../http/context';
import { clientNetwork } from '../http/rate-limit';
import { checkoutBySession } from '../card-payments/checkout';
import { DEMO_PAYMENT_PREFIX, DEMO_SESSION_PREFIX } from '../card-payments/demo-card-provider';
import { recordCheckoutPaid } from '../card-payments/events';
import { findOwnInvoice } from '../invoices/invoices';
import { invoiceTitle } from '../../core/invoices';
import { describeError } from '../log';
import { escapeHtml, htmlDocument, messagePage } from './html';
import { fromThisPage, html, pageHeaders, type PageContext } from './page-response';

/**
 * The demo's card payment page, `/pay/demo/<session>` (docs/payments.md, Customers' card payments:
 * the demo): what Stripe Checkout is with real keys, for a first run. It says plainly that it is a
 * demo and no money moves, asks for no card, and one tap pays: the tap goes through the same step
 * as a Stripe event (card-payments/events.ts recordCheckoutPaid), with every check, then back to
 * the page the customer came from. Only the demo provider makes these sessions; with Stripe the
 * route opens nothing.
 */
export const demoCheckoutRoutes = new Hono<AppEnv>();

demoCheckoutRoutes.use('/pay/demo/*', pageHeaders);

const TOO_MANY = 'Too many requests from this connection. Please wait a few minutes and try again.';

/** The open checkout a demo session names: 404 for any other (unknown, not the demo's, expired). */
async function openCheckout(c: PageContext) {
  await c.var.limits.consume('invoiceLinksPerAddress', clientNetwork(c), TOO_MANY);
  const session = c.req.param('session') ?? '';
  const checkout = c.var.deps.cardPayments?.kind === 'demo' && session.startsWith(DEMO_SESSION_PREFIX) && session.length <= 100 ? checkoutBySession(c.var.deps.db, session) : undefined;
  if (!checkout || checkout.provider !== 'demo') throw new DomainError('NOT_FOUND', CARD_MESSAGES.demoUnknown);
  return checkout;
}

demoCheckoutRoutes.get('/pay/demo/:session', async (c) => {
  const checkout = await openCheckout(c);
  if (checkout.status === 'paid') return c.redirect(checkout.returnPath, 303);
  const cancel = checkout.returnPath.replace(/\?.*$/, '');
  if (checkout.status !== 'open' || checkout.expiresAt <= c.var.deps.clock.now()) {
    return html(c, (nonce) => messagePage('Payment expired', 'This payment page has expired. Please go back and start the payment again.', nonce, cancel), 410);
  }
  const invoice = findOwnInvoice(c.var.deps.db, checkout.userId, checkout.invoiceId);
  const business = invoice.parties?.supplier.name ?? '';
  const what = invoice.parties ? `${invoiceTitle(invoice, invoice.parties)} ${invoice.number}` : `Invoice ${invoice.number}`;
  const amount = escapeHtml(formatGbp(checkout.amountPence));
  return html(c, (nonce) =>
    htmlDocument({
      title: `Demo payment: ${formatGbp(checkout.amountPence)}`,
      accentColor: null,
      nonce,
      body: `<header class="bar"><p>Demo payment</p></header>
<main>
<div class="card status" role="note"><p><strong>This is a demo.</strong> No card is charged and no money moves: this install takes card payments in demo mode until Stripe is set up.</p></div>
<h1>Pay ${amount}</h1>
<p class="lead">To <strong>${escapeHtml(business)}</strong> for ${escapeHtml(what)}.</p>
<form class="card" method="post" action="/pay/demo/${escapeHtml(checkout.sessionId)}"><button type="submit">Pay ${amount} (demo)</button></form>
<p><a href="${escapeHtml(cancel)}">Cancel and go back</a></p>
</main>`,
    }),
  );
});

demoCheckoutRoutes.post('/pay/demo/:session', async (c) => {
  const checkout = await openCheckout(c);
  if (!fromThisPage(c)) throw new DomainError('FORBIDDEN', 'This payment did not come from the payment page. Please go back and start it again.');
  if (checkout.status === 'open' && checkout.expiresAt > c.var.deps.clock.now()) {
    recordCheckoutPaid(c.var.deps, c.var.deps.cardPayments!, {
      kind: 'checkout_paid',
      id: `demo_evt_${checkout.sessionId}`,
      livemode: false,
      account: null,
      sessionId: checkout.sessionId,
      paymentIntentId: `${DEMO_PAYMENT_PREFIX}${checkout.sessionId.slice(DEMO_SESSION_PREFIX.length)}`,
      amountPence: checkout.amountPence,
      currency: 'gbp',
      metadata: { invoiceId: String(checkout.invoiceId), userId: String(checkout.userId) },
    });
  }
  return c.redirect(checkout.returnPath, 303);
});

demoCheckoutRoutes.onError((err, c) => {
  if (err instanceof DomainError && err.status < 500) {
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    return html(c, (nonce) => messagePage(err.code === 'NOT_FOUND' ? 'Payment not found' : 'Payment refused', err.message, nonce), err.status as ContentfulStatusCode);
  }
  c.var.deps.logger.error({ requestId: c.var.requestId, method: c.req.method, error: describeError(err) }, 'request failed');
  return html(c, (nonce) => messagePage('Something went wrong', 'Something went wrong on our side. Please try again.', nonce), 500);
});
