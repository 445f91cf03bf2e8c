import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_MESSAGES, paymentsSetupSchema } from '../../core/card-payments';
import { errorBodySchema } from '../../core/errors';
import { invoicePayments, paymentAccounts } from '../../db/schema';
import type { FakeStripe } from '../../testing/fake-stripe';
import { invoiceOf } from '../../testing/invoices';
import type { TestClient, TestServer } from '../../testing/harness';
import { mailSettled } from '../../testing/mail';
import { ownerWithProfile, sentLinesJob } from '../../testing/quote-links';
import { startServerWithFakeStripe } from '../../testing/stripe-server';

/*
 * Card payments from the attacker's side (docs/security.md, The install's own Stripe account and
 * Stripe Connect onboarding), against the fake Stripe with the real SDK:
 * - CARD_PAYMENTS=own: the install's Stripe account is its admin's (the first account). Another
 *   account that registers itself takes no card payment into it and refunds nothing from it: its
 *   card payments are off, with a sentence.
 * - Connect: a business's Stripe account is made only by a same-origin POST; a cross-site GET of
 *   the refresh URL (a link or an image on another site, the session cookie riding along) makes
 *   nothing, and a cross-site POST is refused.
 */
const KEYS = { secretKey: 'sk_test_attack', publishableKey: 'pk_test_attack', webhookSecret: 'whsec_billing_attack' };
const CARD_SECRET = 'whsec_card_attack';

async function refusedWith(res: Response, status: number, message: string): Promise<void> {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(errorBodySchema.parse(await res.json()).message).toBe(message);
}

describe("CARD_PAYMENTS=own serves the install's admin account alone", () => {
  let server: TestServer;
  let stripe: FakeStripe;
  let admin: TestClient;
  let attacker: TestClient;

  beforeAll(async () => {
    ({ server, stripe } = await startServerWithFakeStripe(KEYS, { STRIPE_CONNECT_WEBHOOK_SECRET: CARD_SECRET, CARD_PAYMENTS: 'own' }));
    admin = (await ownerWithProfile(server)).client;
    attacker = (await ownerWithProfile(server, { tradingName: 'Chancer Trees', phone: '01632 960999', email: 'chancer@example.com', address: '9 Side Street\nLeeds', vatNumber: '', quoteValidityDays: 30 })).client;
    for (const owner of [admin, attacker]) expect((await owner.request('PATCH', '/api/system-settings', { depositRule: { percent: 20, overAmount: '0' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });

  /** A job of one £250 line, sent and accepted on the quote page: its deposit as the acceptance answers it. */
  async function acceptedDeposit(owner: TestClient, email: string) {
    const { token } = await sentLinesJob(server, owner, { name: 'Ash Customer', email }, [{ description: 'Crown lift the lime', price: '250' }]);
    const accepted = await fetch(`${server.url}/api/quotes/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.origin }, body: JSON.stringify({ name: 'Ash Customer', acceptTerms: true }) });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    await mailSettled(server);
    return { token, deposit: ((await accepted.json()) as { deposit: { amount: string; invoiceId: number; payUrl: string | null } }).deposit };
  }

  it('the admin account takes card payments through the install’s account', async () => {
    expect(paymentsSetupSchema.parse(await (await admin.get('/api/payments-setup')).json())).toMatchObject({ provider: 'own', chargesEnabled: true });
    const { deposit } = await acceptedDeposit(admin, 'ash@example.com');
    expect(deposit.payUrl).toMatch(/^http/);
  });

  it('another account’s card payments are off, with a sentence, and no checkout is started on the install’s account', async () => {
    await refusedWith(await attacker.get('/api/payments-setup'), 503, CARD_MESSAGES.ownAccountOnly);
    const sessions = stripe.state.checkoutSessions.size;
    const { token, deposit } = await acceptedDeposit(attacker, 'victim@example.com');
    expect(deposit).toMatchObject({ amount: '50.00', payUrl: null });
    // No pay button and no offer to pay now (the standard terms' "or by card, where we offer it" may stay).
    const page = await (await fetch(`${server.url}/quote/${token}`)).text();
    expect(page).not.toContain('deposit by card');
    expect(page).not.toContain('You can pay it by card now');
    // The pay button's own POST, sent by hand: refused, nothing started.
    const pay = await fetch(`${server.url}/quote/${token}/deposit/pay`, { method: 'POST', headers: { origin: server.origin, 'sec-fetch-site': 'same-origin' }, redirect: 'manual' });
    expect(pay.status).toBe(409);
    expect(await pay.text()).toContain('own Stripe account, so they are off for this business');
    expect(stripe.state.checkoutSessions.size).toBe(sessions);
  });

  it('another account cannot refund from the install’s account, even a card payment on its books', async () => {
    const { deposit } = await acceptedDeposit(attacker, 'victim2@example.com');
    // A card payment recorded against its invoice (as one taken before this rule would be).
    const payment = server.db
      .insert(invoicePayments)
      .values({ invoiceId: deposit.invoiceId, amountPence: 5000, paidOn: '2026-06-01', method: 'card', reference: null, recordedBy: null, providerPaymentId: 'pi_someone_elses', providerAccount: null, createdAt: server.clock.now() })
      .returning()
      .get();
    const refundsAsked = stripe.requests.filter((r) => r.path === '/v1/refunds').length;
    await refusedWith(await attacker.post(`/api/invoices/${deposit.invoiceId}/payments/${payment.id}/refund`, { reason: 'Refund to my own card' }), 409, CARD_MESSAGES.ownAccountOnly);
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds').length).toBe(refundsAsked);
    const invoice = await invoiceOf(await attacker.get(`/api/invoices/${deposit.invoiceId}`));
    expect(invoice.payments.map((p) => p.refunded ?? '0.00')).toEqual(['0.00']);
    server.db.delete(invoicePayments).where(eq(invoicePayments.id, payment.id)).run();
  });
});

describe('Stripe Connect onboarding begins only on a same-origin POST', () => {
  let server: TestServer;
  let stripe: FakeStripe;

  beforeAll(async () => {
    ({ server, stripe } = await startServerWithFakeStripe(KEYS, { STRIPE_CONNECT_WEBHOOK_SECRET: CARD_SECRET }));
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });

  const accountsMade = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/accounts').length;

  it('a cross-site GET of the refresh URL, signed in, makes no account and no link: it leads to Settings', async () => {
    const { client: owner } = await ownerWithProfile(server);
    const before = { accounts: accountsMade(), links: stripe.state.accountLinks.length };
    // As an <img src> or a link on another site would send it: the session cookie rides along (SameSite=Lax on a navigation).
    const res = await fetch(`${server.url}/api/payments-setup/onboarding/refresh`, { headers: { cookie: owner.cookieHeader(), 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }, redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/settings?payments=expired#getting-paid');
    expect({ accounts: accountsMade(), links: stripe.state.accountLinks.length }).toEqual(before);
    expect(server.db.select().from(paymentAccounts).all()).toEqual([]);
    expect(paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json())).toMatchObject({ connected: false, accountId: null });
  });

  it('a cross-site POST is refused and makes nothing; the business’s own POST makes its account', async () => {
    const { client: owner } = await ownerWithProfile(server);
    const before = accountsMade();
    for (const headers of [{ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, { origin: 'null', 'sec-fetch-site': 'cross-site' }]) {
      expect((await owner.post('/api/payments-setup/onboarding', {}, headers)).status).toBe(403);
    }
    expect(accountsMade()).toBe(before);
    const made = await owner.post('/api/payments-setup/onboarding', {});
    expect(made.status).toBe(200);
    expect(accountsMade()).toBe(before + 1);
  });
});
