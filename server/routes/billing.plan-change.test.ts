import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planChangeResponseSchema } from '../../core/billing';
import { userTokensResponseSchema } from '../../core/credits';
import { creditLedger, processedPaymentEvents, userTokens } from '../../db/schema';
import { findUserByUsername } from '../accounts/users';
import { balanceOf, ledgerSum } from '../credits/ledger';
import { runDueRefills } from '../payments/demo-renewals';
import {
  intentIdOf,
  invoicePaidEvent,
  postWebhook,
  subscriptionUpdatedEvent,
  type FakeStripe,
} from '../../testing/fake-stripe';
import { advanceKeepingSession, registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { startServerWithFakeStripe } from '../../testing/stripe-server';

/**
 * Changing plan: in demo mode and against the fake Stripe. The test clock starts a
 * subscription on 1 June 09:00, its period ends 1 July 09:00 (30 days), so 15 days in exactly
 * half the month is left: Lite to Pro then adds 350 credits (half of 700) for £24.00 (half of
 * £79 - £31), and a downgrade adds nothing and charges nothing.
 */
const tokens = async (client: TestClient) => userTokensResponseSchema.parse(await (await client.get('/api/user-tokens')).json());
const change = (client: TestClient, plan: string) => client.post('/api/subscription/change', { plan });
const idOf = (server: TestServer, username: string) => findUserByUsername(server.db, username)!.id;
const planChanges = (server: TestServer, userId: number) =>
  server.db.select().from(creditLedger).where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, 'plan_change'))).all();

describe('plan change in demo mode', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  async function subscribed(plan: string) {
    const { client, account } = await registerClient(server);
    const { clientSecret } = await (await client.post('/api/create-subscription', { subscriptionType: plan })).json();
    const confirmed = await client.post('/api/demo/confirm-payment', { clientSecret, cardNumber: '4242 4242 4242 4242' });
    const { paymentIntentId } = await confirmed.json();
    expect((await client.post('/api/payment-success', { subscriptionType: plan, paymentType: 'monthly', paymentIntentId })).status).toBe(200);
    return { client, account, userId: idOf(server, account.username) };
  }

  it('upgrades at once with the month-left share of credits, downgrades keeping this month’s credits, and renews on the new plan', async () => {
    const { client, userId } = await subscribed('lite');
    const bystander = await subscribed('lite');
    await advanceKeepingSession(server, client, 15);

    const up = await change(client, 'pro');
    expect(up.status).toBe(200);
    const upBody = planChangeResponseSchema.parse(await up.json());
    expect(upBody).toMatchObject({ direction: 'upgrade', creditsAdded: 350, chargedPence: 2400 });
    expect(upBody.message).toBe('You are now on the Pro plan: 350 credits were added for the rest of this month, for £24.00.');
    expect(upBody.tokens).toMatchObject({ subscriptionType: 'pro', subscriptionStatus: 'active', tokensRemaining: 650 });
    expect(ledgerSum(server.db, userId)).toBe(650);

    const down = planChangeResponseSchema.parse(await (await change(client, 'standard')).json());
    expect(down).toMatchObject({ direction: 'downgrade', creditsAdded: 0, chargedPence: 0 });
    expect(down.tokens).toMatchObject({ subscriptionType: 'standard', tokensRemaining: 650 });
    expect(planChanges(server, userId).map((row) => row.delta)).toEqual([350, 0]);

    // The renewal bills the plan now held: Standard's 600 credits, no carry-over.
    await advanceKeepingSession(server, client, 16);
    runDueRefills(server.db, server.clock);
    expect(await tokens(client)).toMatchObject({ subscriptionType: 'standard', tokensRemaining: 600 });
    expect(ledgerSum(server.db, userId)).toBe(600);

    // Another user's plan and credits did not move.
    // (Read from the database: the bystander's session has idled out over the month.)
    const other = server.db.select().from(userTokens).where(eq(userTokens.userId, bystander.userId)).get()!;
    expect(other).toMatchObject({ subscriptionType: 'lite', tokensRemaining: 300, subscriptionStatus: 'active' });
    expect(ledgerSum(server.db, bystander.userId)).toBe(300);
    expect(planChanges(server, bystander.userId)).toEqual([]);
  });

  it('refuses the plan already held, a bad plan name, two changes at once, and a cancelled plan', async () => {
    const { client, userId } = await subscribed('standard');
    const same = await change(client, 'standard');
    expect(same.status).toBe(409);
    expect(await same.json()).toMatchObject({ code: 'CONFLICT', message: 'You are already on the Standard plan.' });
    expect((await change(client, 'platinum')).status).toBe(400);

    const [a, b] = await Promise.all([change(client, 'pro'), change(client, 'pro')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    // A whole month left (the clock did not move): the full 400-credit difference, once.
    expect(balanceOf(server.db, userId)).toBe(1000);
    expect(ledgerSum(server.db, userId)).toBe(1000);

    expect((await client.post('/api/cancel-subscription')).status).toBe(200);
    const cancelled = await change(client, 'lite');
    expect(cancelled.status).toBe(409);
    expect((await cancelled.json()).message).toContain('set to end at the close of this period');
  });

  it('tells a user with no subscription to choose a plan, and a signed-out visitor to sign in', async () => {
    const { client } = await registerClient(server);
    const res = await change(client, 'pro');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'You have no active subscription to change. Choose a plan to subscribe.' });
    const { TestClient } = await import('../../testing/harness');
    expect((await change(new TestClient(server), 'pro')).status).toBe(401);
  });
});

describe('plan change against the fake Stripe', () => {
  const WEBHOOK_SECRET = 'whsec_plan_change';
  const SECRET_KEY = 'sk_test_plan_change';
  let stripe: FakeStripe;
  let server: TestServer;
  beforeAll(async () => {
    ({ server, stripe } = await startServerWithFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, publishableKey: 'pk_test_plan_change' }));
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });

  const webhook = (payload: object) => postWebhook(server, payload, WEBHOOK_SECRET);
  const marked = (key: string) => server.db.select().from(processedPaymentEvents).where(eq(processedPaymentEvents.id, key)).get();

  async function subscribed(plan: string) {
    const { client, account } = await registerClient(server);
    const { clientSecret } = await (await client.post('/api/create-subscription', { subscriptionType: plan })).json();
    const paymentIntentId = intentIdOf(clientSecret);
    stripe.succeedPaymentIntent(paymentIntentId);
    expect((await client.post('/api/payment-success', { subscriptionType: plan, paymentType: 'monthly', paymentIntentId })).status).toBe(200);
    const userId = idOf(server, account.username);
    const subscriptionId = server.db.select().from(userTokens).where(eq(userTokens.userId, userId)).get()!.stripeSubscriptionId!;
    return { client, userId, subscriptionId };
  }
  const itemPrice = (subscriptionId: string) => stripe.state.subscriptions.get(subscriptionId)!.items.data[0]!.price;

  it('upgrades with Stripe’s proration invoice, paid now; its webhook changes nothing more; the renewal bills Pro', async () => {
    const { client, userId, subscriptionId } = await subscribed('lite');
    await advanceKeepingSession(server, client, 15);
    stripe.requests.length = 0;

    const res = await change(client, 'pro');
    expect(res.status).toBe(200);
    expect(planChangeResponseSchema.parse(await res.json())).toMatchObject({ direction: 'upgrade', creditsAdded: 350, chargedPence: 2400 });
    const update = stripe.requests.find((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscriptionId}`);
    expect(update?.params).toMatchObject({
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
      proration_date: String(Math.floor(server.clock.now().getTime() / 1000)),
      items: [{ price_data: { unit_amount: '7900', currency: 'gbp' } }],
    });
    const invoice = stripe.latestInvoice(subscriptionId);
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', amount_paid: 2400 });
    expect(itemPrice(subscriptionId).unit_amount).toBe(7900);
    expect(await tokens(client)).toMatchObject({ subscriptionType: 'pro', tokensRemaining: 650 });

    // Stripe's invoice.paid for the proration is not a new month: it neither refills nor adds again.
    const event = invoicePaidEvent(invoice);
    expect(await (await webhook(event)).json()).toMatchObject({ outcome: 'ignored' });
    expect(await (await webhook(event)).json()).toMatchObject({ outcome: 'duplicate' });
    expect(balanceOf(server.db, userId)).toBe(650);

    await advanceKeepingSession(server, client, 16);
    const renewal = stripe.advanceSubscription(subscriptionId);
    expect(renewal.amount_paid).toBe(7900);
    expect(await (await webhook(invoicePaidEvent(renewal))).json()).toMatchObject({ outcome: 'applied' });
    expect(balanceOf(server.db, userId)).toBe(1000);
    expect(ledgerSum(server.db, userId)).toBe(1000);
  });

  it('downgrades with no proration: nothing charged now, this month’s credits kept, the next invoice at the new price', async () => {
    const { client, userId, subscriptionId } = await subscribed('pro');
    await advanceKeepingSession(server, client, 10);
    const invoicesBefore = stripe.state.invoices.size;
    stripe.requests.length = 0;

    const res = await change(client, 'lite');
    expect(planChangeResponseSchema.parse(await res.json())).toMatchObject({ direction: 'downgrade', creditsAdded: 0, chargedPence: 0 });
    const update = stripe.requests.find((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscriptionId}`);
    expect(update?.params).toMatchObject({ proration_behavior: 'none', items: [{ price_data: { unit_amount: '3100' } }] });
    expect(update?.params.payment_behavior).toBeUndefined();
    expect(stripe.state.invoices.size).toBe(invoicesBefore);
    expect(await tokens(client)).toMatchObject({ subscriptionType: 'lite', tokensRemaining: 1000 });

    // A customer.subscription.updated for the change is applied as the re-read state: still active.
    await webhook(subscriptionUpdatedEvent(stripe.state.subscriptions.get(subscriptionId)!));
    expect(await tokens(client)).toMatchObject({ subscriptionType: 'lite', subscriptionStatus: 'active', tokensRemaining: 1000 });

    await advanceKeepingSession(server, client, 21);
    const renewal = stripe.advanceSubscription(subscriptionId);
    expect(renewal.amount_paid).toBe(3100);
    await webhook(invoicePaidEvent(renewal));
    expect(balanceOf(server.db, userId)).toBe(300);
    expect(ledgerSum(server.db, userId)).toBe(300);
  });

  it('keeps the plan when the upgrade’s charge is declined', async () => {
    const { client, userId, subscriptionId } = await subscribed('lite');
    stripe.declineNextCharge();
    const res = await change(client, 'standard');
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'PAYMENT_FAILED', message: 'The charge for the upgrade did not go through (the card on file was declined), so you stay on the Lite plan.' });
    expect(itemPrice(subscriptionId).unit_amount).toBe(3100);
    expect(await tokens(client)).toMatchObject({ subscriptionType: 'lite', tokensRemaining: 300 });
    expect(planChanges(server, userId)).toEqual([]);
  });

  it('applies an upgrade from its invoice.paid webhook once when our own write never happened, even after a failed delivery', async () => {
    const { client, userId, subscriptionId } = await subscribed('standard');
    await advanceKeepingSession(server, client, 15);
    // The change reached Stripe but its answer never reached our database (a crash, a timeout).
    const now = server.clock.now();
    const result = await server.payments!.changePlan({
      subscriptionId, plan: 'pro', amountPence: 7900, prorate: true, prorationDate: now, fromAmountPence: 6000, storedPeriod: null,
    });
    // The fake's month is the calendar month from the (moved) test clock: 30 or 31 days.
    const item = stripe.state.subscriptions.get(subscriptionId)!.items.data[0]!;
    const share = (item.current_period_end - now.getTime() / 1000) / (item.current_period_end - item.current_period_start);
    expect(result).toMatchObject({ status: 'changed', chargedPence: Math.round(7900 * share) - Math.round(6000 * share) });
    const added = Math.round(400 * share);
    expect(added).toBeGreaterThan(180);
    expect(await tokens(client)).toMatchObject({ subscriptionType: 'standard', tokensRemaining: 600 });

    const event = invoicePaidEvent(stripe.latestInvoice(subscriptionId));
    stripe.failNextRequest({ status: 500, type: 'api_error', message: 'Stripe is down' }, { path: /^\/v1\/subscriptions\// });
    expect((await webhook(event)).status).toBeGreaterThanOrEqual(500);
    expect(balanceOf(server.db, userId)).toBe(600);

    expect(await (await webhook(event)).json()).toMatchObject({ outcome: 'applied' });
    expect(await (await webhook(event)).json()).toMatchObject({ outcome: 'duplicate' });
    // About half of Standard to Pro's 400-credit difference.
    expect(await tokens(client)).toMatchObject({ subscriptionType: 'pro', tokensRemaining: 600 + added });
    expect(ledgerSum(server.db, userId)).toBe(600 + added);
    expect(marked(`plan_change:${stripe.latestInvoice(subscriptionId).id}`)).toBeDefined();

    // A late answer from our own route (same invoice) finds it applied.
    expect((await change(client, 'pro')).status).toBe(409);
    expect(balanceOf(server.db, userId)).toBe(600 + added);
  });

  it('applies a downgrade from customer.subscription.updated when our own write never happened, once', async () => {
    const { client, userId, subscriptionId } = await subscribed('pro');
    const result = await server.payments!.changePlan({
      subscriptionId, plan: 'lite', amountPence: 3100, prorate: false, prorationDate: server.clock.now(), fromAmountPence: 7900, storedPeriod: null,
    });
    expect(result).toMatchObject({ status: 'changed', chargedPence: 0, invoiceId: null });
    const event = subscriptionUpdatedEvent(stripe.state.subscriptions.get(subscriptionId)!);
    expect(await (await webhook(event)).json()).toMatchObject({ outcome: 'applied' });
    expect(await (await webhook(event)).json()).toMatchObject({ outcome: 'duplicate' });
    expect(await tokens(client)).toMatchObject({ subscriptionType: 'lite', subscriptionStatus: 'active', tokensRemaining: 1000 });
    expect(planChanges(server, userId).map((row) => row.delta)).toEqual([0]);
    expect(ledgerSum(server.db, userId)).toBe(1000);
  });
});
