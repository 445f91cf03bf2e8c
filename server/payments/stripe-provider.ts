import type Stripe from 'stripe';
import { CHARGE_CURRENCY } from './currency';
import { PLANS } from '../../core/plans';
import { subscriptionTypeSchema, type SubscriptionType } from '../../core/credits';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type BillingEvent,
  type PaymentIntentInfo,
  type PaymentProvider,
  type SubscriptionInfo,
} from './types';

/**
 * Stripe behind PaymentProvider (docs/payments.md, Stripe), written for the API version
 * stripe-node 23 pins (2026-10-28.endive). Since 2025-03-31.basil:
 * - an Invoice has no `payment_intent`; its client secret is `confirmation_secret` (expand it) and
 *   its PaymentIntents are InvoicePayments (`invoice.payments`, expand it, or GET /v1/invoice_payments);
 * - a PaymentIntent has no `invoice`; the way back is invoice_payments?payment[payment_intent]=pi_...;
 * - an Invoice's subscription is `parent.subscription_details.subscription`;
 * - `current_period_end` lives on subscription items.
 * Stripe does not copy a subscription's metadata onto its invoices' PaymentIntents, but it does
 * snapshot it into `invoice.parent.subscription_details.metadata`; retrievePaymentIntent reads it there.
 *
 * Plans need no dashboard set-up: each subscription carries an inline `price_data` for the amount the
 * server decided, on one Product per plan with a stable id (PLAN_PRODUCT_ID), found or created once
 * per process.
 */
export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string | null;
  webhookSecret: string | null;
  /** e.g. http://127.0.0.1:12111 for stripe-mock or a test's fake server (STRIPE_API_BASE). */
  apiBase?: string;
  /** Defaults to 20 s per request, 1 retry (POSTs carry SDK idempotency keys). */
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

/** Our Product for each plan; Stripe accepts caller-chosen product ids. */
const PLAN_PRODUCT_PREFIX = 'treeanalyzer_plan_';
export const PLAN_PRODUCT_ID = (plan: SubscriptionType) => `${PLAN_PRODUCT_PREFIX}${plan}`;

type StripeSdk = typeof Stripe;
type StripeErrors = StripeSdk['errors'];

let sdk: Promise<StripeSdk> | undefined;

/**
 * stripe-node is loaded on the first payment call, not at start (it is one of the
 * heaviest imports, and most requests never touch it); one import per process, shared.
 */
export function loadStripe(): Promise<StripeSdk> {
  sdk ??= import('stripe').then((module) => module.default);
  return sdk;
}

/**
 * One lazily made client for `secretKey` and `call`, which runs one Stripe call and turns every
 * failure into a PaymentProviderError with our own wording (the key never in it). Billing's
 * provider and the customers' card payments' (server/card-payments/) each hold one.
 */
export function stripeCaller(options: Pick<StripeProviderOptions, 'secretKey' | 'apiBase' | 'timeoutMs' | 'maxNetworkRetries'>) {
  let client: Promise<{ stripe: Stripe; errors: StripeErrors }> | undefined;
  const connect = () =>
    (client ??= loadStripe().then((StripeClient) => ({
      stripe: new StripeClient(options.secretKey, {
        maxNetworkRetries: options.maxNetworkRetries ?? 1,
        timeout: options.timeoutMs ?? 20_000,
        ...(options.apiBase ? hostOf(options.apiBase) : {}),
      }),
      errors: StripeClient.errors,
    })));

  async function call<T>(action: string, run: (stripe: Stripe) => Promise<T>): Promise<T> {
    const { stripe, errors } = await connect();
    try {
      return await run(stripe);
    } catch (error) {
      throw toProviderError(errors, action, error, options.secretKey);
    }
  }
  return { connect, call };
}

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const { connect, call } = stripeCaller(options);
  const products = new Map<SubscriptionType, Promise<string>>();

  /** Null when Stripe answers 404 resource_missing. */
  async function findOrNull<T>(action: string, run: (stripe: Stripe) => Promise<T>): Promise<T | null> {
    const { stripe, errors } = await connect();
    try {
      return await run(stripe);
    } catch (error) {
      if (isMissing(errors, error)) return null;
      throw toProviderError(errors, action, error, options.secretKey);
    }
  }

  function productFor(plan: SubscriptionType): Promise<string> {
    let product = products.get(plan);
    if (!product) {
      product = ensureProduct(plan);
      products.set(plan, product);
      // A failed look-up is not cached: the next subscription tries again.
      product.catch(() => products.delete(plan));
    }
    return product;
  }

  async function ensureProduct(plan: SubscriptionType): Promise<string> {
    const id = PLAN_PRODUCT_ID(plan);
    const found = await findOrNull('Could not prepare the plan', (stripe) => stripe.products.retrieve(id));
    if (found) return found.id;
    const { stripe, errors } = await connect();
    try {
      return (await stripe.products.create({ id, name: `TreeAnalyzer Pro ${PLANS[plan].name}`, metadata: { plan } })).id;
    } catch (error) {
      // Another process created it between our look-up and create.
      if (error instanceof errors.StripeError && error.code === 'resource_already_exists') return id;
      throw toProviderError(errors, 'Could not prepare the plan', error, options.secretKey);
    }
  }

  return {
    kind: 'stripe',
    publishableKey: options.publishableKey,

    async ensureCustomer(user, existingId) {
      if (existingId) return existingId;
      const customer = await call('Could not set up billing', (stripe) =>
        stripe.customers.create({ email: user.email, name: user.name, metadata: { userId: String(user.id) } }),
      );
      return customer.id;
    },

    async createPassPayment({ customerId, userId, amountPence }) {
      const intent = await call('Could not start the payment', (stripe) =>
        stripe.paymentIntents.create({
          amount: amountPence,
          currency: CHARGE_CURRENCY,
          customer: customerId,
          automatic_payment_methods: { enabled: true },
          metadata: { userId: String(userId), kind: 'pass' },
        }),
      );
      if (!intent.client_secret) throw new PaymentProviderError('Could not start the payment: no client secret');
      return { clientSecret: intent.client_secret, paymentIntentId: intent.id };
    },

    async createSubscription({ customerId, userId, plan, amountPence }) {
      const product = await productFor(plan);
      const subscription = await call('Could not start the subscription', (stripe) =>
        stripe.subscriptions.create({
          customer: customerId,
          items: [{ price_data: { currency: CHARGE_CURRENCY, product, unit_amount: amountPence, recurring: { interval: 'month' } } }],
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          metadata: { userId: String(userId), plan },
          expand: ['latest_invoice.confirmation_secret', 'latest_invoice.payments'],
        }),
      );
      const invoice = typeof subscription.latest_invoice === 'object' ? subscription.latest_invoice : null;
      const clientSecret = invoice?.confirmation_secret?.client_secret;
      const paymentIntentId = invoice ? firstPaymentIntentId(invoice) : null;
      if (!clientSecret || !paymentIntentId) {
        // Happens when the first invoice needs no payment (e.g. a customer credit balance covers it).
        throw new PaymentProviderError('Could not start the subscription: its first invoice has no payment to confirm');
      }
      return { clientSecret, paymentIntentId, subscriptionId: subscription.id };
    },

    async retrievePaymentIntent(id) {
      const intent = await findOrNull('Could not check the payment', (stripe) => stripe.paymentIntents.retrieve(id));
      if (!intent) return null;
      const info: PaymentIntentInfo = {
        id: intent.id,
        status: intent.status,
        amount: intent.amount,
        currency: intent.currency,
        customerId: idOf(intent.customer),
        metadata: { ...intent.metadata },
        subscriptionId: null,
      };
      // Our pass PaymentIntents are never invoice payments: skip the second request.
      if (intent.metadata.kind === 'pass') return info;
      const payments = await call('Could not check the payment', (stripe) =>
        stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: intent.id }, expand: ['data.invoice'], limit: 1 }),
      );
      const invoice = payments.data[0]?.invoice;
      const details = typeof invoice === 'object' && !invoice.deleted ? invoice.parent?.subscription_details : null;
      if (details) {
        info.subscriptionId = idOf(details.subscription);
        // The subscription's metadata (userId, plan) as it was when the invoice was finalized.
        info.metadata = { ...(details.metadata ?? {}), kind: 'subscription', ...info.metadata };
      }
      return info;
    },

    async retrieveSubscription(id) {
      const subscription = await findOrNull('Could not check the subscription', (stripe) => stripe.subscriptions.retrieve(id));
      return subscription ? toSubscriptionInfo(subscription) : null;
    },

    async cancelNow(subscriptionId) {
      await findOrNull('Could not cancel the subscription', (stripe) => stripe.subscriptions.cancel(subscriptionId));
    },

    async cancelAtPeriodEnd(subscriptionId) {
      const subscription = await call('Could not cancel the subscription', (stripe) =>
        stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }),
      );
      return toSubscriptionInfo(subscription);
    },

    /**
     * One subscriptions.update on the subscription's single item, with an inline price for the
     * amount the server decided (as createSubscription does). An upgrade uses
     * proration_behavior 'always_invoice' (Stripe invoices the prorated difference at once and
     * charges the saved card, not at the next renewal) with payment_behavior 'error_if_incomplete':
     * when that charge fails Stripe answers 402 and changes nothing, so there is never a plan that
     * was given but not paid. (Stripe's 'pending_if_incomplete' would also work but accepts only a
     * few parameters, not price_data or metadata.) proration_date is our clock's instant, so our
     * credit share and Stripe's charge are computed for the same moment. A downgrade uses
     * proration_behavior 'none': this month stays as paid for and the next invoice has the new price.
     * docs.stripe.com/billing/subscriptions/prorations, .../pending-updates.
     */
    async changePlan({ subscriptionId, plan, amountPence, prorate, prorationDate }) {
      const current = await call('Could not change the plan', (stripe) => stripe.subscriptions.retrieve(subscriptionId));
      const item = current.items.data[0];
      if (!item) throw new PaymentProviderError('Could not change the plan: the subscription has no item');
      const product = await productFor(plan);
      const { stripe, errors } = await connect();
      let updated: Stripe.Subscription;
      try {
        updated = await stripe.subscriptions.update(subscriptionId, {
          items: [{ id: item.id, price_data: { currency: CHARGE_CURRENCY, product, unit_amount: amountPence, recurring: { interval: 'month' } } }],
          proration_behavior: prorate ? 'always_invoice' : 'none',
          ...(prorate ? { payment_behavior: 'error_if_incomplete' as const, proration_date: Math.floor(prorationDate.getTime() / 1000) } : {}),
          metadata: { plan },
          expand: ['latest_invoice'],
        });
      } catch (error) {
        if (error instanceof errors.StripeError && (error.statusCode === 402 || error instanceof errors.StripeCardError)) {
          return { status: 'payment_failed', message: 'The card on file was declined' };
        }
        throw toProviderError(errors, 'Could not change the plan', error, options.secretKey);
      }
      const invoice = typeof updated.latest_invoice === 'object' ? updated.latest_invoice : null;
      const prorationInvoice = prorate && invoice?.billing_reason === 'subscription_update' ? invoice : null;
      return {
        status: 'changed',
        invoiceId: prorationInvoice?.id ?? null,
        chargedPence: prorationInvoice?.amount_paid ?? 0,
        subscription: toSubscriptionInfo(updated),
      };
    },

    async parseWebhook(rawBody, signature) {
      if (!options.webhookSecret) throw new WebhookSignatureError('Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)');
      const { stripe } = await connect();
      return toBillingEvent(verifiedEvent(stripe, rawBody, signature, options.webhookSecret));
    },
  };
}

/** A webhook's event, its signature checked over the raw body with the endpoint's secret (WebhookSignatureError when it fails). */
export function verifiedEvent(stripe: Stripe, rawBody: string, signature: string | undefined, secret: string): Stripe.Event {
  if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
  try {
    return stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    throw new WebhookSignatureError('Invalid Stripe webhook signature');
  }
}

export function hostOf(apiBase: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** Stripe fields that hold either an id or the expanded object. */
function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * The PaymentIntent of a subscription's first invoice: its InvoicePayment (needs
 * `expand: latest_invoice.payments`), else the id inside the confirmation secret ("pi_..._secret_...").
 */
function firstPaymentIntentId(invoice: Stripe.Invoice): string | null {
  const payments = invoice.payments?.data ?? [];
  const payment = payments.find((p) => p.is_default && p.payment.type === 'payment_intent') ?? payments.find((p) => p.payment.type === 'payment_intent');
  const fromPayments = idOf(payment?.payment.payment_intent);
  if (fromPayments) return fromPayments;
  const secret = invoice.confirmation_secret;
  if (secret?.type === 'payment_intent' && secret.client_secret.includes('_secret_')) return secret.client_secret.split('_secret_')[0] ?? null;
  return null;
}

function toSubscriptionInfo(subscription: Stripe.Subscription): SubscriptionInfo {
  // One item per subscription here; with several, the earliest end is when the next invoice comes.
  const ends = subscription.items.data.map((item) => item.current_period_end).filter((end) => typeof end === 'number');
  const currentPeriodEnd = ends.length > 0 ? new Date(Math.min(...ends) * 1000) : null;
  const starts = subscription.items.data.map((item) => item.current_period_start).filter((start) => typeof start === 'number');
  const currentPeriodStart = starts.length > 0 ? new Date(Math.max(...starts) * 1000) : null;
  // The item's product says which plan is billed; the metadata is the older place, kept as a fallback.
  const product = idOf(subscription.items.data[0]?.price.product as string | { id: string } | undefined);
  const fromProduct = product?.startsWith(PLAN_PRODUCT_PREFIX) ? product.slice(PLAN_PRODUCT_PREFIX.length) : undefined;
  const plan = subscriptionTypeSchema.safeParse(fromProduct ?? subscription.metadata?.plan);
  const cancelAt = subscription.cancel_at ? new Date(subscription.cancel_at * 1000) : subscription.cancel_at_period_end ? currentPeriodEnd : null;
  return {
    id: subscription.id,
    status: subscription.status,
    customerId: idOf(subscription.customer) ?? '',
    plan: plan.success ? plan.data : null,
    currentPeriodStart,
    currentPeriodEnd,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    cancelAt,
  };
}

/** The subscription an invoice belongs to; `invoice.subscription` is the pre-basil place, kept for older webhook endpoints. */
function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(legacy);
}

/** Start of the period a subscription invoice pays for: its subscription lines' `period.start`. */
function paidPeriodStart(invoice: Stripe.Invoice): Date | null {
  const lines = invoice.lines?.data ?? [];
  const subscriptionLines = lines.filter((line) => line.parent?.type === 'subscription_item_details');
  const starts = (subscriptionLines.length > 0 ? subscriptionLines : lines).map((line) => line.period?.start).filter((s) => typeof s === 'number');
  return starts.length > 0 ? new Date(Math.min(...starts) * 1000) : null;
}

function toBillingEvent(event: Stripe.Event): BillingEvent {
  const base = { id: event.id, created: new Date(event.created * 1000) };
  const ignored: BillingEvent = { ...base, type: 'ignored', stripeType: event.type };
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscriptionId(invoice);
      const customerId = idOf(invoice.customer);
      if (!subscriptionId || !customerId || !invoice.id) return ignored;
      if (event.type === 'invoice.payment_failed') return { ...base, type: event.type, subscriptionId, customerId, invoiceId: invoice.id };
      return {
        ...base,
        type: 'invoice.paid',
        subscriptionId,
        customerId,
        invoiceId: invoice.id,
        amountPaid: invoice.amount_paid,
        currency: invoice.currency,
        billingReason: invoice.billing_reason ?? null,
        // `payments` is an includable field, so webhook payloads usually carry null here.
        paymentIntentId: invoice.payments ? firstPaymentIntentId(invoice) : null,
        periodStart: paidPeriodStart(invoice),
      };
    }
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const customerId = idOf(subscription.customer);
      if (!customerId) return ignored;
      return { ...base, type: event.type, subscriptionId: subscription.id, customerId };
    }
    case 'payment_intent.succeeded':
      return { ...base, type: 'payment_intent.succeeded', paymentIntentId: event.data.object.id, customerId: idOf(event.data.object.customer) };
    default:
      return ignored;
  }
}

function isMissing(errors: StripeErrors, error: unknown): boolean {
  return error instanceof errors.StripeError && (error.statusCode === 404 || error.code === 'resource_missing');
}

/**
 * Our own user-safe wording: Stripe's messages can name parameters, ids or (masked) keys, so they
 * stay out of the message. The cause keeps what an operator needs to find the request in Stripe's
 * logs (type, code, status, request id), never the key.
 */
export function toProviderError(errors: StripeErrors, action: string, error: unknown, secretKey: string): PaymentProviderError {
  if (!(error instanceof errors.StripeError)) {
    const text = error instanceof Error ? error.message.split(secretKey).join('[redacted]') : 'unknown error';
    return new PaymentProviderError(`${action}: the payment service failed`, { message: text });
  }
  const cause = { type: error.rawType ?? error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId };
  let reason = 'the payment service failed, please try again';
  if (error instanceof errors.StripeConnectionError) reason = 'the payment service could not be reached, please try again';
  else if (error instanceof errors.StripeRateLimitError) reason = 'the payment service is busy, please try again in a moment';
  else if (error instanceof errors.StripeAuthenticationError || error instanceof errors.StripePermissionError) {
    reason = 'payments are not configured correctly on this server';
  } else if (error instanceof errors.StripeCardError) reason = 'the card was declined';
  else if (error instanceof errors.StripeInvalidRequestError) reason = 'the payment service rejected the request';
  return new PaymentProviderError(`${action}: ${reason}`, cause);
}
