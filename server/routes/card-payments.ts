import { Hono, type Context } from 'hono';
import { problemResolveSchema, type PaymentsSetup, type RefundsDueList } from '../../core/card-payments';
import { ApiError } from '../http/errors';
import { signedWebhookEvent, viaProvider } from '../http/payment-provider';
import type { AppEnv } from '../http/context';
import { currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { onboardingLink, paymentsSetup, providerOf } from '../card-payments/accounts';
import { handleCardEvent } from '../card-payments/events';
import { findOwnProblem, listProblems, resolveProblem } from '../card-payments/problems';
import { refundsDue } from '../card-payments/refund-due';

/**
 * Card payments (docs/product.md, Card payments; docs/payments.md, Customers' card payments):
 * the business's set-up (GET /api/payments-setup, the Connect onboarding and its refresh), the
 * payments that need a refund, the refunds due after a cancellation, and the provider's webhook.
 * Invoices' "Pay by card" is in routes/invoice-links.ts, refunds in routes/invoices.ts, the deposit
 * on acceptance in routes/quotes.ts.
 */
export const cardPaymentRoutes = new Hono<AppEnv>();

/** The path of the webhook for customers' card payments (public-access.ts lets it through without a session). */
export const CARD_WEBHOOK_PATH = '/api/card-payments/webhook';

cardPaymentRoutes.get('/payments-setup', requireUser, async (c) => c.json((await viaProvider(() => paymentsSetup(c.var.deps, currentUser(c).id))) satisfies PaymentsSetup));

/** The business's Stripe account, made on first use, and a link to set it up: a same-origin POST only (http/origin.ts). */
cardPaymentRoutes.post('/payments-setup/onboarding', requireUser, async (c) => c.json({ url: await viaProvider(() => onboardingLink(c.var.deps, currentUser(c).id)) }));

/**
 * Stripe's refresh URL: an Account Link is single-use and expires in minutes, so one opened late
 * (or twice) comes here. Stripe opens it by a GET from its own pages, which any other site could
 * send too (a link, an image), so it makes nothing: it leads back to Settings, where "Continue
 * with Stripe" asks for a new link by a same-origin POST (docs/security.md, Stripe Connect onboarding).
 */
cardPaymentRoutes.get('/payments-setup/onboarding/refresh', requireUser, (c) => c.redirect('/settings?payments=expired#getting-paid', 303));

cardPaymentRoutes.get('/card-payment-problems', requireUser, (c) => c.json({ problems: listProblems(c.var.deps.db, currentUser(c).id) }));

cardPaymentRoutes.post('/card-payment-problems/:id{[0-9]+}/resolve', requireUser, async (c) => {
  // Another account's is a 404 before its body is read.
  findOwnProblem(c.var.deps.db, currentUser(c).id, Number(c.req.param('id')));
  const { note } = await readJson(c, problemResolveSchema);
  return c.json({ problem: resolveProblem(c.var.deps.db, c.var.deps.clock, currentUser(c).id, Number(c.req.param('id')), note) });
});

/** Cancelled jobs with money still to refund, and by when (the job page asks with ?jobId=). */
cardPaymentRoutes.get('/refunds-due', requireUser, (c) => {
  const raw = c.req.query('jobId');
  const jobId = raw !== undefined && /^[0-9]{1,9}$/.test(raw) ? Number(raw) : undefined;
  if (raw !== undefined && jobId === undefined) throw new ApiError('VALIDATION_ERROR', 'jobId must be a job number', { details: { jobId: ['jobId must be a job number'] } });
  return c.json({ refunds: refundsDue(c.var.deps.db, currentUser(c).id, jobId) } satisfies RefundsDueList);
});

/**
 * The card payments' webhook: the signature checked over the raw body with the endpoint's own
 * secret (STRIPE_CONNECT_WEBHOOK_SECRET); no cookies, no same-origin rule. What it does is
 * card-payments/events.ts: payments, refunds made anywhere, disputes.
 */
cardPaymentRoutes.post('/card-payments/webhook', async (c: Context<AppEnv>) => {
  const { deps } = c.var;
  const provider = providerOf(deps);
  const event = await signedWebhookEvent(c, (raw, signature) => provider.parseEvent(raw, signature));
  // A refund read from Stripe that fails is a 502: nothing was kept, and Stripe delivers the event again.
  return c.json({ received: true, outcome: await viaProvider(() => handleCardEvent(deps, provider, event)) });
});
