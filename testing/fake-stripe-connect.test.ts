import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountUpdatedEvent, checkoutCompletedEvent, signedWebhook, startFakeStripe, type FakeStripe } from './fake-stripe';

/** The fake's Connect side as the real SDK sees it: accounts, links, Checkout on an account, refunds, events. */
const WEBHOOK_SECRET = 'whsec_test_connect';
const RETURN_URL = 'http://app.test/settings/payments?done=1';
const REFRESH_URL = 'http://app.test/settings/payments?again=1';

let fake: FakeStripe;
let stripe: Stripe;
beforeAll(async () => {
  fake = await startFakeStripe();
  stripe = new Stripe('sk_test_x', { host: '127.0.0.1', port: Number(new URL(fake.apiBase).port), protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(() => fake.close());

const newAccount = () =>
  stripe.accounts.create({
    country: 'GB',
    email: 'oak@example.com',
    controller: { fees: { payer: 'account' }, losses: { payments: 'stripe' }, stripe_dashboard: { type: 'full' }, requirement_collection: 'stripe' },
    capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    metadata: { userId: '7' },
  });

/** An onboarded account with an open £120 session on it (2 × £60) and a £1.20 fee. */
async function openSession(fee: number | null = 120) {
  const account = (await newAccount()).id;
  fake.completeOnboarding(account);
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [{ quantity: 2, price_data: { currency: 'gbp', unit_amount: 6000, product_data: { name: 'Deposit on INV-0005' } } }],
      payment_intent_data: { ...(fee === null ? {} : { application_fee_amount: fee }), description: 'Deposit on INV-0005', metadata: { invoiceId: '5' } },
      metadata: { invoiceId: '5' },
      client_reference_id: '5',
      customer_email: 'rowan@example.com',
      success_url: 'http://app.test/pay/done',
      cancel_url: 'http://app.test/pay/cancel',
    },
    { stripeAccount: account },
  );
  return { account, session };
}

describe('fake Stripe: Connect', () => {
  it('creates an account that owes requirements and cannot take charges until onboarding completes', async () => {
    const created = await newAccount();
    expect(created).toMatchObject({
      object: 'account', type: 'none', country: 'GB', default_currency: 'gbp', email: 'oak@example.com', metadata: { userId: '7' },
      controller: { type: 'application', fees: { payer: 'account' }, stripe_dashboard: { type: 'full' } },
      details_submitted: false, charges_enabled: false, payouts_enabled: false,
      requirements: { disabled_reason: 'requirements.past_due' }, capabilities: { card_payments: 'inactive', transfers: 'inactive' },
    });
    expect(created.requirements?.currently_due).toContain('external_account');
    expect((await stripe.accounts.retrieve(created.id)).charges_enabled).toBe(false);

    fake.completeOnboarding(created.id);
    const onboarded = await stripe.accounts.retrieve(created.id);
    expect(onboarded).toMatchObject({ details_submitted: true, charges_enabled: true, payouts_enabled: true, capabilities: { card_payments: 'active' } });
    expect(onboarded.requirements).toMatchObject({ currently_due: [], past_due: [], disabled_reason: null });
    await expect(stripe.accounts.retrieve('acct_unknown')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('makes an onboarding link for the account, kept with its URLs, and wants a refresh_url', async () => {
    const account = (await newAccount()).id;
    const link = await stripe.accountLinks.create({ account, refresh_url: REFRESH_URL, return_url: RETURN_URL, type: 'account_onboarding' });
    expect(link.object).toBe('account_link');
    expect(link.url.startsWith(`${fake.apiBase}/setup/e/${account}/`)).toBe(true);
    expect(link.expires_at - link.created).toBe(300);
    expect(fake.state.accountLinks.at(-1)).toMatchObject({ account, refresh_url: REFRESH_URL, return_url: RETURN_URL, type: 'account_onboarding', link });

    await expect(stripe.accountLinks.create({ account, return_url: RETURN_URL, type: 'account_onboarding' })).rejects.toMatchObject({
      statusCode: 400, code: 'parameter_missing', param: 'refresh_url',
    });
    await expect(stripe.accountLinks.create({ account: 'acct_unknown', refresh_url: REFRESH_URL, return_url: RETURN_URL, type: 'account_onboarding' })).rejects.toMatchObject({
      statusCode: 400, code: 'resource_missing',
    });
  });

  it('opens a Checkout Session on the Stripe-Account header, with its fee, readable on that account only', async () => {
    const { account, session } = await openSession();
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', stripeAccount: account });
    expect(session).toMatchObject({
      object: 'checkout.session', mode: 'payment', status: 'open', payment_status: 'unpaid', amount_total: 12000, amount_subtotal: 12000, currency: 'gbp',
      metadata: { invoiceId: '5' }, client_reference_id: '5', customer_email: 'rowan@example.com', payment_intent: null, url: `${fake.apiBase}/c/pay/${session.id}`,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.expires_at - session.created).toBe(24 * 60 * 60);
    expect(fake.state.checkoutSessions.get(session.id)).toMatchObject({ account, applicationFeeAmount: 120 });

    expect((await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: account })).status).toBe('open');
    await expect(stripe.checkout.sessions.retrieve(session.id)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('refuses an application fee without a Stripe-Account header, or above the amount', async () => {
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: 1000, product_data: { name: 'Invoice' } } }],
      payment_intent_data: { application_fee_amount: 50 },
      success_url: 'http://app.test/pay/done',
    };
    await expect(stripe.checkout.sessions.create(params)).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('Stripe-Account header') });
    const account = (await newAccount()).id;
    await expect(stripe.checkout.sessions.create({ ...params, payment_intent_data: { application_fee_amount: 1001 } }, { stripeAccount: account })).rejects.toMatchObject({
      statusCode: 400, param: 'payment_intent_data[application_fee_amount]',
    });
    const { success_url: _, ...noSuccessUrl } = params;
    await expect(stripe.checkout.sessions.create(noSuccessUrl, { stripeAccount: account })).rejects.toMatchObject({ statusCode: 400, param: 'success_url' });
  });

  it('completes a checkout as a succeeded PaymentIntent on the session account only', async () => {
    const { account, session } = await openSession();
    const paid = fake.completeCheckout(session.id);
    expect(paid).toMatchObject({ status: 'complete', payment_status: 'paid', url: null, customer_details: { email: 'rowan@example.com', name: null } });
    const intent = await stripe.paymentIntents.retrieve(paid.payment_intent!, {}, { stripeAccount: account });
    expect(intent).toMatchObject({
      status: 'succeeded', amount: 12000, amount_received: 12000, currency: 'gbp', application_fee_amount: 120,
      description: 'Deposit on INV-0005', metadata: { invoiceId: '5' },
    });
    expect(intent.latest_charge).toMatch(/^ch_/);
    expect((await stripe.checkout.sessions.retrieve(session.id, {}, { stripeAccount: account })).payment_intent).toBe(intent.id);

    await expect(stripe.paymentIntents.retrieve(intent.id)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
    const other = (await newAccount()).id;
    await expect(stripe.paymentIntents.retrieve(intent.id, {}, { stripeAccount: other })).rejects.toMatchObject({ statusCode: 404 });
    expect(() => fake.completeCheckout(session.id)).toThrow(/complete/);
  });

  it('refunds part, then the rest, then refuses a third refund; only on the charge account', async () => {
    const { account, session } = await openSession();
    const intent = fake.completeCheckout(session.id).payment_intent!;
    const onAccount = { stripeAccount: account };
    await expect(stripe.refunds.create({ payment_intent: intent, amount: 100 })).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing' });

    const part = await stripe.refunds.create(
      { payment_intent: intent, amount: 5000, reason: 'requested_by_customer', metadata: { reason: 'Job cancelled' }, refund_application_fee: true },
      onAccount,
    );
    expect(part).toMatchObject({ object: 'refund', amount: 5000, currency: 'gbp', status: 'succeeded', payment_intent: intent, reason: 'requested_by_customer', metadata: { reason: 'Job cancelled' } });
    expect(fake.state.refunds.get(part.id)).toMatchObject({ account, refundApplicationFee: true });

    const rest = await stripe.refunds.create({ payment_intent: intent }, onAccount);
    expect(rest).toMatchObject({ amount: 7000, charge: part.charge, reason: null });
    expect(fake.state.charges.get(part.charge as string)).toMatchObject({ amount: 12000, amount_refunded: 12000, account });
    await expect(stripe.refunds.create({ payment_intent: intent, amount: 1 }, onAccount)).rejects.toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });
  });

  it('refuses a refund above what is left, or with a reason Stripe does not know', async () => {
    const { account, session } = await openSession(null);
    const intent = fake.completeCheckout(session.id, { amount: 3000 }).payment_intent!;
    await stripe.refunds.create({ payment_intent: intent, amount: 1000 }, { stripeAccount: account });
    await expect(stripe.refunds.create({ payment_intent: intent, amount: 2500 }, { stripeAccount: account })).rejects.toMatchObject({
      statusCode: 400, code: 'amount_too_large', message: 'Refund amount (£25.00) is greater than unrefunded amount on charge (£20.00)',
    });
    const reason = 'changed_mind' as Stripe.RefundCreateParams.Reason;
    await expect(stripe.refunds.create({ payment_intent: intent, reason }, { stripeAccount: account })).rejects.toMatchObject({ statusCode: 400, param: 'reason' });
  });

  it('builds Connect events that name the account and verify with the webhook secret', async () => {
    const { account, session } = await openSession();
    fake.completeCheckout(session.id);
    const { body, signature } = signedWebhook(fake.checkoutCompletedEvent(session.id), WEBHOOK_SECRET);
    const event = stripe.webhooks.constructEvent(body, signature, WEBHOOK_SECRET);
    expect(event).toMatchObject({ type: 'checkout.session.completed', account, livemode: false, data: { object: { id: session.id, payment_status: 'paid', amount_total: 12000 } } });

    const stored = fake.state.checkoutSessions.get(session.id)!.session;
    expect(checkoutCompletedEvent(stored).account).toBeUndefined();
    expect(checkoutCompletedEvent(stored, { account: 'acct_other', livemode: true })).toMatchObject({ account: 'acct_other', livemode: true, data: { object: { livemode: true } } });
    expect(fake.checkoutCompletedEvent(session.id, { account: null }).account).toBeUndefined();
    expect(accountUpdatedEvent(fake.state.accounts.get(account)!)).toMatchObject({ type: 'account.updated', account, data: { object: { id: account, charges_enabled: true } } });
  });
});
