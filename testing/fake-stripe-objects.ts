import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * The objects the fake Stripe server (./fake-stripe.ts) keeps and answers with, shaped like
 * Stripe's for the API version stripe-node pins (Stripe.API_VERSION, 2026-10-28.endive): only the
 * fields our provider and billing read, plus `object`, `livemode` and `created`. Field names follow
 * node_modules/stripe/cjs/resources/{Invoices,InvoicePayments,Subscriptions,SubscriptionItems}.d.ts.
 * Includable fields (invoice.payments, invoice.confirmation_secret) are not stored: the server
 * computes them when a request expands them, as Stripe does.
 */
export type Metadata = Record<string, string>;

export interface FakeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export interface FakeCustomer {
  id: string;
  object: 'customer';
  created: number;
  livemode: false;
  email: string | null;
  name: string | null;
  metadata: Metadata;
}

export interface FakeProduct {
  id: string;
  object: 'product';
  created: number;
  livemode: false;
  active: boolean;
  name: string;
  metadata: Metadata;
}

export interface FakePrice {
  id: string;
  object: 'price';
  created: number;
  livemode: false;
  /** Prices made from inline price_data are inactive, as in Stripe. */
  active: boolean;
  currency: string;
  product: string;
  unit_amount: number;
  type: 'recurring';
  recurring: { interval: string; interval_count: number };
  metadata: Metadata;
}

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  created: number;
  livemode: false;
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  client_secret: string;
  status: string;
  metadata: Metadata;
  automatic_payment_methods: { enabled: boolean } | null;
  payment_method: string | null;
  last_payment_error: { code: string; message: string; type: string } | null;
  canceled_at: number | null;
}

export interface FakeSubscriptionItem {
  id: string;
  object: 'subscription_item';
  created: number;
  /** Since 2025-03-31.basil the billing period lives on the item, not the subscription. */
  current_period_start: number;
  current_period_end: number;
  price: FakePrice;
  quantity: number;
  subscription: string;
  metadata: Metadata;
}

export interface FakeSubscription {
  id: string;
  object: 'subscription';
  created: number;
  livemode: false;
  customer: string;
  status: string;
  currency: string;
  items: FakeList<FakeSubscriptionItem>;
  latest_invoice: string | null;
  metadata: Metadata;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  start_date: number;
  collection_method: 'charge_automatically';
  default_payment_method: string | null;
  payment_settings: { save_default_payment_method: string | null } | null;
}

export interface FakeInvoiceLine {
  id: string;
  object: 'line_item';
  livemode: false;
  amount: number;
  currency: string;
  description: string;
  invoice: string;
  metadata: Metadata;
  period: { start: number; end: number };
  parent: {
    type: 'subscription_item_details';
    invoice_item_details: null;
    subscription_item_details: { subscription: string; subscription_item: string; proration: boolean; invoice_item: null };
  };
  quantity: number;
}

export interface FakeInvoice {
  id: string;
  object: 'invoice';
  created: number;
  livemode: false;
  customer: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  currency: string;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  total: number;
  subtotal: number;
  attempted: boolean;
  attempt_count: number;
  billing_reason: string;
  collection_method: 'charge_automatically';
  /** Since basil: no invoice.subscription; the subscription is here, with a metadata snapshot. */
  parent: {
    type: 'subscription_details';
    quote_details: null;
    subscription_details: { subscription: string; metadata: Metadata };
  };
  lines: FakeList<FakeInvoiceLine>;
  period_start: number;
  period_end: number;
  metadata: Metadata;
  status_transitions: { finalized_at: number | null; paid_at: number | null; voided_at: null; marked_uncollectible_at: null };
}

export interface FakeInvoicePayment {
  id: string;
  object: 'invoice_payment';
  created: number;
  livemode: false;
  amount_paid: number | null;
  amount_requested: number;
  currency: string;
  invoice: string;
  /** The payment Stripe creates when it finalizes the invoice. */
  is_default: boolean;
  payment: { type: 'payment_intent'; payment_intent: string };
  status: 'open' | 'paid' | 'canceled';
  status_transitions: { canceled_at: number | null; paid_at: number | null };
}

export type FakeStripeObject = FakeCustomer | FakeProduct | FakePaymentIntent | FakeSubscription | FakeInvoice | FakeInvoicePayment;

export interface FakeEvent<T = unknown> {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
  data: { object: T; previous_attributes?: Partial<T> };
}

/** Stripe-like ids: a prefix and 24 random characters. */
export function fakeId(prefix: string): string {
  return `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, '0').slice(0, 24)}`;
}

export function fakeList<T>(data: T[], url: string): FakeList<T> {
  return { object: 'list', data, has_more: false, url };
}

/** One calendar month on, clamped to the month's last day, as Stripe bills monthly. */
export function addOneMonth(unixSeconds: number): number {
  const date = new Date(unixSeconds * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return Math.floor(date.getTime() / 1000);
}

export function buildPaymentIntent(input: { amount: number; currency: string; customer: string | null; metadata: Metadata; automatic: boolean; created: number }): FakePaymentIntent {
  const id = fakeId('pi');
  return {
    id, object: 'payment_intent', created: input.created, livemode: false, amount: input.amount, amount_received: 0, currency: input.currency,
    customer: input.customer, client_secret: `${id}_secret_${fakeId('x').slice(2)}`, status: 'requires_payment_method', metadata: input.metadata,
    automatic_payment_methods: input.automatic ? { enabled: true } : null, payment_method: null, last_payment_error: null, canceled_at: null,
  };
}

/** A subscription made with inline price_data: an inactive Price, one item, the first month as its period. */
export function buildSubscription(input: {
  customer: string; product: string; currency: string; unitAmount: number; interval: string; metadata: Metadata; saveDefaultPaymentMethod: string | null; created: number;
}): FakeSubscription {
  const { created } = input;
  const id = fakeId('sub');
  const price: FakePrice = {
    id: fakeId('price'), object: 'price', created, livemode: false, active: false, currency: input.currency, product: input.product,
    unit_amount: input.unitAmount, type: 'recurring', recurring: { interval: input.interval, interval_count: 1 }, metadata: {},
  };
  const item: FakeSubscriptionItem = {
    id: fakeId('si'), object: 'subscription_item', created, current_period_start: created, current_period_end: addOneMonth(created), price, quantity: 1, subscription: id, metadata: {},
  };
  return {
    id, object: 'subscription', created, livemode: false, customer: input.customer, status: 'incomplete', currency: input.currency,
    items: fakeList([item], `/v1/subscription_items?subscription=${id}`), latest_invoice: null, metadata: input.metadata,
    cancel_at: null, cancel_at_period_end: false, canceled_at: null, ended_at: null, start_date: created, collection_method: 'charge_automatically',
    default_payment_method: null, payment_settings: { save_default_payment_method: input.saveDefaultPaymentMethod },
  };
}

/** A finalized (open) invoice for the subscription's current period, with a snapshot of its metadata. */
export function buildInvoice(sub: FakeSubscription, billingReason: string, created: number): FakeInvoice {
  const item = sub.items.data[0]!;
  const amount = item.price.unit_amount * item.quantity;
  const id = fakeId('in');
  const line: FakeInvoiceLine = {
    id: fakeId('il'), object: 'line_item', livemode: false, amount, currency: sub.currency, description: `1 × ${item.price.product}`, invoice: id,
    metadata: { ...sub.metadata }, period: { start: item.current_period_start, end: item.current_period_end }, quantity: item.quantity,
    parent: {
      type: 'subscription_item_details', invoice_item_details: null,
      subscription_item_details: { subscription: sub.id, subscription_item: item.id, proration: false, invoice_item: null },
    },
  };
  return {
    id, object: 'invoice', created, livemode: false, customer: sub.customer, status: 'open', currency: sub.currency,
    amount_due: amount, amount_paid: 0, amount_remaining: amount, total: amount, subtotal: amount, attempted: false, attempt_count: 0,
    billing_reason: billingReason, collection_method: 'charge_automatically',
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
    lines: fakeList([line], `/v1/invoices/${id}/lines`),
    period_start: item.current_period_start, period_end: item.current_period_start, metadata: {},
    status_transitions: { finalized_at: created, paid_at: null, voided_at: null, marked_uncollectible_at: null },
  };
}

/** An inactive Price made from inline price_data, as Stripe makes one for each such item. */
export function buildPrice(input: { product: string; currency: string; unitAmount: number; interval: string; created: number }): FakePrice {
  return {
    id: fakeId('price'), object: 'price', created: input.created, livemode: false, active: false, currency: input.currency, product: input.product,
    unit_amount: input.unitAmount, type: 'recurring', recurring: { interval: input.interval, interval_count: 1 }, metadata: {},
  };
}

/**
 * The invoice of a mid-period price change with proration_behavior=always_invoice
 * (billing_reason subscription_update): a credit line for the unused time on the old price and a
 * charge for the same time on the new one, each rounded to whole pence as Stripe rounds each line.
 */
export function buildProrationInvoice(sub: FakeSubscription, item: FakeSubscriptionItem, oldPrice: FakePrice, newPrice: FakePrice, prorationDate: number): FakeInvoice {
  const start = item.current_period_start;
  const end = item.current_period_end;
  const share = end > start ? Math.min(1, Math.max(0, (end - prorationDate) / (end - start))) : 0;
  const id = fakeId('in');
  const line = (price: FakePrice, sign: 1 | -1, description: string): FakeInvoiceLine => ({
    id: fakeId('il'), object: 'line_item', livemode: false, amount: sign * Math.round(price.unit_amount * item.quantity * share), currency: sub.currency,
    description, invoice: id, metadata: { ...sub.metadata }, period: { start: prorationDate, end }, quantity: item.quantity,
    parent: {
      type: 'subscription_item_details', invoice_item_details: null,
      subscription_item_details: { subscription: sub.id, subscription_item: item.id, proration: true, invoice_item: null },
    },
  });
  const lines = [line(oldPrice, -1, `Unused time on ${oldPrice.product}`), line(newPrice, 1, `Remaining time on ${newPrice.product}`)];
  const total = lines.reduce((sum, l) => sum + l.amount, 0);
  const due = Math.max(0, total);
  return {
    id, object: 'invoice', created: prorationDate, livemode: false, customer: sub.customer, status: 'open', currency: sub.currency,
    amount_due: due, amount_paid: 0, amount_remaining: due, total, subtotal: total, attempted: false, attempt_count: 0,
    billing_reason: 'subscription_update', collection_method: 'charge_automatically',
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } } },
    lines: fakeList(lines, `/v1/invoices/${id}/lines`),
    period_start: prorationDate, period_end: prorationDate, metadata: {},
    status_transitions: { finalized_at: prorationDate, paid_at: null, voided_at: null, marked_uncollectible_at: null },
  };
}

/** The default InvoicePayment Stripe creates on finalization, linking the invoice to its PaymentIntent. */
export function buildInvoicePayment(invoice: FakeInvoice, paymentIntentId: string, created: number): FakeInvoicePayment {
  return {
    id: fakeId('inpay'), object: 'invoice_payment', created, livemode: false, amount_paid: null, amount_requested: invoice.amount_due,
    currency: invoice.currency, invoice: invoice.id, is_default: true, payment: { type: 'payment_intent', payment_intent: paymentIntentId }, status: 'open',
    status_transitions: { canceled_at: null, paid_at: null },
  };
}

/** An event as Stripe would deliver it; the object is copied so later state changes don't leak in. */
export function stripeEvent<T>(type: string, object: T, options: { created?: number; previousAttributes?: Partial<T> } = {}): FakeEvent<T> {
  return {
    id: fakeId('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: structuredClone(object),
      ...(options.previousAttributes ? { previous_attributes: structuredClone(options.previousAttributes) } : {}),
    },
  };
}

export const invoicePaidEvent = (invoice: FakeInvoice, created?: number) => stripeEvent('invoice.paid', invoice, { created });
export const invoicePaymentFailedEvent = (invoice: FakeInvoice, created?: number) => stripeEvent('invoice.payment_failed', invoice, { created });
export const subscriptionUpdatedEvent = (subscription: FakeSubscription, previousAttributes?: Partial<FakeSubscription>, created?: number) =>
  stripeEvent('customer.subscription.updated', subscription, { created, previousAttributes });
export const subscriptionDeletedEvent = (subscription: FakeSubscription, created?: number) => stripeEvent('customer.subscription.deleted', subscription, { created });
export const paymentIntentSucceededEvent = (intent: FakePaymentIntent, created?: number) => stripeEvent('payment_intent.succeeded', intent, { created });

/** The body and Stripe-Signature header of a webhook delivery, signed like Stripe signs them. */
export function signedWebhook(payload: object, secret: string): { body: string; signature: string } {
  const body = JSON.stringify(payload, null, 2);
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
}

/** Delivers an event to the app's webhook route as Stripe does, signed with `secret`. */
export function postWebhook(server: { url: string }, payload: object, secret: string): Promise<Response> {
  const { body, signature } = signedWebhook(payload, secret);
  return fetch(`${server.url}/api/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });
}

/** The PaymentIntent's id inside its client secret (`pi_..._secret_...`). */
export const intentIdOf = (clientSecret: string) => clientSecret.split('_secret_')[0]!;
