import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTokensResponseSchema } from '../../core/credits';
import { processedPaymentEvents, userTokens } from '../../db/schema';
import { findUserByUsername } from '../accounts/users';
import { balanceOf, grantCredits, ledgerSum } from '../credits/ledger';
import {
  invoicePaidEvent,
  invoicePaymentFailedEvent,
  paymentIntentSucceededEvent,
  intentIdOf,
  postWebhook,
  subscriptionDeletedEvent,
  subscriptionUpdatedEvent,
  type FakeStripe,
} from '../../testing/fake-stripe';
import { registerClient, type TestClient, type TestServer } from '../../testing/harness';
import { startServerWithFakeStripe } from '../../testing/stripe-server';

/**
 * A webhook whose provider read fails is answered 5xx with nothing marked, and
 * Stripe's retry then applies it exactly once. Each event type, with Stripe failing on the
 * read the event needs (for payment_intent.succeeded of a subscription, the second read: the
 * subscription, after the PaymentIntent was read fine).
 */
const WEBHOOK_SECRET = 'whsec_retry_secret';
const SECRET_KEY = 'sk_test_retry';
let stripe: FakeStripe;
let server: TestServer;

beforeAll(async () => {
  ({ server, stripe } = await startServerWithFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, publishableKey: 'pk_test_retry' }));
});
afterAll(async () => {
  await server.close();
  await stripe.close();
});

const userId = (username: string) => findUserByUsername(server.db, username)!.id;
const tokens = async (client: TestClient) => userTokensResponseSchema.parse(await (await client.get('/api/user-tokens')).json());
const marked = (eventId: string) => server.db.select().from(processedPaymentEvents).where(eq(processedPaymentEvents.id, `evt:${eventId}`)).get();
const SUBSCRIPTION_READ = /^\/v1\/subscriptions\//;
const INTENT_READ = /^\/v1\/payment_intents\//;

const webhook = (payload: object) => postWebhook(server, payload, WEBHOOK_SECRET);

/** Delivers the event with Stripe failing the read at `path`: 5xx, not marked; then twice more: applied once, then a duplicate. */
async function failThenRetry(event: { id: string }, path: RegExp) {
  stripe.failNextRequest({ status: 500, type: 'api_error', message: 'Stripe is down' }, { path });
  const failed = await webhook(event);
  expect(failed.status).toBeGreaterThanOrEqual(500);
  expect(marked(event.id)).toBeUndefined();
  const retried = await webhook(event);
  expect(retried.status).toBe(200);
  expect(await retried.json()).toMatchObject({ outcome: 'applied' });
  expect(marked(event.id)).toBeDefined();
  expect(await (await webhook(event)).json()).toMatchObject({ outcome: 'duplicate' });
}

/** A user whose subscription was created and paid at Stripe, but whose browser never reported back. */
async function paidButUnreported(plan = 'pro') {
  const { client, account } = await registerClient(server);
  const res = await client.post('/api/create-subscription', { subscriptionType: plan });
  const pi = intentIdOf((await res.json()).clientSecret);
  const intent = stripe.succeedPaymentIntent(pi);
  const subscriptionId = server.db.select().from(userTokens).where(eq(userTokens.userId, userId(account.username))).get()!.stripeSubscriptionId!;
  return { client, account, intent, subscriptionId };
}

/** A user with an active Standard subscription, confirmed through payment-success. */
async function subscribed() {
  const { client, account, intent, subscriptionId } = await paidButUnreported('standard');
  const res = await client.post('/api/payment-success', { subscriptionType: 'standard', paymentType: 'monthly', paymentIntentId: intent.id });
  expect(res.status).toBe(200);
  return { client, account, subscriptionId };
}

describe('Stripe webhooks when a provider read fails', () => {
  it('payment_intent.succeeded for a subscription: the subscription read fails, the retry starts the plan once', async () => {
    const { client, account, intent } = await paidButUnreported('pro');
    await failThenRetry(paymentIntentSucceededEvent(intent), SUBSCRIPTION_READ);
    expect(await tokens(client)).toMatchObject({ tokensRemaining: 1000, subscriptionStatus: 'active', subscriptionType: 'pro' });
    expect(ledgerSum(server.db, userId(account.username))).toBe(1000);
  });

  it('payment_intent.succeeded for the pass: the PaymentIntent read fails, the retry starts the pass once', async () => {
    const { client } = await registerClient(server);
    const pi = intentIdOf((await (await client.post('/api/create-payment-intent')).json()).clientSecret);
    const intent = stripe.succeedPaymentIntent(pi);
    expect((await tokens(client)).unlimited).toBe(false);
    await failThenRetry(paymentIntentSucceededEvent(intent), INTENT_READ);
    expect((await tokens(client)).unlimited).toBe(true);
  });

  it('invoice.paid for the first invoice: the subscription read fails, the retry starts the plan once', async () => {
    const { client, subscriptionId } = await paidButUnreported('lite');
    // Stripe includes `payments` only when asked; this delivery carries it, so the event names its PaymentIntent.
    const invoice = stripe.latestInvoice(subscriptionId);
    const payments = [...stripe.state.invoicePayments.values()].filter((ip) => ip.invoice === invoice.id);
    await failThenRetry(invoicePaidEvent({ ...invoice, payments: { object: 'list', data: payments } } as typeof invoice), SUBSCRIPTION_READ);
    expect(await tokens(client)).toMatchObject({ tokensRemaining: 300, subscriptionStatus: 'active' });
  });

  it('invoice.paid for a renewal: the subscription read fails, the retry refills once', async () => {
    const { account, subscriptionId } = await subscribed();
    const id = userId(account.username);
    grantCredits(server.db, server.clock, id, 50, 'grant', 'test');
    const renewal = stripe.advanceSubscription(subscriptionId);
    await failThenRetry(invoicePaidEvent(renewal), SUBSCRIPTION_READ);
    expect(balanceOf(server.db, id)).toBe(600);
    expect(ledgerSum(server.db, id)).toBe(600);
  });

  it('invoice.payment_failed: the subscription read fails, the retry marks it past due', async () => {
    const { client, subscriptionId } = await subscribed();
    const failedInvoice = stripe.advanceSubscription(subscriptionId, { outcome: 'failed' });
    await failThenRetry(invoicePaymentFailedEvent(failedInvoice), SUBSCRIPTION_READ);
    expect((await tokens(client)).subscriptionStatus).toBe('past_due');
  });

  it('customer.subscription.updated and deleted: the read fails, the retry applies the re-read state', async () => {
    const { client, subscriptionId } = await subscribed();
    const sub = stripe.state.subscriptions.get(subscriptionId)!;
    sub.cancel_at_period_end = true;
    await failThenRetry(subscriptionUpdatedEvent(sub), SUBSCRIPTION_READ);
    expect((await tokens(client)).cancelAt).not.toBeNull();
    await failThenRetry(subscriptionDeletedEvent(stripe.cancelSubscription(subscriptionId)), SUBSCRIPTION_READ);
    expect((await tokens(client)).subscriptionStatus).toBe('canceled');
  });
});
