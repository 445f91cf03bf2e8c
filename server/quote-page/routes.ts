import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError } from '../../core/errors';
import { QUOTE_ALREADY_ANSWERED, QUOTE_LINK_MESSAGES, QUOTE_TOKEN_MAX } from '../../core/quote-versions';
import { bodyIdleMs, readBodyText } from '../http/body';
import type { AppEnv } from '../http/context';
import { clientAddress, clientNetwork } from '../http/rate-limit';
import { goneLinkSender } from '../jobs/gone-link-sender';
import { answerQuoteAs, cancelQuoteAs, viewQuoteFrom } from '../jobs/quote-flow';
import { describeError } from '../log';
import { parseAnswerForm, parseCancelForm, parseEarlyStartForm } from './form-answer';
import { requestEarlyStart } from '../jobs/early-start';
import { messagePage } from './html';
import { fromThisPage, html, pageHeaders, type PageContext } from './page-response';
import { invoicePage } from './invoice-page';
import { INVOICE_STATUS_WORDS } from '../../core/invoices';
import { invoiceOfQuote, issuedInvoicesOfQuote } from '../invoices/invoice-links';
import { invoicePdfFilename, invoicePdfOf, toPublicInvoice } from '../invoices/invoice-view';
import { creditNoteOf, creditNotePdfFilename, creditNotePdfOf } from '../invoices/credit-notes';
import { quotePage, type AnswerForm, type QuotePageInput } from './page';
import { cardPaymentsOpen, startCheckout } from '../card-payments/checkout';
import { depositOnAccepting, depositStateOfJob } from '../card-payments/deposit';
import { openQuote } from '../jobs/quote-links';
import { invoicePageState } from './invoice-routes';
import { openedByPerson } from './opened-by-person';
import { hasQuoteLogo, quoteItemPhoto, quoteLogo } from './quote-photo';

/**
 * The customer's quote page, `/quote/<token>` (docs/product.md, Jobs and quotes: the customer's
 * page): server-rendered HTML for the link in the customer's e-mail, no account, no bundle. Its
 * forms post here, not to /api, so they work with JavaScript off; each answer goes through the
 * same domain step as the JSON API's (jobs/quote-flow.ts answerQuoteAs) and comes back as a
 * 303 to the page. The link's token is the credential, so every answer here is kept from
 * search engines, caches and referrers, and limited per network like the API's.
 */
export const quotePageRoutes = new Hono<AppEnv>();

/**
 * A form's fields are a name, a tick or two, and at most 2,000 characters of message: 16 KB holds
 * that message in any script, since a character of Cyrillic or Polish percent-encodes to 6 bytes.
 */
export const FORM_BODY_LIMIT = 16 * 1024;

// '/quote/*' only: a sub-app's '*' would reach every path of the app (the dashboard's too).
quotePageRoutes.use('/quote', pageHeaders);
quotePageRoutes.use('/quote/*', pageHeaders);

const TOO_MANY = 'Too many requests from this connection. Please wait a few minutes and try again.';

/** The link's token, after the network's allowance; one of the wrong shape is the same 404 as an unknown one. */
async function tokenOf(c: PageContext): Promise<string> {
  await c.var.limits.consume('quoteLinksPerAddress', clientNetwork(c), TOO_MANY);
  return shapedToken(c);
}

function shapedToken(c: PageContext): string {
  const token = c.req.param('token') ?? '';
  if (token.length > QUOTE_TOKEN_MAX) throw new DomainError('NOT_FOUND', QUOTE_LINK_MESSAGES.unknown);
  return token;
}

const pagePath = (token: string) => `/quote/${encodeURIComponent(token)}`;

/**
 * What the page shows for a link: the customer's copy and whether the sender's logo heads it.
 * Opening it is a view when a person's browser opened it (opened-by-person.ts), not a scanner.
 */
function pageOf(c: PageContext, token: string, countsAsView = false): Pick<QuotePageInput, 'token' | 'quote' | 'logo' | 'origin' | 'deposit'> {
  const { deps } = c.var;
  const { quote, userId } = viewQuoteFrom(deps, token, countsAsView);
  const checks = Number(c.req.query('checks') ?? '0');
  const returned = c.req.query('deposit') === 'paid';
  const state = quote.answer?.kind === 'accepted' ? depositStateOfJob(deps, openQuote(deps.db, deps.clock, token).job.id, userId, returned) : null;
  return {
    token,
    quote,
    logo: hasQuoteLogo(deps.db, userId),
    origin: deps.config.publicUrl.replace(/\/$/, ''),
    deposit: { cardOpen: cardPaymentsOpen(deps, userId), state, checks: Number.isSafeInteger(checks) ? checks : 0 },
  };
}

/** The job's issued invoices as the quote page lists them. */
function invoicesOf(c: PageContext, token: string): QuotePageInput['invoices'] {
  const { db, clock } = c.var.deps;
  return issuedInvoicesOfQuote(db, clock, token).map((row) => {
    const invoice = toPublicInvoice(db, row, clock.now());
    return { id: row.id, label: `${invoice.title} ${invoice.number}`, owed: invoice.owed, status: INVOICE_STATUS_WORDS[invoice.status] };
  });
}

quotePageRoutes.get('/quote/:token', async (c) => {
  const token = await tokenOf(c);
  const shown = { ...pageOf(c, token, openedByPerson((name) => c.req.header(name))), invoices: invoicesOf(c, token) };
  const asked = c.req.query('asked') === 'change' && shown.quote.answer === null;
  const notice = asked ? `Your request for a change has been sent to ${shown.quote.business.name || 'the business'}. They will be in touch; meanwhile you can still accept this quote as it is.` : undefined;
  return html(c, (nonce) => quotePage({ ...shown, nonce, notice }));
});


async function readForm(c: PageContext): Promise<URLSearchParams> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Please answer with the form on the quote page.');
  const text = await readBodyText(c.req.raw, {
    maxBytes: FORM_BODY_LIMIT,
    idleMs: bodyIdleMs(c),
    tooLarge: () => new DomainError('PAYLOAD_TOO_LARGE', 'Your answer is too long. Please shorten it and try again.'),
  });
  return new URLSearchParams(text);
}

/** The page again, with what refused the answer beside its field and everything typed kept. */
function refusedPage(c: PageContext, token: string, form: AnswerForm, error: DomainError, typed: NonNullable<QuotePageInput['refused']>['typed']): Response {
  const shown = pageOf(c, token);
  return html(c, (nonce) => quotePage({ ...shown, nonce, refused: { form, message: error.message, fields: error.details ?? {}, typed } }), 400);
}

quotePageRoutes.post('/quote/:token/:form{accept|decline|changes}', async (c) => {
  const token = await tokenOf(c);
  if (!fromThisPage(c)) throw new DomainError('FORBIDDEN', 'This answer did not come from the quote page. Please open the link in your e-mail and answer there.');
  const form = c.req.param('form') as AnswerForm;
  const fields = await readForm(c);
  const parsed = parseAnswerForm(form, fields);
  if (!parsed.ok) return refusedPage(c, token, form, parsed.error, parsed.typed);
  try {
    answerQuoteAs(c.var.deps, token, { ...parsed.answer, address: clientAddress(c), userAgent: c.req.header('user-agent') ?? null });
  } catch (err) {
    if (err instanceof DomainError && err.code === 'VALIDATION_ERROR') return refusedPage(c, token, form, err, parsed.typed);
    if (err instanceof DomainError && err.code === 'CONFLICT') {
      const shown = pageOf(c, token);
      return html(c, (nonce) => quotePage({ ...shown, nonce, notice: QUOTE_ALREADY_ANSWERED }), 409);
    }
    throw err;
  }
  if (form === 'accept') {
    // The acceptance stands; a deposit asked goes on to its card payment, or its invoice's bank details.
    const deposit = await depositOnAccepting(c.var.deps, token, fields.get('pay') === 'bank' ? 'bank' : 'card');
    if (deposit?.payUrl) return c.redirect(deposit.payUrl, 303);
    if (deposit) return c.redirect(`${pagePath(token)}/invoices/${deposit.invoice.id}`, 303);
  }
  // See Other: the page is fetched afresh, and a reload does not post the answer again.
  return c.redirect(`${pagePath(token)}${form === 'changes' ? '?asked=change' : ''}`, 303);
});

/** "Pay the deposit by card" after accepting: a checkout for what is owed on the deposit invoice, back to this page. */
quotePageRoutes.post('/quote/:token/deposit/pay', async (c) => {
  const token = await tokenOf(c);
  if (!fromThisPage(c)) throw new DomainError('FORBIDDEN', 'This answer did not come from the quote page. Please open the link in your e-mail and answer there.');
  const { deps } = c.var;
  const opened = openQuote(deps.db, deps.clock, token);
  const state = depositStateOfJob(deps, opened.job.id, opened.job.userId, false);
  if (!state) throw new DomainError('CONFLICT', 'No deposit is asked on this quote.');
  const invoice = invoiceOfQuote(deps.db, deps.clock, token, state.invoiceId);
  const page = pagePath(token);
  return c.redirect(await startCheckout(deps, invoice, { successPath: `${page}?deposit=paid`, cancelPath: page }), 303);
});

/**
 * The consumer cancels the accepted agreement from the page (jobs/cancellation.ts), as the API's
 * POST /api/quotes/{token}/cancel does: refused fields come back beside the form, a refusal of
 * the cancellation itself (409, 410) as the page with its sentence, success as a 303 to the page.
 */
quotePageRoutes.post('/quote/:token/cancel', async (c) => {
  const token = await tokenOf(c);
  if (!fromThisPage(c)) throw new DomainError('FORBIDDEN', 'This answer did not come from the quote page. Please open the link in your e-mail and answer there.');
  const parsed = parseCancelForm(await readForm(c));
  if (!parsed.ok) return refusedPage(c, token, 'cancel', parsed.error, parsed.typed);
  try {
    cancelQuoteAs(c.var.deps, token, { name: parsed.name, address: clientAddress(c), userAgent: c.req.header('user-agent') ?? null });
  } catch (err) {
    if (err instanceof DomainError && (err.code === 'CONFLICT' || (err.code === 'QUOTE_GONE' && /cancellation period/.test(err.message)))) {
      const shown = pageOf(c, token);
      return html(c, (nonce) => quotePage({ ...shown, nonce, notice: err.message }), err.status as ContentfulStatusCode);
    }
    throw err;
  }
  return c.redirect(pagePath(token), 303);
});
quotePageRoutes.get('/quote/:token/cancel', (c) => c.redirect(pagePath(shapedToken(c)), 303));

/**
 * The customer asks for the work to start within their 14 days (jobs/early-start.ts), once the
 * business asked them: refused fields come back beside the form, a refusal of the request itself
 * (409) as the page with its sentence, success as a 303 to the page, which then says so.
 */
quotePageRoutes.post('/quote/:token/start-early', async (c) => {
  const token = await tokenOf(c);
  if (!fromThisPage(c)) throw new DomainError('FORBIDDEN', 'This answer did not come from the quote page. Please open the link in your e-mail and answer there.');
  const parsed = parseEarlyStartForm(await readForm(c));
  if (!parsed.ok) return refusedPage(c, token, 'start-early', parsed.error, parsed.typed);
  try {
    requestEarlyStart(c.var.deps, token, { name: parsed.name, address: clientAddress(c), userAgent: c.req.header('user-agent') ?? null });
  } catch (err) {
    if (err instanceof DomainError && err.code === 'CONFLICT') {
      const shown = pageOf(c, token);
      return html(c, (nonce) => quotePage({ ...shown, nonce, notice: err.message }), 409);
    }
    throw err;
  }
  return c.redirect(pagePath(token), 303);
});
quotePageRoutes.get('/quote/:token/start-early', (c) => c.redirect(pagePath(shapedToken(c)), 303));

/** A form's address opened directly (a bookmark of the page an error came back on): the quote. */
quotePageRoutes.get('/quote/:token/:form{accept|decline|changes}', (c) => c.redirect(pagePath(shapedToken(c)), 303));

/**
 * The page's images (quote-photo.ts): each tree's photo, and the sender's logo. A page of six
 * trees asks for seven, so an image spends none of the network's allowance; only one that opens
 * nothing does, and a spent allowance refuses them too.
 */
function pageImage(path: string, contentType: string, read: (c: PageContext, token: string) => Promise<Buffer>): void {
  quotePageRoutes.get(path, async (c) => {
    const network = clientNetwork(c);
    await c.var.limits.check('quoteLinksPerAddress', network, TOO_MANY);
    try {
      const bytes = await read(c, shapedToken(c));
      // As the page: a shared computer's cache keeps no copy of a customer's garden or the quote's sender.
      c.header('Cache-Control', 'private, no-store');
      return c.body(new Uint8Array(bytes), 200, { 'Content-Type': contentType });
    } catch (err) {
      if (err instanceof DomainError) await c.var.limits.spend('quoteLinksPerAddress', network);
      throw err;
    }
  });
}
pageImage('/quote/:token/items/:itemId{[0-9]{1,9}}/photo', 'image/jpeg', (c, token) => quoteItemPhoto(c.var.deps, token, Number(c.req.param('itemId'))));
pageImage('/quote/:token/logo', 'image/png', (c, token) => quoteLogo(c.var.deps, token));

/** An invoice of the quote's job, opened from the quote page: the invoice page under the quote's link. */
quotePageRoutes.get('/quote/:token/invoices/:id{[0-9]{1,9}}', async (c) => {
  const { deps } = c.var;
  const token = await tokenOf(c);
  const row = invoiceOfQuote(deps.db, deps.clock, token, Number(c.req.param('id')));
  const base = `/quote/${encodeURIComponent(token)}/invoices/${row.id}`;
  return html(c, (nonce) => invoicePage({ token, nonce, documentsHref: base, payHref: `${base}/pay`, ...invoicePageState(c, row) }));
});

/** "Pay by card" on an invoice opened from the quote page: back to the same page. */
quotePageRoutes.post('/quote/:token/invoices/:id{[0-9]{1,9}}/pay', async (c) => {
  const token = await tokenOf(c);
  if (!fromThisPage(c)) throw new DomainError('FORBIDDEN', 'This answer did not come from the quote page. Please open the link in your e-mail and answer there.');
  const { deps } = c.var;
  const row = invoiceOfQuote(deps.db, deps.clock, token, Number(c.req.param('id')));
  const base = `/quote/${encodeURIComponent(token)}/invoices/${row.id}`;
  return c.redirect(await startCheckout(deps, row, { successPath: `${base}?paid=card`, cancelPath: base }), 303);
});

quotePageRoutes.get('/quote/:token/invoices/:id{[0-9]{1,9}}/invoice.pdf', async (c) => {
  const { deps } = c.var;
  const row = invoiceOfQuote(deps.db, deps.clock, await tokenOf(c), Number(c.req.param('id')));
  const pdf = await invoicePdfOf(deps, row);
  return c.body(new Uint8Array(pdf), 200, { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${invoicePdfFilename(row)}"` });
});

quotePageRoutes.get('/quote/:token/invoices/:id{[0-9]{1,9}}/credit-notes/:creditNoteId{[0-9]{1,9}}/credit-note.pdf', async (c) => {
  const { deps } = c.var;
  const row = invoiceOfQuote(deps.db, deps.clock, await tokenOf(c), Number(c.req.param('id')));
  const note = creditNoteOf(deps.db, row.id, Number(c.req.param('creditNoteId')));
  const pdf = await creditNotePdfOf(deps, row, note);
  return c.body(new Uint8Array(pdf), 200, { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${creditNotePdfFilename(note)}"` });
});

// Nothing else under /quote reaches the dashboard's app page.
const notFoundPage = (c: PageContext) => html(c, (nonce) => messagePage('Quote not found', QUOTE_LINK_MESSAGES.unknown, nonce), 404);
quotePageRoutes.all('/quote', notFoundPage);
quotePageRoutes.all('/quote/*', notFoundPage);

const HEADINGS: Partial<Record<DomainError['code'], string>> = {
  NOT_FOUND: 'Quote not found',
  QUOTE_GONE: 'Quote no longer available',
  RATE_LIMITED: 'Too many requests',
  FORBIDDEN: 'Answer refused',
  UNSUPPORTED_MEDIA_TYPE: 'Answer refused',
  PAYLOAD_TOO_LARGE: 'Answer too long',
  REQUEST_TIMEOUT: 'Connection lost',
};

/**
 * Every refusal as a small page with its plain message and status: a link that opens nothing says
 * only why (404, 410); an answer that was not taken offers the way back to the quote.
 */
quotePageRoutes.onError((err, c) => {
  if (err instanceof DomainError && err.status < 500) {
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    const linkGone = err.code === 'NOT_FOUND' || err.code === 'QUOTE_GONE';
    const token = /^\/quote\/([^/]+)\//.exec(c.req.path)?.[1];
    const back = !linkGone && token ? `/quote/${token}` : undefined;
    // Gone (withdrawn, replaced, expired): the message says to ask the business, so it names them.
    const pageToken = /^\/quote\/([^/]+)/.exec(c.req.path)?.[1];
    const sender = err.code === 'QUOTE_GONE' && pageToken ? goneLinkSender(c.var.deps.db, pageToken) : null;
    return html(c, (nonce) => messagePage(HEADINGS[err.code] ?? 'Something went wrong', err.message, nonce, back, sender), err.status as ContentfulStatusCode);
  }
  // No path: it holds the link's token; the request id ties this line to the access line, which masks it.
  c.var.deps.logger.error({ requestId: c.var.requestId, method: c.req.method, error: describeError(err) }, 'request failed');
  return html(c, (nonce) => messagePage('Something went wrong', 'Something went wrong on our side. Please try again.', nonce), 500);
});
