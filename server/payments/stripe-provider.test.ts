import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PLANS, UNLIMITED_PASS_PRICE_PENCE } from '../../core/plans';
import {
  invoicePaidEvent,
  invoicePaymentFailedEvent,
  paymentIntentSucceededEvent,
  signedWebhook,
  startFakeStripe,
  stripeEvent,
  subscriptionDeletedEvent,
  subscriptionUpdatedEvent,
  type FakeStripe,
} from '../../testing/fake-stripe';
import { createStripeProvider, PLAN_PRODUCT_ID } from './stripe-provider';
import { PaymentProviderError, WebhookSignatureError, type PaymentProvider } from './types';

const SECRET_KEY = 'sk_test_fake_provider_key_51Hx';
const WEBHOOK_SECRET = 'whsec_test_provider_secret';
const user = { id: 7, email: 'ash@example.com', name: 'Ash Tree' };

let fake: FakeStripe;
let provider: PaymentProvider;
beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY });
  provider = createStripeProvider({ secretKey: SECRET_KEY, publishableKey: 'pk_test_x', webhookSecret: WEBHOOK_SECRET, apiBase: fake.apiBase });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

async function newSubscription(plan: 'lite' | 'standard' | 'pro' = 'standard') {
  const customerId = await provider.ensureCustomer(user, null);
  const created = await provider.createSubscription({ customerId, userId: user.id, plan, amountPence: PLANS[plan].pricePence });
  return { customerId, ...created };
}

describe('stripe provider against the fake Stripe API', () => {
  it('creates a customer once, then reuses the stored id', async () => {
    expect(provider.kind).toBe('stripe');
    expect(provider.publishableKey).toBe('pk_test_x');
    const id = await provider.ensureCustomer(user, null);
    expect(id).toMatch(/^cus_/);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      params: { email: user.email, name: user.name, metadata: { userId: '7' } },
      apiKey: SECRET_KEY,
      stripeVersion: Stripe.API_VERSION,
    });
    expect(await provider.ensureCustomer(user, id)).toBe(id);
    expect(fake.requests).toHaveLength(1);
  });

  it('starts the pass as a 29.99 GBP PaymentIntent with our metadata', async () => {
    const customerId = await provider.ensureCustomer(user, null);
    const created = await provider.createPassPayment({ customerId, userId: user.id, amountPence: UNLIMITED_PASS_PRICE_PENCE });
    const sent = fake.requests.find((r) => r.path === '/v1/payment_intents')!;
    expect(sent.params).toEqual({
      amount: '2999',
      currency: 'gbp',
      customer: customerId,
      automatic_payment_methods: { enabled: 'true' },
      metadata: { userId: '7', kind: 'pass' },
    });
    expect(created.paymentIntentId).toMatch(/^pi_/);
    expect(created.clientSecret).toBe(fake.state.paymentIntents.get(created.paymentIntentId)!.client_secret);

    fake.requests.length = 0;
    const info = await provider.retrievePaymentIntent(created.paymentIntentId);
    expect(info).toEqual({
      id: created.paymentIntentId,
      status: 'requires_payment_method',
      amount: 2999,
      currency: 'gbp',
      customerId,
      metadata: { userId: '7', kind: 'pass' },
      subscriptionId: null,
    });
    // A pass is never an invoice payment: one request, no invoice look-up.
    expect(fake.requests.map((r) => r.path)).toEqual([`/v1/payment_intents/${created.paymentIntentId}`]);
    fake.setPaymentIntent(created.paymentIntentId, { amount: 100 });
    expect((await provider.retrievePaymentIntent(created.paymentIntentId))?.amount).toBe(100);
  });

  it('creates an incomplete subscription whose first invoice the client pays', async () => {
    const { customerId, clientSecret, paymentIntentId, subscriptionId } = await newSubscription('standard');
    expect(subscriptionId).toMatch(/^sub_/);
    expect(paymentIntentId).toMatch(/^pi_/);
    expect(clientSecret).toBe(fake.state.paymentIntents.get(paymentIntentId)!.client_secret);

    const sent = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/subscriptions')!;
    expect(sent.params).toMatchObject({
      customer: customerId,
      items: [{ price_data: { currency: 'gbp', product: PLAN_PRODUCT_ID('standard'), unit_amount: '6000', recurring: { interval: 'month' } } }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      metadata: { userId: '7', plan: 'standard' },
      expand: ['latest_invoice.confirmation_secret', 'latest_invoice.payments'],
    });

    expect((await provider.retrieveSubscription(subscriptionId))?.status).toBe('incomplete');
    fake.succeedPaymentIntent(paymentIntentId);
    expect((await provider.retrieveSubscription(subscriptionId))?.status).toBe('active');

    // The plan's Product is found or created once per process.
    fake.requests.length = 0;
    await newSubscription('standard');
    expect(fake.requests.filter((r) => r.path.startsWith('/v1/products'))).toHaveLength(0);
    expect(fake.state.products.get(PLAN_PRODUCT_ID('standard'))?.metadata).toEqual({ plan: 'standard' });
  });

  it('links a subscription payment to its subscription through the invoice', async () => {
    const { customerId, paymentIntentId, subscriptionId } = await newSubscription('pro');
    fake.succeedPaymentIntent(paymentIntentId);
    expect(await provider.retrievePaymentIntent(paymentIntentId)).toEqual({
      id: paymentIntentId,
      status: 'succeeded',
      amount: 7900,
      currency: 'gbp',
      customerId,
      metadata: { userId: '7', plan: 'pro', kind: 'subscription' },
      subscriptionId,
    });
    expect(fake.state.paymentIntents.get(paymentIntentId)!.metadata).toEqual({});
  });

  it('maps the period end and a cancellation at the period end', async () => {
    const { customerId, paymentIntentId, subscriptionId } = await newSubscription('lite');
    fake.succeedPaymentIntent(paymentIntentId);
    const item = fake.state.subscriptions.get(subscriptionId)!.items.data[0]!;
    const periodEnd = new Date(item.current_period_end * 1000);
    expect(await provider.retrieveSubscription(subscriptionId)).toEqual({
      id: subscriptionId,
      status: 'active',
      customerId,
      plan: 'lite',
      currentPeriodStart: new Date(item.current_period_start * 1000),
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: false,
      cancelAt: null,
    });
    const cancelled = await provider.cancelAtPeriodEnd(subscriptionId);
    expect(cancelled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, cancelAt: periodEnd, currentPeriodEnd: periodEnd });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/subscriptions/${subscriptionId}`, params: { cancel_at_period_end: 'true' } });
  });

  it('answers null for ids Stripe does not know', async () => {
    expect(await provider.retrievePaymentIntent('pi_missing')).toBeNull();
    expect(await provider.retrieveSubscription('sub_missing')).toBeNull();
    await expect(provider.cancelAtPeriodEnd('sub_missing')).rejects.toBeInstanceOf(PaymentProviderError);
  });
});

describe('stripe provider: webhooks', () => {
  const parse = (payload: object, secret = WEBHOOK_SECRET) => {
    const { body, signature } = signedWebhook(payload, secret);
    return provider.parseWebhook(body, signature);
  };

  it('reduces signed events to billing events', async () => {
    const { customerId, paymentIntentId, subscriptionId } = await newSubscription('standard');
    fake.succeedPaymentIntent(paymentIntentId);
    const first = await parse(invoicePaidEvent(fake.latestInvoice(subscriptionId)));
    expect(first).toMatchObject({ type: 'invoice.paid', subscriptionId, customerId, amountPaid: 6000, currency: 'gbp', billingReason: 'subscription_create', paymentIntentId: null });

    const renewal = fake.advanceSubscription(subscriptionId);
    const periodStart = new Date(renewal.lines.data[0]!.period.start * 1000);
    const event = invoicePaidEvent(renewal);
    expect(await parse(event)).toEqual({
      id: event.id,
      created: new Date(event.created * 1000),
      type: 'invoice.paid',
      subscriptionId,
      customerId,
      invoiceId: renewal.id,
      amountPaid: 6000,
      currency: 'gbp',
      billingReason: 'subscription_cycle',
      paymentIntentId: null,
      periodStart,
    });

    const failed = fake.advanceSubscription(subscriptionId, { outcome: 'failed' });
    expect(await parse(invoicePaymentFailedEvent(failed))).toMatchObject({ type: 'invoice.payment_failed', subscriptionId, customerId, invoiceId: failed.id });
    const sub = fake.state.subscriptions.get(subscriptionId)!;
    expect(await parse(subscriptionUpdatedEvent(sub, { status: 'active' }))).toMatchObject({ type: 'customer.subscription.updated', subscriptionId, customerId });
    expect(await parse(subscriptionDeletedEvent(fake.cancelSubscription(subscriptionId)))).toMatchObject({ type: 'customer.subscription.deleted', subscriptionId });
    expect(await parse(paymentIntentSucceededEvent(fake.state.paymentIntents.get(paymentIntentId)!))).toMatchObject({ type: 'payment_intent.succeeded', paymentIntentId, customerId });
    expect(await parse(stripeEvent('customer.created', fake.state.customers.get(customerId)))).toMatchObject({ type: 'ignored', stripeType: 'customer.created' });
  });

  it('refuses a tampered body, a wrong secret, a missing signature and an unconfigured secret', async () => {
    const { subscriptionId } = await newSubscription();
    const { body, signature } = signedWebhook(subscriptionDeletedEvent(fake.state.subscriptions.get(subscriptionId)!), WEBHOOK_SECRET);
    await expect(provider.parseWebhook(body, signature)).resolves.toMatchObject({ type: 'customer.subscription.deleted' });
    await expect(provider.parseWebhook(body.replace(subscriptionId, 'sub_someone_else'), signature)).rejects.toThrow(WebhookSignatureError);
    await expect(provider.parseWebhook(body, signedWebhook(JSON.parse(body), 'whsec_wrong').signature)).rejects.toThrow(WebhookSignatureError);
    await expect(provider.parseWebhook(body, undefined)).rejects.toThrow(WebhookSignatureError);
    const unconfigured = createStripeProvider({ secretKey: SECRET_KEY, publishableKey: null, webhookSecret: null, apiBase: fake.apiBase });
    await expect(unconfigured.parseWebhook(body, signature)).rejects.toThrow(WebhookSignatureError);
  });
});

describe('stripe provider: failures', () => {
  async function failure(run: () => Promise<unknown>): Promise<PaymentProviderError> {
    const error = await run().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PaymentProviderError);
    return error as PaymentProviderError;
  }

  it('never puts the secret key in an error, even when Stripe echoes it', async () => {
    const wrongKey = 'sk_test_wrong_key_that_must_not_leak';
    const wrong = createStripeProvider({ secretKey: wrongKey, publishableKey: null, webhookSecret: null, apiBase: fake.apiBase });
    const error = await failure(() => wrong.ensureCustomer(user, null));
    expect(error.message).toBe('Could not set up billing: payments are not configured correctly on this server');
    expect(`${error.message} ${JSON.stringify(error.cause)} ${error.stack}`).not.toContain(wrongKey);
  });

  it('turns server errors and an unreachable Stripe into PaymentProviderError', async () => {
    fake.failNextRequest({ status: 500, message: 'boom' });
    const error = await failure(() => provider.createPassPayment({ customerId: 'cus_x', userId: 1, amountPence: 2999 }));
    expect(error.message).toBe('Could not start the payment: the payment service failed, please try again');
    expect(error.cause).toMatchObject({ type: 'api_error', statusCode: 500 });
    // resource_missing for a parameter (an unknown customer) is a failure, not "not found".
    await failure(() => provider.createSubscription({ customerId: 'cus_missing', userId: 1, plan: 'lite', amountPence: 3100 }));

    const down = await startFakeStripe();
    await down.close();
    const unreachable = createStripeProvider({ secretKey: SECRET_KEY, publishableKey: null, webhookSecret: null, apiBase: down.apiBase, maxNetworkRetries: 0 });
    const offline = await failure(() => unreachable.retrieveSubscription('sub_x'));
    expect(offline.message).toBe('Could not check the subscription: the payment service could not be reached, please try again');
  });
});
