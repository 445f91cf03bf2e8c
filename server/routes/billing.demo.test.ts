import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTokensResponseSchema } from '../../core/credits';
import { findUserByUsername } from '../accounts/users';
import { balanceOf, ledgerSum } from '../credits/ledger';
import { runDueRefills } from '../payments/demo-renewals';
import { analyze, grantTo } from '../../testing/analysis';
import { advanceKeepingSession, registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PASS_DAILY_CAP: '2' });
});
afterAll(() => server.close());

const SUCCESS = '4242 4242 4242 4242';
const DECLINED = '4000 0000 0000 0002';

async function tokens(client: TestClient) {
  return userTokensResponseSchema.parse(await (await client.get('/api/user-tokens')).json());
}

/** The browser's flow: create, confirm with the demo card form, report success. */
async function subscribe(client: TestClient, plan: string, card = SUCCESS) {
  const created = await client.post('/api/create-subscription', { subscriptionType: plan });
  expect(created.status).toBe(200);
  const { clientSecret } = await created.json();
  const confirm = await client.post('/api/demo/confirm-payment', { clientSecret, cardNumber: card });
  return confirm;
}

const ids = (username: string) => findUserByUsername(server.db, username)!.id;

describe('subscriptions in demo mode', () => {
  it('takes a new user from 0 credits to the plan credits, applied once', async () => {
    const { client, account } = await registerClient(server);
    const confirm = await subscribe(client, 'standard');
    expect(confirm.status).toBe(200);
    const { paymentIntentId } = await confirm.json();

    const body = { subscriptionType: 'standard', paymentType: 'monthly', paymentIntentId };
    const [a, b] = await Promise.all([client.post('/api/payment-success', body), client.post('/api/payment-success', body)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const applied = [(await a.json()).applied, (await b.json()).applied].sort();
    expect(applied).toEqual([false, true]);

    const t = await tokens(client);
    expect(t).toMatchObject({ tokensRemaining: 600, subscriptionType: 'standard', subscriptionStatus: 'active' });
    expect(t.nextRefillDate).not.toBeNull();
    expect(ledgerSum(server.db, ids(account.username))).toBe(600);

    const again = await client.post('/api/payment-success', body);
    expect((await again.json()).applied).toBe(false);
    expect((await tokens(client)).tokensRemaining).toBe(600);
  });

  it('refuses a second subscription while one is active', async () => {
    const { client } = await registerClient(server);
    const { paymentIntentId } = await (await subscribe(client, 'lite')).json();
    await client.post('/api/payment-success', { subscriptionType: 'lite', paymentType: 'monthly', paymentIntentId });
    const second = await client.post('/api/create-subscription', { subscriptionType: 'pro' });
    expect(second.status).toBe(409);
    expect((await second.json()).message).toContain('already have an active subscription');
  });

  it('declines the decline card and leaves the balance alone', async () => {
    const { client, account } = await registerClient(server);
    const declined = await subscribe(client, 'pro', DECLINED);
    expect(declined.status).toBe(402);
    expect(await declined.json()).toMatchObject({ code: 'PAYMENT_FAILED', message: 'Your card was declined.' });
    const other = await subscribe(client, 'pro', '1234 5678 9012 3456');
    expect(other.status).toBe(400);
    expect(balanceOf(server.db, ids(account.username))).toBe(0);
  });

  it('refuses to apply a payment that has not succeeded, or another user’s', async () => {
    const alice = await registerClient(server);
    const bob = await registerClient(server);
    const created = await (await alice.client.post('/api/create-subscription', { subscriptionType: 'lite' })).json();
    const intentId = created.clientSecret.split('_secret_')[0];
    const early = await alice.client.post('/api/payment-success', { subscriptionType: 'lite', paymentType: 'monthly', paymentIntentId: intentId });
    expect(early.status).toBe(402);

    await alice.client.post('/api/demo/confirm-payment', { clientSecret: created.clientSecret, cardNumber: SUCCESS });
    const stolen = await bob.client.post('/api/payment-success', { subscriptionType: 'lite', paymentType: 'monthly', paymentIntentId: intentId });
    expect(stolen.status).toBe(400);
    expect(balanceOf(server.db, ids(bob.account.username))).toBe(0);
    const wrongPlan = await alice.client.post('/api/payment-success', { subscriptionType: 'pro', paymentType: 'monthly', paymentIntentId: intentId });
    expect(wrongPlan.status).toBe(400);
    const asPass = await alice.client.post('/api/payment-success', { paymentType: 'one_time', paymentIntentId: intentId });
    expect(asPass.status).toBe(400);
    expect((await tokens(alice.client)).unlimited).toBe(false);
    expect(balanceOf(server.db, ids(alice.account.username))).toBe(0);
  });

  it('refills monthly with no carry-over, and ends after a cancellation', async () => {
    const { client, account } = await registerClient(server);
    const { paymentIntentId } = await (await subscribe(client, 'lite')).json();
    await client.post('/api/payment-success', { subscriptionType: 'lite', paymentType: 'monthly', paymentIntentId });
    grantTo(server, account.username, 5);
    expect((await tokens(client)).tokensRemaining).toBe(305);

    await advanceKeepingSession(server, client, 32);
    runDueRefills(server.db, server.clock);
    const refilled = await tokens(client);
    expect(refilled.tokensRemaining).toBe(300);
    expect(ledgerSum(server.db, ids(account.username))).toBe(300);

    const cancel = await client.post('/api/cancel-subscription');
    expect(cancel.status).toBe(200);
    const cancelled = await tokens(client);
    expect(cancelled.cancelAt).toBe(cancelled.nextRefillDate);
    expect(cancelled.subscriptionStatus).toBe('active');

    await advanceKeepingSession(server, client, 32);
    runDueRefills(server.db, server.clock);
    expect(await tokens(client)).toMatchObject({ subscriptionStatus: 'canceled', tokensRemaining: 300 });
    expect((await client.post('/api/create-subscription', { subscriptionType: 'pro' })).status).toBe(200);
  });
});

describe('the one-time Unlimited pass', () => {
  it('charges £29.99 whatever the client sends and makes analyses free for 30 days, up to the daily cap', async () => {
    const { client, account } = await registerClient(server);
    const created = await client.post('/api/create-payment-intent', { amount: 1 });
    const { clientSecret } = await created.json();
    const intentId = clientSecret.split('_secret_')[0];
    expect((await server.payments!.retrievePaymentIntent(intentId))?.amount).toBe(2999);

    const { paymentIntentId } = await (await client.post('/api/demo/confirm-payment', { clientSecret, cardNumber: SUCCESS })).json();
    const applied = await client.post('/api/payment-success', { paymentType: 'one_time', paymentIntentId });
    expect(applied.status).toBe(200);
    const t = await tokens(client);
    expect(t.unlimited).toBe(true);
    expect(new Date(t.passEndsAt!).getTime() - server.clock.now().getTime()).toBe(30 * 24 * 3600_000);

    expect((await analyze(client, { description: 'ash, 10 inch trunk, 25 ft' })).status).toBe(201);
    expect((await analyze(client, { description: 'ash, 10 inch trunk, 25 ft' })).status).toBe(201);
    // Past the fair-use cap (2 in this test) an analysis needs credits again.
    expect((await analyze(client, { description: 'ash, 10 inch trunk, 25 ft' })).status).toBe(402);
    expect(balanceOf(server.db, ids(account.username))).toBe(0);
    expect(ledgerSum(server.db, ids(account.username))).toBe(0);

    await advanceKeepingSession(server, client, 31);
    expect((await tokens(client)).unlimited).toBe(false);
  });
});

describe('payment routes guard themselves', () => {
  it('need a signed-in user and a same-origin request', async () => {
    const anon = new TestClient(server);
    expect((await anon.post('/api/create-payment-intent')).status).toBe(401);
    const { client } = await registerClient(server);
    const cross = await client.post('/api/create-payment-intent', {}, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(cross.status).toBe(403);
  });

  it('refuse an unsigned webhook', async () => {
    const res = await new TestClient(server).post('/api/stripe/webhook', { id: 'evt_1', type: 'invoice.paid' });
    expect(res.status).toBe(400);
  });

  it('answer 503 in production without Stripe keys', async () => {
    const prod = await startTestServer({ NODE_ENV: 'production', PUBLIC_URL: 'https://trees.example.com' });
    try {
      const { client } = await registerClient(prod);
      const res = await client.post('/api/create-subscription', { subscriptionType: 'lite' });
      expect(res.status).toBe(503);
      expect((await res.json()).code).toBe('PAYMENTS_NOT_CONFIGURED');
    } finally {
      await prod.close();
    }
  });
});
