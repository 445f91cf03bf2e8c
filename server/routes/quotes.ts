import { Hono, type Context } from 'hono';
import { QUOTE_LINK_MESSAGES, QUOTE_TOKEN_MAX, quoteAcceptSchema, quoteCancelSchema, quoteChangesSchema, quoteDeclineSchema, type PublicQuote, type QuoteAccepted } from '../../core/quote-versions';
import { DomainError } from '../../core/errors';
import type { AppEnv } from '../http/context';
import { clientAddress, clientNetwork } from '../http/rate-limit';
import { readJson } from '../http/validate';
import { answerQuoteAs, cancelQuoteAs, customerQuotePdf, quoteApiLink, quotePdfFilename, viewQuote, type CustomerAnswer } from '../jobs/quote-flow';
import { openQuote } from '../jobs/quote-links';
import { depositOnAccepting } from '../card-payments/deposit';
import { penceToDecimal } from '../../core/money';

/**
 * The customer's quote by its link (docs/product.md, Jobs and quotes): no account, the token is
 * the credential. Limited per network, so a script cannot try tokens at speed (256 random bits
 * could not be guessed anyway). A token of the wrong shape is the same 404 as an unknown one.
 */
export const quoteRoutes = new Hono<AppEnv>();

async function tokenOf(c: Context<AppEnv>): Promise<string> {
  await c.var.limits.consume('quoteLinksPerAddress', clientNetwork(c), 'Too many requests from this connection. Please wait a few minutes and try again.');
  const token = c.req.param('token') ?? '';
  if (token.length > QUOTE_TOKEN_MAX) throw new DomainError('NOT_FOUND', QUOTE_LINK_MESSAGES.unknown);
  return token;
}

const evidence = (c: Context<AppEnv>): Pick<CustomerAnswer, 'address' | 'userAgent'> => ({
  address: clientAddress(c),
  userAgent: c.req.header('user-agent') ?? null,
});

/** Never kept by a shared cache or shown to a search engine. */
const keepPrivate = (c: Context<AppEnv>) => {
  c.header('Cache-Control', 'private, no-store');
  c.header('X-Robots-Tag', 'noindex');
};

const quote = (c: Context<AppEnv>, body: PublicQuote) => {
  keepPrivate(c);
  return c.json({ quote: body });
};

quoteRoutes.get('/:token', async (c) => quote(c, viewQuote(c.var.deps, await tokenOf(c))));

/**
 * The customer's copy as a PDF: the version the link opens, as it was sent, with their acceptance
 * once given. The same link checks as the copy above (404, or 410 withdrawn, replaced, expired).
 * A download is not a view: the owner hears "viewed" when the customer opens the page, which is
 * where this is linked from, and a PDF is already attached to the e-mails, so counting it would
 * only add a second way to the same news.
 */
quoteRoutes.get('/:token/quote.pdf', async (c) => {
  const { deps } = c.var;
  const token = await tokenOf(c);
  const opened = openQuote(deps.db, deps.clock, token);
  const pdf = await customerQuotePdf(deps, { ...opened, apiUrl: quoteApiLink(deps.config.publicUrl, token) });
  keepPrivate(c);
  return c.body(new Uint8Array(pdf), 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${quotePdfFilename(opened.version.content)}"`,
  });
});

/**
 * The customer accepts. Where the quote asks a deposit, the answer also gives it: its amount, the
 * deposit invoice made from the acceptance, and `payUrl`, the card payment's page (null when the
 * business takes no card payments, or with `payDeposit: "bank"`). The acceptance stands whatever
 * happens to the payment (card-payments/deposit.ts).
 */
quoteRoutes.post('/:token/accept', async (c) => {
  const token = await tokenOf(c);
  const input = await readJson(c, quoteAcceptSchema);
  const accepted = answerQuoteAs(c.var.deps, token, {
    kind: 'accepted',
    name: input.name,
    optionalItemIds: input.optionalItemIds,
    startEarly: input.startWithinCancellationPeriod,
    ...evidence(c),
  });
  const deposit = await depositOnAccepting(c.var.deps, token, input.payDeposit);
  keepPrivate(c);
  return c.json({ quote: accepted, ...(deposit ? { deposit: { amount: penceToDecimal(deposit.amountPence), invoiceId: deposit.invoice.id, payUrl: deposit.payUrl } } : {}) } satisfies QuoteAccepted);
});

quoteRoutes.post('/:token/decline', async (c) => {
  const token = await tokenOf(c);
  const { reason } = await readJson(c, quoteDeclineSchema);
  return quote(c, answerQuoteAs(c.var.deps, token, { kind: 'declined', message: reason, ...evidence(c) }));
});

quoteRoutes.post('/:token/changes', async (c) => {
  const token = await tokenOf(c);
  const { message } = await readJson(c, quoteChangesSchema);
  return quote(c, answerQuoteAs(c.var.deps, token, { kind: 'changes_requested', message, ...evidence(c) }));
});

/**
 * The consumer cancels the accepted agreement within their 14 days (jobs/cancellation.ts): 200
 * with the copy, 409 with a sentence when it is not an accepted agreement (or is done or already
 * cancelled), 410 once the 14 days are over. Both sides are e-mailed.
 */
quoteRoutes.post('/:token/cancel', async (c) => {
  const token = await tokenOf(c);
  const { name } = await readJson(c, quoteCancelSchema);
  return quote(c, cancelQuoteAs(c.var.deps, token, { name, ...evidence(c) }));
});
