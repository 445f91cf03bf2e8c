import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/**
 * The objects the fake Stripe server (./fake-stripe.ts) keeps and answers with, shaped like
 * Stripe's for the API version stripe-node pins (Stripe.API_VERSION, 2026-10-28.endive): only the
 * fields our provider and billing read, plus `object`, `livemode` and `created`. Field names follow
 * node_modules/stripe/cjs/resources/{Invoices,InvoicePayments,Subscriptions,SubscriptionItems,Accounts,
 * AccountLinks,Refunds,Checkout/Sessions}.d.ts. What a request said that Stripe's object does not show
 * (a session's account and fee, a link's URLs, a refund's refund_application_fee) is kept beside the
 * object in a *Record.
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
  description: string | null;
  /** Only on a direct charge (a Stripe-Account header): what the platform keeps. */
  application_fee_amount: number | null;
  /** The charge made when it succeeded. */
  latest_charge: string | null;
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

export interface FakeAccountRequirements {
  alternatives: [];
  current_deadline: number | null;
  currently_due: string[];
  disabled_reason: string | null;
  errors: { code: string; reason: string; requirement: string }[];
  eventually_due: string[];
  past_due: string[];
  pending_verification: string[];
}

/** A connected account (Connect), as the platform made it: fields per Accounts.d.ts. */
export interface FakeAccount {
  id: string;
  object: 'account';
  created: number;
  livemode: false;
  /** standard, express or custom when made with `type`; 'none' when made with `controller`. */
  type: string;
  controller: {
    type: 'application';
    is_controller: true;
    fees?: { payer: string };
    losses?: { payments: string };
    requirement_collection?: string;
    stripe_dashboard?: { type: string };
  };
  country: string;
  default_currency: string;
  email: string | null;
  business_type: string | null;
  business_profile: Record<'mcc' | 'name' | 'product_description' | 'support_email' | 'support_phone' | 'support_url' | 'url', string | null>;
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  requirements: FakeAccountRequirements;
  /** Each requested capability: inactive until onboarding is complete, then active. */
  capabilities: Record<string, 'active' | 'inactive' | 'pending'>;
  metadata: Metadata;
  settings: Record<string, never>;
}

export interface FakeAccountLink {
  object: 'account_link';
  created: number;
  expires_at: number;
  url: string;
}

/** An account link as the fake keeps it: the link has no id, and does not show what it was made with. */
export interface FakeAccountLinkRecord {
  link: FakeAccountLink;
  account: string;
  refresh_url: string;
  return_url: string;
  type: string;
  collection_options: Record<string, unknown> | null;
}

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  created: number;
  livemode: false;
  mode: 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  metadata: Metadata;
  client_reference_id: string | null;
  customer: null;
  customer_email: string | null;
  customer_details: { address: null; email: string | null; name: string | null; phone: null; tax_exempt: 'none'; tax_ids: [] } | null;
  success_url: string;
  cancel_url: string | null;
  /** The page to pay on while the session is open; null once it is complete or expired. */
  url: string | null;
  payment_intent: string | null;
  expires_at: number;
}

/** A Checkout Session as the fake keeps it, with what its request said that the object does not show. */
export interface FakeCheckoutRecord {
  session: FakeCheckoutSession;
  /** The Stripe-Account header it was made with (a direct charge on that account); null on the platform itself. */
  account: string | null;
  /** payment_intent_data[application_fee_amount], when given. */
  applicationFeeAmount: number | null;
  /** payment_intent_data's description and metadata: what the PaymentIntent gets when the customer pays. */
  paymentIntentData: { description: string | null; metadata: Metadata };
}

/** What the fake knows of a charge (the fake has no GET /v1/charges): enough for refunds. */
export interface FakeChargeRecord {
  id: string;
  payment_intent: string;
  amount: number;
  amount_refunded: number;
  currency: string;
  application_fee_amount: number | null;
  /** The connected account it was made on; null for the platform's own. */
  account: string | null;
  /** The card it was paid with, as Stripe's Charge describes it (Stripe's test Visa). */
  payment_method_details: { type: 'card'; card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: string } };
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  created: number;
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  status: 'succeeded';
  reason: string | null;
  metadata: Metadata;
}

export interface FakeRefundRecord {
  refund: FakeRefund;
  /** The Stripe-Account header it was made with (the charge's account); null on the platform. */
  account: string | null;
  /** Whether refund_application_fee=true was asked (a direct charge's fee going back in proportion). */
  refundApplicationFee: boolean;
}

/** A charge as an event carries it (charge.refunded): `refunds` only when the test asks for it, as Stripe leaves it out since 2022-11-15. */
export interface FakeCharge {
  id: string;
  object: 'charge';
  created: number;
  livemode: boolean;
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  status: 'succeeded';
  currency: string;
  payment_intent: string;
  application_fee_amount: number | null;
  payment_method_details: FakeChargeRecord['payment_method_details'];
  disputed: boolean;
  refunds?: FakeList<FakeRefund>;
}

/** A dispute (chargeback) of a charge (node_modules/stripe/cjs/resources/Disputes.d.ts). */
export interface FakeDispute {
  id: string;
  object: 'dispute';
  created: number;
  livemode: boolean;
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  reason: string;
  status: 'warning_needs_response' | 'needs_response' | 'under_review' | 'won' | 'lost' | 'warning_closed';
  evidence_details: { due_by: number | null; has_evidence: boolean; past_due: boolean; submission_count: number };
  is_charge_refundable: boolean;
  metadata: Metadata;
}

export type FakeStripeObject = FakeCustomer | FakeProduct | FakePaymentIntent | FakeSubscription | FakeInvoice | FakeInvoicePayment | FakeAccount;

export interface FakeEvent<T = unknown> {
  id: string;
  object: 'event';
  /** The connected account the event happened on (Connect events); absent for the platform's own. */
  account?: string;
  api_version: string;
  created: number;
  livemode: boolean;
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

export function buildPaymentIntent(input: {
  amount: number; currency: string; customer: string | null; metadata: Metadata; automatic: boolean; created: number; description?: string | null; applicationFeeAmount?: number | null;
}): FakePaymentIntent {
  const id = fakeId('pi');
  return {
    id, object: 'payment_intent', created: input.created, livemode: false, amount: input.amount, amount_received: 0, currency: input.currency,
    customer: input.customer, client_secret: `${id}_secret_${fakeId('x').slice(2)}`, status: 'requires_payment_method', metadata: input.metadata,
    automatic_payment_methods: input.automatic ? { enabled: true } : null, payment_method: null, last_payment_error: null, canceled_at: null,
    description: input.description ?? null, application_fee_amount: input.applicationFeeAmount ?? null, latest_charge: null,
  };
}

/** What Stripe fills in for an account made with `type` alone (docs.stripe.com/connect/migrate-to-controller-properties). */
const CONTROLLER_OF_TYPE: Record<string, Omit<FakeAccount['controller'], 'type' | 'is_controller'>> = {
  standard: { fees: { payer: 'account' }, losses: { payments: 'stripe' }, requirement_collection: 'stripe', stripe_dashboard: { type: 'full' } },
  express: { fees: { payer: 'application_express' }, losses: { payments: 'application' }, requirement_collection: 'stripe', stripe_dashboard: { type: 'express' } },
  custom: { fees: { payer: 'application_custom' }, losses: { payments: 'application' }, requirement_collection: 'application', stripe_dashboard: { type: 'none' } },
};

/** What a new account owes before it can take charges: due now, and so past due (hence disabled). */
const NEW_ACCOUNT_DUE = ['business_profile.url', 'external_account', 'representative.first_name'];

export const accountRequirements = (due: string[]): FakeAccountRequirements => ({
  alternatives: [], current_deadline: null, currently_due: [...due], disabled_reason: due.length > 0 ? 'requirements.past_due' : null, errors: [],
  eventually_due: [...due], past_due: [...due], pending_verification: [],
});

const DEFAULT_CURRENCY: Record<string, string> = { GB: 'gbp', US: 'usd', IE: 'eur', FR: 'eur', DE: 'eur', NL: 'eur', ES: 'eur', IT: 'eur' };

/**
 * A new connected account, not yet onboarded: nothing submitted, no charges or payouts, the
 * requested capabilities inactive. Made with `type` (standard, express, custom: the controller
 * Stripe reports for it) or with `controller` properties (type 'none', the controller as given).
 */
export function buildAccount(input: {
  type: string | null; controller: Record<string, unknown> | null; country: string | null; email: string | null; businessType: string | null;
  businessProfile: Partial<FakeAccount['business_profile']>; capabilities: string[]; metadata: Metadata; created: number;
}): FakeAccount {
  const country = (input.country ?? 'GB').toUpperCase();
  return {
    id: fakeId('acct'), object: 'account', created: input.created, livemode: false,
    type: input.controller ? 'none' : (input.type ?? 'standard'),
    controller: { ...(input.controller ?? CONTROLLER_OF_TYPE[input.type ?? 'standard']), type: 'application', is_controller: true },
    country, default_currency: DEFAULT_CURRENCY[country] ?? 'gbp', email: input.email, business_type: input.businessType,
    business_profile: { mcc: null, name: null, product_description: null, support_email: null, support_phone: null, support_url: null, url: null, ...input.businessProfile },
    details_submitted: false, charges_enabled: false, payouts_enabled: false, requirements: accountRequirements(NEW_ACCOUNT_DUE),
    capabilities: Object.fromEntries(input.capabilities.map((name) => [name, 'inactive'])), metadata: input.metadata, settings: {},
  };
}

/** An open Checkout Session (mode payment) for `amount` in `currency`, paid on `url`. */
export function buildCheckoutSession(input: {
  apiBase: string; amount: number; currency: string; metadata: Metadata; clientReferenceId: string | null; customerEmail: string | null;
  successUrl: string; cancelUrl: string | null; expiresAt: number | null; created: number;
}): FakeCheckoutSession {
  const id = fakeId('cs_test');
  return {
    id, object: 'checkout.session', created: input.created, livemode: false, mode: 'payment', status: 'open', payment_status: 'unpaid',
    amount_subtotal: input.amount, amount_total: input.amount, currency: input.currency, metadata: input.metadata,
    client_reference_id: input.clientReferenceId, customer: null, customer_email: input.customerEmail, customer_details: null,
    success_url: input.successUrl, cancel_url: input.cancelUrl, url: `${input.apiBase}/c/pay/${id}`, payment_intent: null,
    expires_at: input.expiresAt ?? input.created + 24 * 60 * 60,
  };
}

export function buildRefund(input: { amount: number; charge: FakeChargeRecord; reason: string | null; metadata: Metadata; created: number }): FakeRefund {
  return {
    id: fakeId('re'), object: 'refund', created: input.created, amount: input.amount, charge: input.charge.id, payment_intent: input.charge.payment_intent,
    currency: input.charge.currency, status: 'succeeded', reason: input.reason, metadata: input.metadata,
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

/**
 * An event as Stripe would deliver it; the object is copied so later state changes don't leak in.
 * `account` names the connected account it happened on, as Connect events do (null or absent: the
 * platform's own); `livemode` marks the event and its object live (default test mode).
 */
export function stripeEvent<T>(
  type: string,
  object: T,
  options: { created?: number; previousAttributes?: Partial<T>; account?: string | null; livemode?: boolean } = {},
): FakeEvent<T> {
  const copy = structuredClone(object);
  const livemode = options.livemode ?? false;
  if (livemode && typeof copy === 'object' && copy !== null && 'livemode' in copy) Object.assign(copy, { livemode });
  return {
    id: fakeId('evt'),
    object: 'event',
    ...(options.account ? { account: options.account } : {}),
    api_version: Stripe.API_VERSION,
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: copy,
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

/** Where a Connect event happened: `account` (none: the platform's own), live or test, when. */
export interface ConnectEventOptions {
  account?: string | null;
  livemode?: boolean;
  created?: number;
}

/** checkout.session.completed; pass the session's account (or use FakeStripe's checkoutCompletedEvent, which knows it). */
export const checkoutCompletedEvent = (session: FakeCheckoutSession, options: ConnectEventOptions = {}) => stripeEvent('checkout.session.completed', session, options);
/** checkout.session.async_payment_succeeded: a delayed payment method (Pay by Bank, Bacs) cleared. */
export const checkoutAsyncSucceededEvent = (session: FakeCheckoutSession, options: ConnectEventOptions = {}) =>
  stripeEvent('checkout.session.async_payment_succeeded', session, options);
/** account.updated, which Stripe sends on the connected account itself: the event's `account` is its id. */
export const accountUpdatedEvent = (account: FakeAccount, options: Omit<ConnectEventOptions, 'account'> & { previousAttributes?: Partial<FakeAccount> } = {}) =>
  stripeEvent('account.updated', account, { ...options, account: account.id });

/** charge.refunded for a charge as it is now (with `refunds` when given), on the charge's account. */
export const chargeRefundedEvent = (charge: FakeCharge, options: ConnectEventOptions = {}) => stripeEvent('charge.refunded', charge, options);
/** charge.dispute.created / charge.dispute.closed for a dispute as it is now. */
export const disputeCreatedEvent = (dispute: FakeDispute, options: ConnectEventOptions = {}) => stripeEvent('charge.dispute.created', dispute, options);
export const disputeClosedEvent = (dispute: FakeDispute, options: ConnectEventOptions = {}) => stripeEvent('charge.dispute.closed', dispute, options);

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
