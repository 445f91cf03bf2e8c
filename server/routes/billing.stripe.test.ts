import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTokens } from '../../db/schema';
import { userTokensResponseSchema } from '../../core/credits';
import { findUserByUsername } from '../accounts/users';
import { balanceOf, grantCredits, ledgerSum } from '../credits/ledger';
import {
  invoicePaidEvent,
  invoicePaymentFailedEvent,
  paymentIntentSucceededEvent,
  intentIdOf,
  postWebhook,
  subscriptionDeletedEvent,
  type FakeStripe,
} from '../../testing/fake-stripe';
import { advanceKeepingSession, registerClient, TestClient, type TestServer } from '../../testing/harness';
import { startServerWithFakeStripe } from '../../testing/stripe-server';

const WEBHOOK_SECRET = 'whsec_test_secret';
const SECRET_KEY = 'sk_test_do_not_leak';
let stripe: FakeStripe;
let server: TestServer;

beforeAll(async () => {
  ({ server, stripe } = await startServerWithFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, publishableKey: 'pk_test_123' }));
});
afterAll(async () => {
  await server.close();
  await stripe.close();
});

const userId = (username: string) => findUserByUsername(server.db, username)!.id;
const tokens = async (client: TestClient) => userTokensResponseSchema.parse(await (await client.get('/api/user-tokens')).json());

const webhook = (payload: object, secret = WEBHOOK_SECRET) => postWebhook(server, payload, secret);

/** A user with an active Standard subscription, confirmed through payment-success. */
async function subscribed(plan = 'standard') {
  const { client, account } = await registerClient(server);
  const { clientSecret } = await (await client.post('/api/create-subscription', { subscriptionType: plan })).json();
  const paymentIntentId = intentIdOf(clientSecret);
  stripe.succeedPaymentIntent(paymentIntentId);
  const res = await client.post('/api/payment-success', { subscriptionType: plan, paymentType: 'monthly', paymentIntentId });
  expect(res.status).toBe(200);
  const subscriptionId = server.db.select().from(userTokens).where(eq(userTokens.userId, userId(account.username))).get()!.stripeSubscriptionId!;
  return { client, account, paymentIntentId, subscriptionId };
}

describe('Stripe: starting a subscription', () => {
  it('creates an incomplete subscription and applies its first payment once, even when reported twice at once', async () => {
    const { client, account } = await registerClient(server);
    const created = await client.post('/api/create-subscription', { subscriptionType: 'standard' });
    expect(created.status).toBe(200);
    const paymentIntentId = intentIdOf((await created.json()).clientSecret);
    expect([...stripe.state.subscriptions.values()].some((s) => s.status === 'incomplete')).toBe(true);

    const early = await client.post('/api/payment-success', { subscriptionType: 'standard', paymentType: 'monthly', paymentIntentId });
    expect(early.status).toBe(402);

    stripe.succeedPaymentIntent(paymentIntentId);
    const body = { subscriptionType: 'standard', paymentType: 'monthly', paymentIntentId };
    const results = await Promise.all([client.post('/api/payment-success', body), client.post('/api/payment-success', body)]);
    const applied = await Promise.all(results.map(async (r) => (await r.json()).applied));
    expect(applied.sort()).toEqual([false, true]);
    expect(await tokens(client)).toMatchObject({ tokensRemaining: 600, subscriptionStatus: 'active', subscriptionType: 'standard' });
    expect(ledgerSum(server.db, userId(account.username))).toBe(600);
  });

  it('refuses a payment of the wrong amount, of another customer, or for another plan', async () => {
    const alice = await registerClient(server);
    const bob = await registerClient(server);
    const secret = (await (await alice.client.post('/api/create-subscription', { subscriptionType: 'pro' })).json()).clientSecret;
    const pi = intentIdOf(secret);
    stripe.succeedPaymentIntent(pi);
    stripe.setPaymentIntent(pi, { amount: 100 });
    const wrongAmount = await alice.client.post('/api/payment-success', { subscriptionType: 'pro', paymentType: 'monthly', paymentIntentId: pi });
    expect(wrongAmount.status).toBe(400);
    stripe.setPaymentIntent(pi, { amount: 7900 });
    const wrongPlan = await alice.client.post('/api/payment-success', { subscriptionType: 'lite', paymentType: 'monthly', paymentIntentId: pi });
    expect(wrongPlan.status).toBe(400);
    const stolen = await bob.client.post('/api/payment-success', { subscriptionType: 'pro', paymentType: 'monthly', paymentIntentId: pi });
    expect(stolen.status).toBe(400);
    expect(balanceOf(server.db, userId(bob.account.username))).toBe(0);
    expect(balanceOf(server.db, userId(alice.account.username))).toBe(0);
  });

  it('charges the pass at £29.99 whatever amount the client sends', async () => {
    const { client } = await registerClient(server);
    stripe.requests.length = 0;
    const res = await client.post('/api/create-payment-intent', { amount: 1 });
    expect(res.status).toBe(200);
    const create = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(create?.params).toMatchObject({ amount: '2999', currency: 'gbp' });
    const pi = intentIdOf((await res.json()).clientSecret);
    stripe.succeedPaymentIntent(pi);
    await client.post('/api/payment-success', { paymentType: 'one_time', paymentIntentId: pi });
    expect((await tokens(client)).unlimited).toBe(true);
  });

  it('never shows the secret key when Stripe fails', async () => {
    const { client } = await registerClient(server);
    stripe.failNextRequest({ status: 500, type: 'api_error', message: `boom ${SECRET_KEY}` });
    const res = await client.post('/api/create-payment-intent');
    expect(res.status).toBe(502);
    expect(await res.text()).not.toContain(SECRET_KEY);
  });
});

describe('Stripe webhooks', () => {
  it('refuses a bad signature with 400 and changes nothing', async () => {
    const { client, subscriptionId } = await subscribed();
    const invoice = stripe.advanceSubscription(subscriptionId);
    const res = await webhook(invoicePaidEvent(invoice), 'whsec_wrong');
    expect(res.status).toBe(400);
    expect((await tokens(client)).tokensRemaining).toBe(600);
  });

  it('resets the balance to the plan credits on renewal, once, and ignores an older event after a newer one', async () => {
    const { client, account, subscriptionId } = await subscribed('lite');
    const id = userId(account.username);
    grantCredits(server.db, server.clock, id, 50, 'grant', 'test');

    await advanceKeepingSession(server, client, 31);
    const second = stripe.advanceSubscription(subscriptionId);
    await advanceKeepingSession(server, client, 31);
    const third = stripe.advanceSubscription(subscriptionId);
    const thirdEvent = invoicePaidEvent(third);

    expect((await webhook(thirdEvent)).status).toBe(200);
    expect(balanceOf(server.db, id)).toBe(300);
    grantCredits(server.db, server.clock, id, 7, 'grant', 'test');

    // The same event again, then the older renewal arriving late: neither changes the balance.
    expect(await (await webhook(thirdEvent)).json()).toMatchObject({ outcome: 'duplicate' });
    expect((await webhook(invoicePaidEvent(second))).status).toBe(200);
    expect(balanceOf(server.db, id)).toBe(307);
    expect(ledgerSum(server.db, id)).toBe(307);
    expect((await tokens(client)).lastRefillDate).toBe(new Date(third.lines.data[0]!.period.start * 1000).toISOString());
  });

  it('marks a failed renewal past due and a deleted subscription canceled, from the re-read object', async () => {
    const { client, subscriptionId } = await subscribed();
    const failed = stripe.advanceSubscription(subscriptionId, { outcome: 'failed' });
    await webhook(invoicePaymentFailedEvent(failed));
    expect((await tokens(client)).subscriptionStatus).toBe('past_due');
    const ended = stripe.cancelSubscription(subscriptionId);
    await webhook(subscriptionDeletedEvent(ended));
    expect((await tokens(client)).subscriptionStatus).toBe('canceled');
  });

  it('starts a subscription whose browser never reported back, from payment_intent.succeeded', async () => {
    const { client } = await registerClient(server);
    const pi = intentIdOf((await (await client.post('/api/create-subscription', { subscriptionType: 'pro' })).json()).clientSecret);
    const intent = stripe.succeedPaymentIntent(pi);
    const event = paymentIntentSucceededEvent(intent);
    expect((await webhook(event)).status).toBe(200);
    expect(await tokens(client)).toMatchObject({ tokensRemaining: 1000, subscriptionStatus: 'active' });
    // The browser's late report finds it applied.
    const late = await client.post('/api/payment-success', { subscriptionType: 'pro', paymentType: 'monthly', paymentIntentId: pi });
    expect((await late.json()).applied).toBe(false);
    expect((await tokens(client)).tokensRemaining).toBe(1000);
  });

  it('cancels at the period end and shows the date', async () => {
    const { client } = await subscribed();
    const res = await client.post('/api/cancel-subscription');
    expect(res.status).toBe(200);
    const t = await tokens(client);
    expect(t.cancelAt).not.toBeNull();
    expect(t.subscriptionStatus).toBe('active');
  });
});
