import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardProblemListSchema, paymentsSetupSchema } from '../../core/card-payments';
import { cardPaymentProblems, paymentAccounts } from '../../db/schema';
import { RateLimits } from '../http/rate-limit';
import { signedWebhook, type FakeStripe } from '../../testing/fake-stripe';
import { invoiceOf } from '../../testing/invoices';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { ownerWithProfile, sentLinesJob } from '../../testing/quote-links';
import { startServerWithFakeStripe } from '../../testing/stripe-server';

/*
 * Card payments through Stripe Connect (docs/payments.md, Customers' card payments), against the
 * project's fake Stripe with the real SDK: each business onboards its own account by Account
 * Links, each payment is a direct charge on it with the install's fee, and only a signed event
 * records a payment, once, after its checks; anything that fails them is kept as needing a refund.
 */
const KEYS = { secretKey: 'sk_test_card_payments', publishableKey: 'pk_test_card_payments', webhookSecret: 'whsec_billing' };
const CARD_SECRET = 'whsec_card_payments';
let server: TestServer;
let stripe: FakeStripe;

beforeAll(async () => {
  ({ server, stripe } = await startServerWithFakeStripe(
    KEYS,
    { STRIPE_CONNECT_WEBHOOK_SECRET: CARD_SECRET, CARD_APPLICATION_FEE_PERCENT: '1.5' },
    { rateLimits: new RateLimits({ registrationsPerAddress: { points: 100, windowSeconds: 3600 } }) },
  ));
});
afterAll(async () => {
  await server.close();
  await stripe.close();
});

/** An event delivered to the card payments' webhook as Stripe does, signed with `secret`. */
function deliver(target: TestServer, payload: object, secret = CARD_SECRET): Promise<Response> {
  const { body, signature } = signedWebhook(payload, secret);
  return fetch(`${target.url}/api/card-payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });
}

async function outcomeOf(res: Response): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { outcome: string }).outcome;
}

let customers = 0;
/** A business with bank details and a 10% deposit on jobs over £100, its Stripe account connected and able to take charges. */
async function connectedOwner(): Promise<{ owner: TestClient; account: string }> {
  const { client: owner } = await ownerWithProfile(server);
  const saved = await owner.request('PATCH', '/api/system-settings', {
    bankDetails: { accountName: 'Birch Brothers Ltd', sortCode: '40-11-62', accountNumber: '71234567' },
    depositRule: { percent: 10, overAmount: '100' },
  });
  expect(saved.status).toBe(200);
  expect((await owner.post('/api/payments-setup/onboarding', {})).status).toBe(200);
  const account = paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json()).accountId!;
  stripe.completeOnboarding(account);
  expect(paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json()).chargesEnabled).toBe(true);
  return { owner, account };
}

/** A quote of `price` accepted by a new customer: the deposit the answer gives, and the link's token. */
async function acceptedWithDeposit(owner: TestClient, price: string) {
  customers += 1;
  const email = `robin${customers}@example.com`;
  const { job, token } = await sentLinesJob(server, owner, { name: 'Robin Customer', email }, [{ description: 'Fell the leaning ash', price }]);
  const res = await fetch(`${server.url}/api/quotes/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ name: 'Robin Customer', acceptTerms: true }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { deposit } = (await res.json()) as { deposit: { amount: string; invoiceId: number; payUrl: string } };
  return { job, token, email, deposit };
}

/** The fake's Checkout Session behind a pay URL. */
const sessionOf = (payUrl: string) => [...stripe.state.checkoutSessions.values()].find((record) => record.session.url === payUrl)!;

describe('Connect onboarding', () => {
  it('makes the business its own account once and a fresh single-use link each time, the refresh URL included; the set-up follows Stripe', async () => {
    const { client: owner } = await ownerWithProfile(server);
    expect(paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json())).toEqual({
      provider: 'connect', connected: false, chargesEnabled: false, detailsSubmitted: false, requirements: [], applicationFeePercent: '1.5', accountId: null,
    });
    const accountsBefore = stripe.state.accounts.size;
    const first = (await (await owner.post('/api/payments-setup/onboarding', {})).json()) as { url: string };
    const second = (await (await owner.post('/api/payments-setup/onboarding', {})).json()) as { url: string };
    expect(stripe.state.accounts.size).toBe(accountsBefore + 1);
    expect(second.url).not.toBe(first.url);
    const links = stripe.state.accountLinks.slice(-2);
    const account = links[0]!.account;
    expect(links.map((link) => link.account)).toEqual([account, account]);
    expect(links[0]).toMatchObject({ refresh_url: `${server.config.publicUrl}/api/payments-setup/onboarding/refresh`, return_url: `${server.config.publicUrl}/settings?payments=returned#getting-paid` });
    const created = stripe.requests.find((request) => request.method === 'POST' && request.path === '/v1/accounts' && request.params.metadata && (request.params.metadata as Record<string, string>).userId);
    expect(created?.params.controller).toMatchObject({ fees: { payer: 'account' }, stripe_dashboard: { type: 'full' } });

    // An expired link's refresh URL, opened by the signed-in business: back to Settings, where a POST asks for a new link.
    const linksBefore = stripe.state.accountLinks.length;
    const refreshed = await owner.get('/api/payments-setup/onboarding/refresh');
    expect(refreshed.status).toBe(303);
    expect(refreshed.headers.get('location')).toBe('/settings?payments=expired#getting-paid');
    expect(stripe.state.accountLinks.length).toBe(linksBefore);
    expect((await fetch(`${server.url}/api/payments-setup/onboarding/refresh`, { redirect: 'manual' })).status).toBe(401);

    const pending = paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json());
    expect(pending).toMatchObject({ connected: true, chargesEnabled: false, detailsSubmitted: false, accountId: account });
    expect(pending.requirements.length).toBeGreaterThan(0);
    // Finished in Stripe: account.updated keeps it, and the set-up reads it.
    const done = stripe.completeOnboarding(account);
    expect(await outcomeOf(await deliver(server, stripe.accountUpdatedEvent(done.id)))).toBe('account_updated');
    expect(server.db.select().from(paymentAccounts).where(eq(paymentAccounts.accountId, account)).get()).toMatchObject({ chargesEnabled: true, detailsSubmitted: true, requirements: [] });
    expect(paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json())).toMatchObject({ connected: true, chargesEnabled: true, requirements: [] });
  });

  it('a business not connected yet takes no card payments: the quote asks its deposit by bank transfer', async () => {
    const { client: owner } = await ownerWithProfile(server);
    expect((await owner.request('PATCH', '/api/system-settings', { depositRule: { percent: 10, overAmount: '0' } })).status).toBe(200);
    const { deposit, token } = await acceptedWithDeposit(owner, '300');
    expect(deposit).toMatchObject({ amount: '30.00', payUrl: null });
    expect(await (await fetch(`${server.url}/quote/${token}`)).text()).not.toContain('Pay the £30.00 deposit by card');
  });
});

describe('a direct charge on the business’s account', () => {
  it('the deposit’s Checkout is on the connected account with the install’s fee; coming back records nothing; the event records it once', async () => {
    const { owner, account } = await connectedOwner();
    const { deposit, token, email } = await acceptedWithDeposit(owner, '1200');
    expect(deposit.amount).toBe('120.00');
    const record = sessionOf(deposit.payUrl);
    expect(record.account).toBe(account);
    // 1.5% of £120.00, rounded down to the penny.
    expect(record.applicationFeeAmount).toBe(180);
    expect(record.session).toMatchObject({ amount_total: 12000, currency: 'gbp', metadata: { invoiceId: String(deposit.invoiceId) } });
    expect(record.session.success_url).toBe(`${server.config.publicUrl}/quote/${token}?deposit=paid`);
    const made = stripe.requests.find((request) => request.path === '/v1/checkout/sessions' && request.method === 'POST' && request.stripeAccount === account);
    expect(made?.params).not.toHaveProperty('payment_method_types');

    // Back from Checkout before the event: being confirmed, nothing recorded.
    stripe.completeCheckout(record.session.id);
    expect(await (await fetch(`${server.url}/quote/${token}?deposit=paid`)).text()).toContain('Your payment is being confirmed');
    expect((await invoiceOf(await owner.get(`/api/invoices/${deposit.invoiceId}`))).payments).toEqual([]);

    const event = stripe.checkoutCompletedEvent(record.session.id);
    expect(event).toMatchObject({ account });
    expect(await outcomeOf(await deliver(server, event))).toBe('recorded');
    expect(await outcomeOf(await deliver(server, event))).toBe('duplicate');
    const paid = await invoiceOf(await owner.get(`/api/invoices/${deposit.invoiceId}`));
    expect(paid).toMatchObject({ status: 'paid', owed: '0.00' });
    expect(paid.payments).toHaveLength(1);
    expect(paid.payments[0]).toMatchObject({ amount: '120.00', method: 'card', online: true });
    expect(await (await fetch(`${server.url}/quote/${token}?deposit=paid`)).text()).toContain('Deposit paid');
    await mailSettled(server);
    const mails = outboxMessages(server.dataDir).map((m) => m.text);
    expect(mails.filter((m) => addressedTo(m, email) && m.includes('has received your payment of £120.00'))).toHaveLength(1);
    expect(mails.filter((m) => m.includes('Robin Customer paid £120.00 by card towards deposit invoice'))).toHaveLength(1);
  });

  it('refunds part of a card payment through Stripe on the account, the fee back in proportion, with a credit note; a refused refund records nothing', async () => {
    const { owner, account } = await connectedOwner();
    const { deposit, email } = await acceptedWithDeposit(owner, '500');
    const record = sessionOf(deposit.payUrl);
    stripe.completeCheckout(record.session.id);
    expect(await outcomeOf(await deliver(server, stripe.checkoutCompletedEvent(record.session.id)))).toBe('recorded');
    const paymentId = (await invoiceOf(await owner.get(`/api/invoices/${deposit.invoiceId}`))).payments[0]!.id;

    stripe.failNextRequest({ status: 402, type: 'invalid_request_error', code: 'balance_insufficient', message: 'Insufficient funds' }, { path: /^\/v1\/refunds$/ });
    const refused = await owner.post(`/api/invoices/${deposit.invoiceId}/payments/${paymentId}/refund`, { amount: '10', reason: 'Hedge left' });
    expect(refused.status).toBe(502);
    expect((await invoiceOf(await owner.get(`/api/invoices/${deposit.invoiceId}`))).refunds).toEqual([]);

    const refunded = await invoiceOf(await owner.post(`/api/invoices/${deposit.invoiceId}/payments/${paymentId}/refund`, { amount: '10', reason: 'Hedge left' }));
    expect(refunded).toMatchObject({ paid: '40.00', credited: '10.00', owed: '0.00' });
    const [stripeRefund] = [...stripe.state.refunds.values()].slice(-1);
    expect(stripeRefund).toMatchObject({ account, refundApplicationFee: true, refund: { amount: 1000, status: 'succeeded' } });
    expect(refunded.refunds).toMatchObject([{ amount: '10.00', reason: 'Hedge left', providerRefundId: stripeRefund!.refund.id }]);
    // The customer is told what went back and to which card (as Stripe's charge names it), with the refund's credit note.
    await mailSettled(server);
    const told = outboxMessages(server.dataDir).filter((m) => addressedTo(m.text, email) && m.text.includes('has refunded £10.00'));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('to your Visa card ending 4242');
    expect(told[0]!.text).toContain('A card refund usually shows on your statement within 5 to 10 working days.');
    expect(told[0]!.raw).toContain(`filename=credit-note-${refunded.creditNotes[0]!.number}.pdf`);
  });
});

describe('events that cannot be taken as they came', () => {
  it('a bad signature is a 400 and nothing happens', async () => {
    const { owner } = await connectedOwner();
    const { deposit } = await acceptedWithDeposit(owner, '400');
    const record = sessionOf(deposit.payUrl);
    stripe.completeCheckout(record.session.id);
    const res = await deliver(server, stripe.checkoutCompletedEvent(record.session.id), 'whsec_someone_else');
    expect(res.status).toBe(400);
    expect((await invoiceOf(await owner.get(`/api/invoices/${deposit.invoiceId}`))).payments).toEqual([]);
    const unsigned = await fetch(`${server.url}/api/card-payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unsigned.status).toBe(400);
    // Anyone can post here: a body past 1 MB is refused before any signature work.
    const huge = await fetch(`${server.url}/api/card-payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }, body: 'x'.repeat(1024 * 1024 + 1) });
    expect(huge.status).toBe(413);
    // With Stripe, the demo's payment page opens nothing.
    expect((await fetch(`${server.url}/pay/demo/demo_cs_${'a'.repeat(43)}`)).status).toBe(404);
  });

  it('another account’s payment, a wrong amount, and a payment for an invoice already paid are kept as needing a refund and shown to the owner', async () => {
    const { owner } = await connectedOwner();
    const problems = async () => cardProblemListSchema.parse(await (await owner.get('/api/card-payment-problems')).json()).problems;

    const other = await acceptedWithDeposit(owner, '400');
    const otherSession = sessionOf(other.deposit.payUrl);
    stripe.completeCheckout(otherSession.session.id);
    expect(await outcomeOf(await deliver(server, stripe.checkoutCompletedEvent(otherSession.session.id, { account: 'acct_not_theirs' })))).toBe('needs_refund');

    const wrong = await acceptedWithDeposit(owner, '600');
    const wrongSession = sessionOf(wrong.deposit.payUrl);
    stripe.completeCheckout(wrongSession.session.id);
    const wrongEvent = stripe.checkoutCompletedEvent(wrongSession.session.id);
    (wrongEvent.data.object as { amount_total: number }).amount_total = 5;
    expect(await outcomeOf(await deliver(server, wrongEvent))).toBe('needs_refund');

    const settled = await acceptedWithDeposit(owner, '800');
    const settledSession = sessionOf(settled.deposit.payUrl);
    const issued = await invoiceOf(await owner.get(`/api/invoices/${settled.deposit.invoiceId}`));
    await invoiceOf(await owner.post(`/api/invoices/${issued.id}/payments`, { amount: '80', paidOn: issued.issuedOn, method: 'bank_transfer' }), 201);
    stripe.completeCheckout(settledSession.session.id);
    expect(await outcomeOf(await deliver(server, stripe.checkoutCompletedEvent(settledSession.session.id)))).toBe('needs_refund');

    for (const deposit of [other.deposit, wrong.deposit]) expect((await invoiceOf(await owner.get(`/api/invoices/${deposit.invoiceId}`))).payments).toEqual([]);
    expect((await invoiceOf(await owner.get(`/api/invoices/${settled.deposit.invoiceId}`))).payments).toHaveLength(1);
    const listed = await problems();
    expect(listed.map((problem) => [problem.reason, problem.amount])).toEqual([
      ['already_settled', '80.00'],
      ['wrong_amount', '0.05'],
      ['wrong_account', '40.00'],
    ]);
    expect(listed[2]).toMatchObject({ account: 'acct_not_theirs', invoiceNumber: expect.stringMatching(/^INV-/) });
    await mailSettled(server);
    expect(outboxMessages(server.dataDir).some((m) => m.text.includes('A card payment of £80.00') && m.text.includes('was already paid or credited'))).toBe(true);

    const resolved = await owner.post(`/api/card-payment-problems/${listed[0]!.id}/resolve`, { note: 'Refunded in Stripe' });
    expect(resolved.status).toBe(200);
    expect((await owner.post(`/api/card-payment-problems/${listed[0]!.id}/resolve`, { note: 'Again' })).status).toBe(409);
    const { client: stranger } = await ownerWithProfile(server);
    expect((await stranger.post(`/api/card-payment-problems/${listed[1]!.id}/resolve`, { note: 'Not mine' })).status).toBe(404);
    expect(cardProblemListSchema.parse(await (await stranger.get('/api/card-payment-problems')).json()).problems).toEqual([]);
  });

  it('an event for a payment this install never started, on an account nobody connected, is logged with no owner', async () => {
    const before = server.db.select().from(cardPaymentProblems).all().length;
    const stray = { id: 'cs_test_stray', object: 'checkout.session', payment_status: 'paid', status: 'complete', amount_total: 999, currency: 'gbp', metadata: {}, payment_intent: 'pi_stray' };
    const event = { id: 'evt_stray', object: 'event', api_version: '2026-10-28', created: 1, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type: 'checkout.session.completed', account: 'acct_nobody', data: { object: stray } };
    expect(await outcomeOf(await deliver(server, event))).toBe('needs_refund');
    const rows = server.db.select().from(cardPaymentProblems).all();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ userId: null, reason: 'unknown_payment', account: 'acct_nobody', amountPence: 999 });
    expect(server.logs.some((line) => line.msg === 'card payment needs a refund' && line.event === 'evt_stray')).toBe(true);
  });

  it('a test event under a live key is logged and does nothing', async () => {
    const live = await startTestServer({
      STRIPE_SECRET_KEY: 'sk_live_card_payments',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_card_payments',
      STRIPE_WEBHOOK_SECRET: 'whsec_live_billing',
      STRIPE_API_BASE: stripe.apiBase,
      STRIPE_CONNECT_WEBHOOK_SECRET: CARD_SECRET,
    });
    try {
      const stray = { id: 'cs_test_live', object: 'checkout.session', payment_status: 'paid', status: 'complete', amount_total: 999, currency: 'gbp', metadata: {}, payment_intent: 'pi_live' };
      const event = { id: 'evt_test_mode', object: 'event', api_version: '2026-10-28', created: 1, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type: 'checkout.session.completed', account: 'acct_x', data: { object: stray } };
      expect(await outcomeOf(await deliver(live, event))).toBe('wrong_mode');
      expect(live.db.select().from(cardPaymentProblems).all()).toEqual([]);
      expect(live.logs.some((line) => String(line.msg).includes('a test event under a live key'))).toBe(true);
    } finally {
      await live.close();
    }
  });
});

describe("one business: the install's own account", () => {
  it('charges on the platform itself with no fee and no onboarding; an event from a connected account is not this install’s payment', async () => {
    const own = await startTestServer({
      STRIPE_SECRET_KEY: KEYS.secretKey,
      STRIPE_PUBLISHABLE_KEY: KEYS.publishableKey,
      STRIPE_WEBHOOK_SECRET: KEYS.webhookSecret,
      STRIPE_API_BASE: stripe.apiBase,
      STRIPE_CONNECT_WEBHOOK_SECRET: CARD_SECRET,
      CARD_PAYMENTS: 'own',
      CARD_APPLICATION_FEE_PERCENT: '1.5',
    });
    try {
      const { client: owner } = await ownerWithProfile(own);
      expect((await owner.request('PATCH', '/api/system-settings', { depositRule: { percent: 20, overAmount: '0' } })).status).toBe(200);
      expect(paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json())).toMatchObject({ provider: 'own', chargesEnabled: true, applicationFeePercent: '0' });
      expect((await owner.post('/api/payments-setup/onboarding', {})).status).toBe(409);
      const pages = await fetch(`${own.url}/quote/x`);
      expect(pages.headers.get('content-security-policy')).toContain("form-action 'self' https://checkout.stripe.com");

      const { token } = await sentLinesJob(own, owner, { name: 'Ash Customer', email: 'ash@example.com' }, [{ description: 'Crown lift the lime', price: '250' }]);
      const accepted = await fetch(`${own.url}/api/quotes/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/json', origin: own.origin }, body: JSON.stringify({ name: 'Ash Customer', acceptTerms: true }) });
      const { deposit } = (await accepted.json()) as { deposit: { amount: string; invoiceId: number; payUrl: string } };
      expect(deposit.amount).toBe('50.00');
      const record = sessionOf(deposit.payUrl);
      expect(record).toMatchObject({ account: null, applicationFeeAmount: null });
      stripe.completeCheckout(record.session.id);
      expect(await outcomeOf(await deliver(own, stripe.checkoutCompletedEvent(record.session.id, { account: 'acct_someone' })))).toBe('needs_refund');
      expect(await outcomeOf(await deliver(own, stripe.checkoutCompletedEvent(record.session.id)))).toBe('recorded');
      expect((await invoiceOf(await owner.get(`/api/invoices/${deposit.invoiceId}`))).status).toBe('paid');
    } finally {
      await own.close();
    }
  });
});
