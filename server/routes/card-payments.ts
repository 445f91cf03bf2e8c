import { Hono, type Context } from 'hono';
import { problemResolveSchema, type PaymentsSetup } from '../../core/card-payments';
import { ApiError } from '../http/errors';
import type { AppEnv } from '../http/context';
import { bodyIdleMs, readBodyText } from '../http/body';
import { currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { onboardingLink, paymentsSetup, providerOf } from '../card-payments/accounts';
import { handleCardEvent } from '../card-payments/events';
import { findOwnProblem, listProblems, resolveProblem } from '../card-payments/problems';
import { refundsDue } from '../card-payments/refund-due';
import { describeError } from '../log';
import { PaymentProviderError, WebhookSignatureError } from '../payments/types';

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

/** A provider's failure as the API's 502 with its own plain sentence. */
export async function viaProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PaymentProviderError) throw new ApiError('PAYMENT_PROVIDER_ERROR', err.message, { cause: err });
    throw err;
  }
}

cardPaymentRoutes.get('/payments-setup', requireUser, async (c) => c.json((await viaProvider(() => paymentsSetup(c.var.deps, currentUser(c).id))) satisfies PaymentsSetup));

cardPaymentRoutes.post('/payments-setup/onboarding', requireUser, async (c) => c.json({ url: await viaProvider(() => onboardingLink(c.var.deps, currentUser(c).id)) }));

/**
 * Stripe's refresh URL: an Account Link is single-use and expires in minutes, so one opened late
 * (or twice) comes here, and a new one is made. Opened by the business's browser, signed in.
 */
cardPaymentRoutes.get('/payments-setup/onboarding/refresh', requireUser, async (c) => {
  try {
    return c.redirect(await onboardingLink(c.var.deps, currentUser(c).id), 303);
  } catch (err) {
    c.var.deps.logger.warn({ error: describeError(err) }, 'onboarding link not renewed');
    return c.redirect('/settings?payments=failed#getting-paid', 303);
  }
});

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
  return c.json({ refunds: refundsDue(c.var.deps.db, currentUser(c).id, jobId) });
});

/** Stripe's events are a few KB; 1 MB is far more than any. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * The card payments' webhook: the signature checked over the raw body with the endpoint's own
 * secret (STRIPE_CONNECT_WEBHOOK_SECRET); no cookies, no same-origin rule, the body read with a
 * limit and the idle timeout like every public one. What it does is card-payments/events.ts.
 */
cardPaymentRoutes.post('/card-payments/webhook', async (c: Context<AppEnv>) => {
  const { deps } = c.var;
  const provider = providerOf(deps);
  const raw = await readBodyText(c.req.raw, {
    maxBytes: WEBHOOK_BODY_LIMIT,
    idleMs: bodyIdleMs(c),
    tooLarge: () => new ApiError('PAYLOAD_TOO_LARGE', 'Webhook body is too large'),
  });
  let event;
  try {
    event = await provider.parseEvent(raw, c.req.header('stripe-signature'));
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw new ApiError('VALIDATION_ERROR', 'Invalid webhook signature');
    throw err;
  }
  return c.json({ received: true, outcome: handleCardEvent(deps, provider, event) });
});
