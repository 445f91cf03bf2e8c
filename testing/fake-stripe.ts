import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  accountRequirements,
  addOneMonth,
  buildAccount,
  buildCheckoutSession,
  buildInvoice,
  buildInvoicePayment,
  buildPaymentIntent,
  buildPrice,
  buildProrationInvoice,
  buildRefund,
  buildSubscription,
  checkoutAsyncSucceededEvent,
  checkoutCompletedEvent,
  accountUpdatedEvent,
  chargeRefundedEvent,
  disputeClosedEvent,
  disputeCreatedEvent,
  fakeId,
  fakeList,
  type ConnectEventOptions,
  type FakeAccount,
  type FakeAccountLink,
  type FakeAccountLinkRecord,
  type FakeChargeRecord,
  type FakeCheckoutRecord,
  type FakeCharge,
  type FakeCheckoutSession,
  type FakeCustomer,
  type FakeDispute,
  type FakeEvent,
  type FakeInvoice,
  type FakeInvoicePayment,
  type FakePaymentIntent,
  type FakeProduct,
  type FakeRefundRecord,
  type FakeStripeObject,
  type FakeSubscription,
  type Metadata,
} from './fake-stripe-objects';

export * from './fake-stripe-objects';

/**
 * A small fake Stripe API for tests (CONVENTIONS 5: local fake HTTP servers for outside services).
 * The real `stripe` SDK talks to it through `apiBase` (host, port, protocol 'http'), form-encoded as
 * the SDK sends, and gets JSON shaped like Stripe's objects (./fake-stripe-objects.ts).
 *
 *   const stripe = await startFakeStripe();
 *   const provider = createStripeProvider({ secretKey: 'sk_test_x', publishableKey: null, webhookSecret, apiBase: stripe.apiBase });
 *   stripe.succeedPaymentIntent(created.paymentIntentId);           // the browser "paid"
 *   const { body, signature } = signedWebhook(invoicePaidEvent(stripe.advanceSubscription(subId)), webhookSecret);
 *   await stripe.close();
 *
 * Subscriptions (the platform's own billing): POST/GET /v1/customers[/:id], /v1/products[/:id],
 * /v1/payment_intents[/:id]; POST /v1/subscriptions (items[].price_data, payment_behavior
 * default_incomplete: an open first invoice with a PaymentIntent, status 'incomplete'),
 * GET/POST/DELETE /v1/subscriptions/:id (update: cancel_at_period_end, metadata, items[0]
 * price_data with proration_behavior none or always_invoice: see changePrice), GET /v1/invoices/:id,
 * GET /v1/invoice_payments (filters invoice, payment[payment_intent]).
 *
 * Connect (customers' card payments, direct charges with Checkout):
 * - POST /v1/accounts (`type`, or `controller[...]` for type 'none'; country, email, business_type,
 *   business_profile, capabilities[x][requested], metadata), GET /v1/accounts[/:id]: a new account
 *   owes requirements and cannot take charges until `completeOnboarding(id)`.
 * - POST /v1/account_links (account, refresh_url, return_url, type account_onboarding or
 *   account_update, collection_options): url `${apiBase}/setup/e/acct_…/…`, expiring in 300 s; every
 *   link is kept in state.accountLinks with what it was made with.
 * - POST /v1/checkout/sessions (mode payment, line_items[].price_data + quantity,
 *   payment_intent_data[application_fee_amount|description|metadata], metadata, success_url,
 *   cancel_url, customer_email, client_reference_id, expires_at), GET /v1/checkout/sessions/:id: url
 *   `${apiBase}/c/pay/cs_test_…`. `completeCheckout(id)` is the customer paying: a succeeded
 *   PaymentIntent with a charge on the session's account; `expireCheckout(id)` lets it lapse.
 * - POST /v1/refunds (payment_intent or charge, amount (default: what is left), reason, metadata,
 *   refund_application_fee), GET /v1/refunds/:id, GET /v1/refunds (charge, payment_intent, limit;
 *   newest first, the request's account only): amount_too_large beyond what is left,
 *   charge_already_refunded when nothing is. `refundCharge(id)` is a refund made in the business's
 *   Stripe dashboard; `chargeRefundedEvent(id)` the charge.refunded that follows (without the
 *   refunds list, as Stripe sends it since 2022-11-15, unless `withRefunds`).
 * - Disputes: `openDispute(chargeId)` (needs_response, evidence due in 7 days), `closeDispute(id,
 *   'won' | 'lost')`, `disputeEvent(id, 'created' | 'closed')` on the charge's account.
 * - The `Stripe-Account` header (the SDK's `stripeAccount` request option) is kept on each request
 *   (`stripeAccount`). Objects made with it live on that account (state.accountOf): like Stripe, a
 *   request with another header, or none, gets resource_missing for them; and application_fee_amount
 *   is refused without one. Subscriptions are the platform's only.
 * Events: the builders in ./fake-stripe-objects.ts (stripeEvent with `account` and `livemode`,
 * checkoutCompletedEvent, checkoutAsyncSucceededEvent, accountUpdatedEvent), or this object's
 * checkoutCompletedEvent(sessionId) / checkoutAsyncSucceededEvent(sessionId) /
 * accountUpdatedEvent(accountId), which read the object and its account from the state.
 *
 * `expand[]` works on every answer. Unknown ids get resource_missing (404 in the URL, 400 as a
 * parameter). With `secretKey` set, another key gets 401, and (unlike Stripe, which masks it) the
 * message repeats the key in full, so a test can prove the provider never passes it on. `now` sets
 * the fake's clock (created, periods, expiries) for tests with one. Nothing is sent on its own:
 * tests build events with the builders and sign them with signedWebhook.
 */
export interface FakeStripeState {
  customers: Map<string, FakeCustomer>;
  products: Map<string, FakeProduct>;
  paymentIntents: Map<string, FakePaymentIntent>;
  subscriptions: Map<string, FakeSubscription>;
  invoices: Map<string, FakeInvoice>;
  invoicePayments: Map<string, FakeInvoicePayment>;
  accounts: Map<string, FakeAccount>;
  /** Every account link made, oldest first (a link has no id). */
  accountLinks: FakeAccountLinkRecord[];
  checkoutSessions: Map<string, FakeCheckoutRecord>;
  /** Charges made when a PaymentIntent succeeds, by id, with what has been refunded of each. */
  charges: Map<string, FakeChargeRecord>;
  refunds: Map<string, FakeRefundRecord>;
  disputes: Map<string, FakeDispute>;
  /** The connected account of every object made on one (by id); an id not here is the platform's. */
  accountOf: Map<string, string>;
}

export interface FakeStripeRequest {
  method: string;
  /** e.g. /v1/payment_intents/pi_123, without the query. */
  path: string;
  /** The form body (POST) or query (GET, DELETE), decoded into nested objects and arrays. */
  params: Record<string, unknown>;
  apiKey: string | null;
  stripeVersion: string | null;
  idempotencyKey: string | null;
  /** The Stripe-Account header: the connected account the request acts on, null for the platform. */
  stripeAccount: string | null;
}

export interface FakeStripeError {
  status: number;
  type?: string;
  code?: string;
  param?: string;
  message?: string;
}

export interface FakeStripe {
  /** http://127.0.0.1:PORT, for STRIPE_API_BASE / createStripeProvider({ apiBase }). */
  apiBase: string;
  /** Same as apiBase. */
  url: string;
  state: FakeStripeState;
  /** Every request, oldest first (`requests.length = 0` clears it). */
  requests: FakeStripeRequest[];
  /** The customer paid: the PaymentIntent succeeds (with a charge), and with it its invoice and subscription. */
  succeedPaymentIntent(id: string): FakePaymentIntent;
  /** Changes a PaymentIntent as a test needs (a wrong amount, another customer, a status). */
  setPaymentIntent(id: string, patch: Partial<FakePaymentIntent>): FakePaymentIntent;
  /** The subscription's latest invoice. */
  latestInvoice(subscriptionId: string): FakeInvoice;
  /** Starts the next month: a new invoice, paid (default) or failed (subscription past_due). */
  advanceSubscription(id: string, options?: { outcome?: 'paid' | 'failed' }): FakeInvoice;
  /** The next charge of a saved card (a plan change's proration) is declined. */
  declineNextCharge(): void;
  /** The subscription ends now (status canceled), as when Stripe ends it at the period end. */
  cancelSubscription(id: string): FakeSubscription;
  /** The business finished Stripe's onboarding: details submitted, charges and payouts enabled, nothing owed, capabilities active. */
  completeOnboarding(accountId: string): FakeAccount;
  /**
   * The customer paid on Checkout: a succeeded PaymentIntent (with a charge) on the session's
   * account, carrying payment_intent_data's metadata, description and application fee; the session
   * complete and paid. `amount` (default amount_total) is what was paid, and becomes the session's
   * amount_total too, as Stripe's session always shows what the customer paid.
   */
  completeCheckout(sessionId: string, options?: { amount?: number }): FakeCheckoutSession;
  /** The session lapsed unpaid (status expired). */
  expireCheckout(sessionId: string): FakeCheckoutSession;
  /** checkout.session.completed for the session as it is now, on its own account unless `account` says otherwise (null: none). */
  checkoutCompletedEvent(sessionId: string, options?: ConnectEventOptions): FakeEvent<FakeCheckoutSession>;
  /** checkout.session.async_payment_succeeded, like checkoutCompletedEvent. */
  checkoutAsyncSucceededEvent(sessionId: string, options?: ConnectEventOptions): FakeEvent<FakeCheckoutSession>;
  /** account.updated for the account as it is now, on that account. */
  accountUpdatedEvent(accountId: string, options?: Omit<ConnectEventOptions, 'account'> & { previousAttributes?: Partial<FakeAccount> }): FakeEvent<FakeAccount>;
  /** The charge a succeeded PaymentIntent made. */
  chargeOf(paymentIntentId: string): FakeChargeRecord;
  /** A refund made outside the app (the business's Stripe dashboard): `amount` (default what is left) of the charge, on its account. */
  refundCharge(chargeId: string, options?: { amount?: number; reason?: string }): FakeRefundRecord['refund'];
  /** charge.refunded for the charge as it is now, on its account; `withRefunds` puts its refunds in, as an older API version did. */
  chargeRefundedEvent(chargeId: string, options?: ConnectEventOptions & { withRefunds?: boolean }): FakeEvent<FakeCharge>;
  /** The cardholder's bank disputes the charge (all of it unless `amount`): needs_response, evidence due in 7 days unless `dueBy`. */
  openDispute(chargeId: string, options?: { amount?: number; reason?: string; dueBy?: number }): FakeDispute;
  /** The dispute is decided. */
  closeDispute(disputeId: string, status: 'won' | 'lost' | 'warning_closed'): FakeDispute;
  /** charge.dispute.created / charge.dispute.closed for the dispute as it is now, on its charge's account. */
  disputeEvent(disputeId: string, phase: 'created' | 'closed', options?: ConnectEventOptions): FakeEvent<FakeDispute>;
  /**
   * The next request is answered with this error (and Stripe-Should-Retry: false); with
   * `path`, the next request whose path matches (e.g. /^\/v1\/subscriptions\//, to fail a
   * later read while the earlier ones succeed).
   */
  failNextRequest(error: FakeStripeError, options?: { path?: RegExp }): void;
  /**
   * The next request whose path matches is done (a refund made) but its answer waits until
   * `release()`: `done` settles once it is done, so a test can land an event in between.
   */
  holdNextAnswer(path: RegExp): { done: Promise<void>; release(): void };
  close(): Promise<void>;
}

type Params = Record<string, unknown>;

export async function startFakeStripe(options: { secretKey?: string; now?: () => Date } = {}): Promise<FakeStripe> {
  const now = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const state: FakeStripeState = {
    customers: new Map(),
    products: new Map(),
    paymentIntents: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    invoicePayments: new Map(),
    accounts: new Map(),
    accountLinks: [],
    checkoutSessions: new Map(),
    charges: new Map(),
    refunds: new Map(),
    disputes: new Map(),
    accountOf: new Map(),
  };
  const requests: FakeStripeRequest[] = [];
  let held: { path: RegExp; reached: () => void; gate: Promise<void> } | null = null;
  let nextError: FakeStripeError | null = null;
  let nextErrorPath: RegExp | null = null;
  let declineCharges = 0;
  const maps: Map<string, FakeStripeObject>[] = [
    state.customers, state.products, state.paymentIntents, state.subscriptions, state.invoices, state.invoicePayments, state.accounts,
  ];
  const lookup = (id: string) => {
    const charge = state.charges.get(id);
    return maps.find((m) => m.has(id))?.get(id) ?? (charge ? chargeObject(charge, false) : undefined);
  };
  const ownerOf = (id: string) => state.accountOf.get(id) ?? null;
  /** The object now lives on that connected account (none: the platform's). */
  const own = (id: string, account: string | null) => void (account && state.accountOf.set(id, account));
  /**
   * The object, else Stripe's resource_missing: 404 for the URL's id, 400 for an id given as a
   * parameter. With `account` (the request's Stripe-Account, null for none), an object of another
   * account is missing too, as Stripe scopes objects to their account.
   */
  function get<T>(map: Map<string, T>, kind: string, id: string, status = 404, account?: string | null): T {
    const found = map.get(id);
    if (!found || (account !== undefined && ownerOf(id) !== account)) {
      throw { status, code: 'resource_missing', message: `No such ${kind}: '${id}'`, ...(status === 400 ? { param: kind } : {}) } satisfies FakeStripeError;
    }
    return found;
  }

  function newPaymentIntent(
    amount: number, currency: string, customer: string | null, metadata: Metadata, automatic: boolean,
    extra: { account?: string | null; description?: string | null; applicationFeeAmount?: number | null } = {},
  ): FakePaymentIntent {
    const intent = buildPaymentIntent({ amount, currency, customer, metadata, automatic, created: now(), ...extra });
    state.paymentIntents.set(intent.id, intent);
    own(intent.id, extra.account ?? null);
    return intent;
  }

  /** The subscription's next invoice with its default PaymentIntent, as Stripe finalizes it. */
  function newInvoice(sub: FakeSubscription, billingReason: string): FakeInvoice {
    const invoice = buildInvoice(sub, billingReason, now());
    state.invoices.set(invoice.id, invoice);
    // Stripe does not copy subscription metadata onto the invoice's PaymentIntent.
    const intent = newPaymentIntent(invoice.amount_due, invoice.currency, sub.customer, {}, false);
    const payment = buildInvoicePayment(invoice, intent.id, now());
    state.invoicePayments.set(payment.id, payment);
    sub.latest_invoice = invoice.id;
    return invoice;
  }

  function succeedPaymentIntent(id: string): FakePaymentIntent {
    const intent = get(state.paymentIntents, 'payment_intent', id);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, payment_method: intent.payment_method ?? fakeId('pm') });
    if (!intent.latest_charge) {
      const charge: FakeChargeRecord = {
        id: fakeId('ch'), payment_intent: id, amount: intent.amount, amount_refunded: 0, currency: intent.currency,
        application_fee_amount: intent.application_fee_amount, account: ownerOf(id),
        payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, funding: 'credit' } },
      };
      state.charges.set(charge.id, charge);
      own(charge.id, charge.account);
      intent.latest_charge = charge.id;
    }
    const payment = [...state.invoicePayments.values()].find((p) => p.payment.payment_intent === id);
    const invoice = payment && state.invoices.get(payment.invoice);
    if (payment && invoice) {
      Object.assign(payment, { status: 'paid', amount_paid: intent.amount, status_transitions: { canceled_at: null, paid_at: now() } });
      Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, amount_remaining: 0, attempted: true, attempt_count: invoice.attempt_count + 1 });
      invoice.status_transitions.paid_at = now();
      const sub = state.subscriptions.get(invoice.parent.subscription_details.subscription);
      if (sub && sub.status !== 'canceled') Object.assign(sub, { status: 'active', default_payment_method: intent.payment_method });
    }
    return intent;
  }

  /** Each route gets the URL's id, the params, and the request's Stripe-Account header (null: the platform). */
  const routes: Record<string, (id: string | undefined, p: Params, account: string | null) => unknown> = {
    'POST customers': (_id, p, account) => {
      const customer: FakeCustomer = { id: fakeId('cus'), object: 'customer', created: now(), livemode: false, email: str(p.email), name: str(p.name), metadata: meta(p.metadata) };
      state.customers.set(customer.id, customer);
      own(customer.id, account);
      return customer;
    },
    'GET customers': (id, _p, account) => get(state.customers, 'customer', id!, 404, account),
    'POST products': (_id, p, account) => {
      const id = str(p.id) ?? fakeId('prod');
      if (state.products.has(id)) throw { status: 400, code: 'resource_already_exists', message: 'Product already exists.' } satisfies FakeStripeError;
      const product: FakeProduct = { id, object: 'product', created: now(), livemode: false, active: true, name: str(p.name) ?? id, metadata: meta(p.metadata) };
      state.products.set(id, product);
      own(id, account);
      return product;
    },
    'GET products': (id, _p, account) => get(state.products, 'product', id!, 404, account),
    'POST payment_intents': (_id, p, account) => {
      const amount = Number(p.amount);
      if (!Number.isInteger(amount) || amount < 1 || !str(p.currency)) throw { status: 400, code: 'parameter_missing', message: 'amount and currency are required' };
      const customer = str(p.customer);
      if (customer) get(state.customers, 'customer', customer, 400, account);
      const applicationFeeAmount = applicationFee(p.application_fee_amount, 'application_fee_amount', amount, str(p.currency)!, account);
      const automatic = str(rec(p.automatic_payment_methods).enabled) === 'true';
      return newPaymentIntent(amount, str(p.currency)!, customer, meta(p.metadata), automatic, { account, description: str(p.description), applicationFeeAmount });
    },
    'GET payment_intents': (id, _p, account) => get(state.paymentIntents, 'payment_intent', id!, 404, account),
    'POST subscriptions': (id, p, account) => {
      platformOnly(account, 'subscriptions');
      return id ? updateSubscription(id, p) : createSubscription(p);
    },
    'GET subscriptions': (id, _p, account) => get(state.subscriptions, 'subscription', id!, 404, account),
    'DELETE subscriptions': (id, _p, account) => cancelSubscription(get(state.subscriptions, 'subscription', id!, 404, account).id),
    'GET invoices': (id, _p, account) => get(state.invoices, 'invoice', id!, 404, account),
    'GET invoice_payments': (_id, p, account) => {
      const byIntent = str(rec(p.payment).payment_intent);
      const data = [...state.invoicePayments.values()]
        .filter((ip) => ownerOf(ip.id) === account)
        .filter((ip) => (!str(p.invoice) || ip.invoice === p.invoice) && (!byIntent || ip.payment.payment_intent === byIntent))
        .reverse();
      return fakeList(data.slice(0, Number(p.limit ?? 10)), '/v1/invoice_payments');
    },
    'POST accounts': (id, p) => {
      if (id) throw unsupported('account updates (use completeOnboarding)');
      return createAccount(p);
    },
    'GET accounts': (id, _p, account) => {
      if (!id) return fakeList([...state.accounts.values()].reverse(), '/v1/accounts');
      // A connected account may read itself; the platform may read any of its accounts.
      if (account && account !== id) throw { status: 404, code: 'resource_missing', message: `No such account: '${id}'` } satisfies FakeStripeError;
      return get(state.accounts, 'account', id);
    },
    'POST account_links': (_id, p) => createAccountLink(p),
    'POST checkout/sessions': (id, p, account) => {
      if (id) throw unsupported('Checkout Session updates');
      return createCheckoutSession(p, account);
    },
    'GET checkout/sessions': (id, _p, account) => get(state.checkoutSessions, 'checkout.session', id!, 404, account).session,
    'POST refunds': (id, p, account) => {
      if (id) throw unsupported('refund updates');
      return createRefund(p, account);
    },
    'GET refunds': (id, p, account) => {
      if (id) return get(state.refunds, 'refund', id, 404, account).refund;
      // The list, newest first as Stripe answers it, of the request's account, filtered by charge or payment_intent.
      const data = [...state.refunds.values()]
        .filter((record) => record.account === account)
        .map((record) => record.refund)
        .filter((refund) => (!str(p.charge) || refund.charge === p.charge) && (!str(p.payment_intent) || refund.payment_intent === p.payment_intent))
        .reverse();
      return fakeList(data.slice(0, Number(p.limit ?? 10)), '/v1/refunds');
    },
  };

  const ACCOUNT_TYPES = ['standard', 'express', 'custom'];

  function createAccount(p: Params): FakeAccount {
    const type = str(p.type);
    const controller = isRecord(p.controller) ? p.controller : null;
    if (type && !ACCOUNT_TYPES.includes(type)) throw invalid('type', `Invalid type: must be one of ${oneOf(ACCOUNT_TYPES)}`);
    if (type && controller) throw invalid('type', 'You cannot set both `type` and `controller`: the type is derived from the controller properties.');
    const requested = Object.entries(rec(p.capabilities)).filter(([, v]) => str(rec(v).requested) === 'true').map(([name]) => name);
    const profile = Object.fromEntries(Object.entries(rec(p.business_profile)).map(([k, v]) => [k, str(v)]));
    const account = buildAccount({
      type, controller, country: str(p.country), email: str(p.email), businessType: str(p.business_type), businessProfile: profile,
      capabilities: requested.length > 0 ? requested : ['card_payments', 'transfers'], metadata: meta(p.metadata), created: now(),
    });
    state.accounts.set(account.id, account);
    return account;
  }

  function createAccountLink(p: Params): FakeAccountLink {
    for (const param of ['account', 'refresh_url', 'return_url', 'type']) if (!str(p[param])) throw missing(param);
    const type = str(p.type)!;
    if (!['account_onboarding', 'account_update'].includes(type)) throw invalid('type', 'Invalid type: must be one of account_onboarding or account_update');
    const refreshUrl = validUrl(p, 'refresh_url')!;
    const returnUrl = validUrl(p, 'return_url')!;
    const account = get(state.accounts, 'account', str(p.account)!, 400);
    const created = now();
    const link: FakeAccountLink = { object: 'account_link', created, expires_at: created + 300, url: `${apiBase}/setup/e/${account.id}/${fakeId('x').slice(2, 14)}` };
    state.accountLinks.push({
      link, account: account.id, refresh_url: refreshUrl, return_url: returnUrl, type, collection_options: isRecord(p.collection_options) ? p.collection_options : null,
    });
    return link;
  }

  /** A hosted Checkout Session in payment mode, on the request's account (a direct charge) or the platform. */
  function createCheckoutSession(p: Params, account: string | null): FakeCheckoutSession {
    const mode = str(p.mode);
    if (!mode) throw missing('mode');
    if (mode !== 'payment') throw unsupported(`Checkout with mode=${mode} (only mode=payment)`);
    const items = list(p.line_items).map(rec);
    if (items.length === 0) throw missing('line_items');
    let currency: string | null = null;
    let amount = 0;
    items.forEach((item, i) => {
      const priceData = rec(item.price_data);
      if (!isRecord(item.price_data)) throw unsupported('line_items without price_data');
      const itemCurrency = str(priceData.currency)?.toLowerCase();
      if (!itemCurrency) throw missing(`line_items[${i}][price_data][currency]`);
      if (currency && itemCurrency !== currency) throw invalid(`line_items[${i}][price_data][currency]`, 'All line items must use the same currency.');
      const unitAmount = Number(priceData.unit_amount);
      if (!Number.isInteger(unitAmount) || unitAmount < 0) throw invalid(`line_items[${i}][price_data][unit_amount]`, 'Invalid non-negative integer', 'parameter_invalid_integer');
      if (!str(rec(priceData.product_data).name) && !str(priceData.product)) throw missing(`line_items[${i}][price_data][product_data][name]`);
      const quantity = Number(item.quantity);
      if (item.quantity === undefined) throw missing(`line_items[${i}][quantity]`);
      if (!Number.isInteger(quantity) || quantity < 1) throw invalid(`line_items[${i}][quantity]`, 'Invalid positive integer', 'parameter_invalid_integer');
      currency = itemCurrency;
      amount += unitAmount * quantity;
    });
    if (!currency) throw missing('line_items[0][price_data][currency]');
    if (amount <= 0) throw invalid('line_items', `The Checkout Session's total amount due must be more than ${money(0, currency)}.`);
    if (!str(p.success_url)) throw missing('success_url');
    const successUrl = validUrl(p, 'success_url')!;
    const cancelUrl = validUrl(p, 'cancel_url');
    const intentData = rec(p.payment_intent_data);
    const applicationFeeAmount = applicationFee(intentData.application_fee_amount, 'payment_intent_data[application_fee_amount]', amount, currency, account);
    // Stripe wants expires_at 30 minutes to 24 hours ahead; not checked, as a test's clock may not be the fake's.
    const expiresAt = p.expires_at === undefined ? null : Number(p.expires_at);
    if (expiresAt !== null && !Number.isInteger(expiresAt)) throw invalid('expires_at', 'Invalid integer', 'parameter_invalid_integer');
    const session = buildCheckoutSession({
      apiBase, amount, currency, metadata: meta(p.metadata), clientReferenceId: str(p.client_reference_id), customerEmail: str(p.customer_email),
      successUrl, cancelUrl, expiresAt, created: now(),
    });
    state.checkoutSessions.set(session.id, {
      session, account, applicationFeeAmount, paymentIntentData: { description: str(intentData.description), metadata: meta(intentData.metadata) },
    });
    own(session.id, account);
    return session;
  }

  /** An application fee (a whole number of pence), allowed only on a direct charge (a Stripe-Account header) and never above the amount. */
  function applicationFee(value: unknown, param: string, amount: number, currency: string, account: string | null): number | null {
    if (value === undefined || value === '') return null;
    const fee = Number(value);
    if (!Number.isInteger(fee) || fee < 0) throw invalid(param, 'Invalid non-negative integer', 'parameter_invalid_integer');
    if (!account) {
      throw invalid(
        param,
        'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
      );
    }
    if (fee > amount) throw invalid(param, `The application fee (${money(fee, currency)}) cannot be greater than the amount of the payment (${money(amount, currency)}).`);
    return fee;
  }

  const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'];

  /** A refund of a charge, found by its PaymentIntent or id on the request's account: all that is left, or `amount` of it. */
  function createRefund(p: Params, account: string | null): FakeRefundRecord['refund'] {
    const reason = str(p.reason);
    if (reason && !REFUND_REASONS.includes(reason)) throw invalid('reason', `Invalid reason: must be one of ${oneOf(REFUND_REASONS)}`);
    const asked = p.amount === undefined ? null : Number(p.amount);
    if (asked !== null && (!Number.isInteger(asked) || asked < 1)) throw invalid('amount', 'Invalid positive integer', 'parameter_invalid_integer');
    const intentId = str(p.payment_intent);
    const chargeId = str(p.charge);
    if (!intentId && !chargeId) throw missing('payment_intent', 'One of the following params should be provided for this request: payment_intent or charge.');
    let charge: FakeChargeRecord;
    if (intentId) {
      const intent = get(state.paymentIntents, 'payment_intent', intentId, 400, account);
      const latest = intent.status === 'succeeded' && intent.latest_charge ? state.charges.get(intent.latest_charge) : undefined;
      if (!latest) throw invalid('payment_intent', `This PaymentIntent (${intentId}) does not have a successful charge to refund.`);
      if (chargeId && chargeId !== latest.id) throw invalid('charge', `The charge ${chargeId} is not the charge of PaymentIntent ${intentId}.`);
      charge = latest;
    } else {
      charge = get(state.charges, 'charge', chargeId!, 400, account);
    }
    const left = charge.amount - charge.amount_refunded;
    if (left === 0) throw { status: 400, code: 'charge_already_refunded', message: `Charge ${charge.id} has already been refunded.` } satisfies FakeStripeError;
    const amount = asked ?? left;
    if (amount > left) {
      const message = `Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge (${money(left, charge.currency)})`;
      throw { status: 400, code: 'amount_too_large', param: 'amount', message } satisfies FakeStripeError;
    }
    charge.amount_refunded += amount;
    const refund = buildRefund({ amount, charge, reason, metadata: meta(p.metadata), created: now() });
    state.refunds.set(refund.id, { refund, account: charge.account, refundApplicationFee: str(p.refund_application_fee) === 'true' });
    own(refund.id, charge.account);
    return refund;
  }

  function checkoutRecord(sessionId: string): FakeCheckoutRecord {
    return get(state.checkoutSessions, 'checkout.session', sessionId);
  }

  function completeCheckout(sessionId: string, options: { amount?: number } = {}): FakeCheckoutSession {
    const { session, account, applicationFeeAmount, paymentIntentData } = checkoutRecord(sessionId);
    if (session.status !== 'open') throw new Error(`Checkout Session ${sessionId} is ${session.status}: only an open one can be paid`);
    const amount = options.amount ?? session.amount_total;
    const intent = newPaymentIntent(amount, session.currency, null, { ...paymentIntentData.metadata }, false, {
      account, description: paymentIntentData.description, applicationFeeAmount,
    });
    succeedPaymentIntent(intent.id);
    return Object.assign(session, {
      status: 'complete', payment_status: 'paid', payment_intent: intent.id, amount_total: amount, amount_subtotal: amount, url: null,
      customer_details: { address: null, email: session.customer_email, name: null, phone: null, tax_exempt: 'none', tax_ids: [] },
    } satisfies Partial<FakeCheckoutSession>);
  }

  function expireCheckout(sessionId: string): FakeCheckoutSession {
    const { session } = checkoutRecord(sessionId);
    if (session.status !== 'open') throw new Error(`Checkout Session ${sessionId} is ${session.status}: only an open one can expire`);
    return Object.assign(session, { status: 'expired', url: null } satisfies Partial<FakeCheckoutSession>);
  }

  /** The event's account: as asked (null for none), else the session's own. */
  function sessionEventOptions(record: FakeCheckoutRecord, options: ConnectEventOptions): ConnectEventOptions {
    return { ...options, account: options.account === undefined ? record.account : options.account };
  }

  function createSubscription(p: Params): FakeSubscription {
    const customer = get(state.customers, 'customer', str(p.customer) ?? '', 400);
    const priceData = rec(rec(list(p.items)[0]).price_data);
    const product = get(state.products, 'product', str(priceData.product) ?? '', 400);
    const sub = buildSubscription({
      customer: customer.id, product: product.id, currency: str(priceData.currency) ?? 'gbp', unitAmount: Number(priceData.unit_amount),
      interval: str(rec(priceData.recurring).interval) ?? 'month', metadata: meta(p.metadata),
      saveDefaultPaymentMethod: str(rec(p.payment_settings).save_default_payment_method), created: now(),
    });
    state.subscriptions.set(sub.id, sub);
    newInvoice(sub, 'subscription_create');
    return sub;
  }

  function updateSubscription(id: string, p: Params): FakeSubscription {
    const sub = get(state.subscriptions, 'subscription', id);
    const itemUpdate = rec(list(p.items)[0]);
    // A price change first: with error_if_incomplete a failed charge must leave everything else alone.
    if (str(itemUpdate.id)) changePrice(sub, itemUpdate, p);
    if (p.cancel_at_period_end !== undefined) {
      sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
      // Stripe reports the period end as cancel_at once cancel_at_period_end is set.
      sub.cancel_at = sub.cancel_at_period_end ? sub.items.data[0]!.current_period_end : null;
    }
    if (p.metadata !== undefined) sub.metadata = { ...sub.metadata, ...meta(p.metadata) };
    return sub;
  }

  /**
   * items[0][id] with a new price_data: proration_behavior 'none' swaps the price for the next
   * invoice; 'always_invoice' also invoices the proration now and charges the saved payment
   * method, and with payment_behavior error_if_incomplete a declined charge is a 402 card_error
   * that changes nothing (docs.stripe.com/billing/subscriptions/pending-updates).
   */
  function changePrice(sub: FakeSubscription, itemUpdate: Params, p: Params): void {
    const item = sub.items.data.find((i) => i.id === itemUpdate.id);
    if (!item) throw { status: 400, code: 'resource_missing', message: `No such subscription item: '${str(itemUpdate.id)}'` } satisfies FakeStripeError;
    const priceData = rec(itemUpdate.price_data);
    const product = get(state.products, 'product', str(priceData.product) ?? '', 400);
    const price = buildPrice({
      product: product.id, currency: str(priceData.currency) ?? sub.currency, unitAmount: Number(priceData.unit_amount),
      interval: str(rec(priceData.recurring).interval) ?? 'month', created: now(),
    });
    if (str(p.proration_behavior) === 'always_invoice') {
      const at = p.proration_date !== undefined ? Number(p.proration_date) : now();
      const invoice = buildProrationInvoice(sub, item, item.price, price, at);
      const declined = invoice.amount_due > 0 && (declineCharges > 0 || !sub.default_payment_method);
      if (declined && declineCharges > 0) declineCharges -= 1;
      if (declined && str(p.payment_behavior) === 'error_if_incomplete') {
        throw { status: 402, type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } satisfies FakeStripeError;
      }
      if (declined) throw { status: 400, message: 'The fake supports a declined plan change only with payment_behavior=error_if_incomplete' } satisfies FakeStripeError;
      state.invoices.set(invoice.id, invoice);
      sub.latest_invoice = invoice.id;
      item.price = price;
      if (invoice.amount_due > 0) {
        const intent = newPaymentIntent(invoice.amount_due, invoice.currency, sub.customer, {}, false);
        const payment = buildInvoicePayment(invoice, intent.id, now());
        state.invoicePayments.set(payment.id, payment);
        succeedPaymentIntent(intent.id);
      } else {
        Object.assign(invoice, { status: 'paid', status_transitions: { ...invoice.status_transitions, paid_at: now() } });
      }
      return;
    }
    item.price = price;
  }

  function cancelSubscription(id: string): FakeSubscription {
    const sub = get(state.subscriptions, 'subscription', id);
    return Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
  }

  /** Copies an answer, fills the `expand[]` paths, and adds includable invoice fields only when expanded. */
  function render(value: unknown, paths: string[][]): unknown {
    if (Array.isArray(value)) return value.map((v) => render(v, paths));
    if (!isRecord(value)) return value;
    const out: Params = { ...value };
    for (const key of new Set(paths.map((path) => path[0]!))) {
      const rest = paths.filter((path) => path[0] === key && path.length > 1).map((path) => path.slice(1));
      let child = value.object === 'invoice' ? (invoiceIncludable(value.id as string, key) ?? value[key]) : value[key];
      if (typeof child === 'string') child = lookup(child) ?? child;
      out[key] = render(child, rest);
    }
    return structuredClone(out);
  }

  function invoiceIncludable(invoiceId: string, key: string): unknown {
    const payments = [...state.invoicePayments.values()].filter((ip) => ip.invoice === invoiceId);
    if (key === 'payments') return fakeList(payments, `/v1/invoice_payments?invoice=${invoiceId}`);
    if (key !== 'confirmation_secret') return undefined;
    const intent = state.paymentIntents.get(payments.find((ip) => ip.is_default)?.payment.payment_intent ?? '');
    return intent ? { type: 'payment_intent', client_secret: intent.client_secret } : null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readText(req);
    const params = parseForm(req.method === 'POST' ? body : url.search.slice(1));
    const apiKey = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const stripeAccount = header(req, 'stripe-account');
    requests.push({
      method: req.method ?? 'GET', path: url.pathname, params, apiKey,
      stripeVersion: header(req, 'stripe-version'), idempotencyKey: header(req, 'idempotency-key'), stripeAccount,
    });
    try {
      if (nextError && (!nextErrorPath || nextErrorPath.test(url.pathname))) {
        const error = nextError;
        nextError = null;
        nextErrorPath = null;
        throw error;
      }
      if (options.secretKey && apiKey !== options.secretKey) throw { status: 401, message: `Invalid API Key provided: ${apiKey}` };
      // One resource segment, or checkout/sessions; then an optional id.
      const match = /^\/v1\/((?:checkout\/)?[a-z_]+)(?:\/([^/]+))?$/.exec(url.pathname);
      const route = match && routes[`${req.method} ${match[1]}`];
      if (!match || !route) throw { status: 404, message: `Unrecognized request URL (${req.method}: ${url.pathname}).` };
      const answer = route(match[2], params, stripeAccount);
      if (held && held.path.test(url.pathname)) {
        const { reached, gate } = held;
        held = null;
        reached();
        await gate;
      }
      send(res, 200, render(answer, list(params.expand).map((path) => String(path).split('.'))));
    } catch (thrown) {
      if (!isRecord(thrown) || typeof thrown.status !== 'number') throw thrown;
      const { status, type, code, param, message } = thrown as unknown as FakeStripeError;
      const errorType = type ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
      send(res, status, { error: { type: errorType, ...(code ? { code } : {}), ...(param ? { param } : {}), message: message ?? 'Fake Stripe error' } });
    }
  }

  /** A charge as Stripe answers it (in a charge.refunded event, or as an expanded refund's `charge`), without the fake's own bookkeeping. */
  function chargeObject(charge: FakeChargeRecord, withRefunds: boolean): FakeCharge {
    const refunds = [...state.refunds.values()].filter((record) => record.refund.charge === charge.id).map((record) => record.refund).reverse();
    return {
      id: charge.id, object: 'charge', created: now(), livemode: false, amount: charge.amount, amount_refunded: charge.amount_refunded,
      refunded: charge.amount_refunded === charge.amount, status: 'succeeded', currency: charge.currency, payment_intent: charge.payment_intent,
      application_fee_amount: charge.application_fee_amount, payment_method_details: charge.payment_method_details,
      disputed: [...state.disputes.values()].some((dispute) => dispute.charge === charge.id),
      ...(withRefunds ? { refunds: fakeList(refunds, `/v1/charges/${charge.id}/refunds`) } : {}),
    };
  }

  function openDispute(chargeId: string, options: { amount?: number; reason?: string; dueBy?: number } = {}): FakeDispute {
    const charge = get(state.charges, 'charge', chargeId);
    const dispute: FakeDispute = {
      id: fakeId('dp'), object: 'dispute', created: now(), livemode: false, amount: options.amount ?? charge.amount - charge.amount_refunded, currency: charge.currency,
      charge: charge.id, payment_intent: charge.payment_intent, reason: options.reason ?? 'fraudulent', status: 'needs_response',
      evidence_details: { due_by: options.dueBy ?? now() + 7 * 24 * 60 * 60, has_evidence: false, past_due: false, submission_count: 0 },
      is_charge_refundable: false, metadata: {},
    };
    state.disputes.set(dispute.id, dispute);
    own(dispute.id, charge.account);
    return dispute;
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: { type: 'api_error', message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiBase,
    url: apiBase,
    state,
    requests,
    succeedPaymentIntent,
    setPaymentIntent: (id, patch) => Object.assign(get(state.paymentIntents, 'payment_intent', id), patch),
    latestInvoice: (id) => get(state.invoices, 'invoice', get(state.subscriptions, 'subscription', id).latest_invoice ?? ''),
    advanceSubscription(id, { outcome = 'paid' } = {}) {
      const sub = get(state.subscriptions, 'subscription', id);
      const item = sub.items.data[0]!;
      Object.assign(item, { current_period_start: item.current_period_end, current_period_end: addOneMonth(item.current_period_end) });
      const invoice = newInvoice(sub, 'subscription_cycle');
      const payment = [...state.invoicePayments.values()].find((ip) => ip.invoice === invoice.id)!;
      if (outcome === 'paid') succeedPaymentIntent(payment.payment.payment_intent);
      else {
        Object.assign(invoice, { attempted: true, attempt_count: 1 });
        const lastError = { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' };
        Object.assign(get(state.paymentIntents, 'payment_intent', payment.payment.payment_intent), { last_payment_error: lastError });
        sub.status = 'past_due';
      }
      return invoice;
    },
    cancelSubscription,
    completeOnboarding(accountId) {
      const account = get(state.accounts, 'account', accountId);
      const capabilities = Object.fromEntries(Object.keys(account.capabilities).map((name) => [name, 'active' as const]));
      return Object.assign(account, { details_submitted: true, charges_enabled: true, payouts_enabled: true, requirements: accountRequirements([]), capabilities });
    },
    completeCheckout,
    expireCheckout,
    checkoutCompletedEvent(sessionId, options = {}) {
      const record = checkoutRecord(sessionId);
      return checkoutCompletedEvent(record.session, sessionEventOptions(record, options));
    },
    checkoutAsyncSucceededEvent(sessionId, options = {}) {
      const record = checkoutRecord(sessionId);
      return checkoutAsyncSucceededEvent(record.session, sessionEventOptions(record, options));
    },
    accountUpdatedEvent: (accountId, options) => accountUpdatedEvent(get(state.accounts, 'account', accountId), options),
    chargeOf(paymentIntentId) {
      return get(state.charges, 'charge', get(state.paymentIntents, 'payment_intent', paymentIntentId).latest_charge ?? '');
    },
    refundCharge(chargeId, { amount, reason } = {}) {
      const charge = get(state.charges, 'charge', chargeId);
      return createRefund({ charge: chargeId, ...(amount !== undefined ? { amount: String(amount) } : {}), ...(reason ? { reason } : {}) }, charge.account);
    },
    chargeRefundedEvent(chargeId, { withRefunds = false, ...options } = {}) {
      const charge = get(state.charges, 'charge', chargeId);
      return chargeRefundedEvent(chargeObject(charge, withRefunds), { ...options, account: options.account === undefined ? charge.account : options.account });
    },
    openDispute,
    closeDispute(disputeId, status) {
      return Object.assign(get(state.disputes, 'dispute', disputeId), { status, is_charge_refundable: false });
    },
    disputeEvent(disputeId, phase, options = {}) {
      const dispute = get(state.disputes, 'dispute', disputeId);
      const build = phase === 'created' ? disputeCreatedEvent : disputeClosedEvent;
      return build(dispute, { ...options, account: options.account === undefined ? ownerOf(dispute.id) : options.account });
    },
    declineNextCharge() {
      declineCharges += 1;
    },
    holdNextAnswer(path) {
      let reached!: () => void;
      let release!: () => void;
      const done = new Promise<void>((resolve) => (reached = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      held = { path, reached, gate };
      return { done, release };
    },
    failNextRequest(error, { path } = {}) {
      nextError = error;
      nextErrorPath = path ?? null;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Decodes the SDK's form encoding (metadata[userId]=1, items[0][price_data][currency]=gbp, expand[0]=...). */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = (isRecord(node[segment]) ? node[segment] : (node[segment] = {})) as Params;
    });
  }
  return arraysFromIndexes(root) as Params;
}

function arraysFromIndexes(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((k) => [k, arraysFromIndexes(value[k])] as const);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  return Object.fromEntries(entries);
}

const isRecord = (value: unknown): value is Params => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const rec = (value: unknown): Params => (isRecord(value) ? value : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const meta = (value: unknown): Metadata => Object.fromEntries(Object.entries(rec(value)).map(([k, v]) => [k, String(v)]));
const header = (req: IncomingMessage, name: string) => (req.headers[name] as string | undefined) ?? null;
const oneOf = (values: string[]) => `${values.slice(0, -1).join(', ')}, or ${values.at(-1)}`;

/** Stripe's error for a required parameter left out. */
const missing = (param: string, message = `Missing required param: ${param}.`): FakeStripeError => ({ status: 400, code: 'parameter_missing', param, message });
const invalid = (param: string, message: string, code?: string): FakeStripeError => ({ status: 400, param, message, ...(code ? { code } : {}) });
/** Something Stripe does that this fake does not: a 400 that says so, never a silent wrong answer. */
const unsupported = (what: string): FakeStripeError => ({ status: 400, message: `The fake Stripe does not support ${what}` });

function platformOnly(account: string | null, what: string): void {
  if (account) throw unsupported(`${what} on a connected account (a Stripe-Account header)`);
}

/** A URL parameter, checked as Stripe checks it (url_invalid); null when absent. */
function validUrl(p: Params, param: string): string | null {
  const value = str(p[param]);
  if (value === null) return null;
  if (!URL.canParse(value)) throw { status: 400, code: 'url_invalid', param, message: 'Not a valid URL' } satisfies FakeStripeError;
  return value;
}

/** An amount as Stripe words it in messages: £12.50, $3.00, €1.00, else 12.50 XYZ. */
function money(minor: number, currency: string): string {
  const symbol = ({ gbp: '£', usd: '$', eur: '€' } as Record<string, string>)[currency.toLowerCase()];
  const units = (minor / 100).toFixed(2);
  return symbol ? `${symbol}${units}` : `${units} ${currency.toUpperCase()}`;
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  const noRetry = status >= 400 ? { 'stripe-should-retry': 'false' } : {};
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': fakeId('req'), ...noRetry });
  res.end(JSON.stringify(body));
}
