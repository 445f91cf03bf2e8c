import type Stripe from 'stripe';
import { CHARGE_CURRENCY } from '../payments/currency';
import { stripeCaller, verifiedEvent } from '../payments/stripe-provider';
import { PaymentProviderError } from '../payments/types';
import type { AccountState, CardEvent, CardPaymentsProvider, ChargeRefundFact } from './types';

/**
 * Customers' card payments through Stripe (docs/payments.md, Customers' card payments), for the
 * API version stripe-node 23 pins. Two modes of one implementation:
 * - `connect`: each business's own account, created with controller properties (the business
 *   pays Stripe's fees, carries its disputes and losses, and has the full Stripe dashboard),
 *   onboarded by Account Links; every charge a direct charge on that account (Checkout with the
 *   `Stripe-Account` header), with the install's application fee when one is set. Events come to
 *   an endpoint created with `connect: true` and name their `account`.
 * - `own`: the install's own account takes the payments (an install run by one firm); no
 *   accounts, no fee, events with no `account`.
 * Checkout shows its own payment methods (cards, wallets, Pay by Bank where Stripe offers it):
 * no `payment_method_types` is sent, so the account's settings decide.
 */
export interface StripeCardOptions {
  mode: 'connect' | 'own';
  secretKey: string;
  webhookSecret: string;
  apiBase?: string;
  timeoutMs?: number;
}

/** How long a Checkout Session stays open: Stripe's longest is 24 hours; an hour is enough for one payment. */
const CHECKOUT_OPEN_SECONDS = 60 * 60;

export function createStripeCardProvider(options: StripeCardOptions): CardPaymentsProvider {
  const { connect, call } = stripeCaller(options);

  const onAccount = (account: string | null): Stripe.RequestOptions => (account ? { stripeAccount: account } : {});

  return {
    kind: options.mode,
    livemode: /^(sk|rk)_live_/.test(options.secretKey),

    async createAccount({ userId, email, businessName }) {
      if (options.mode !== 'connect') throw new PaymentProviderError('Accounts are only for Stripe Connect');
      const account = await call('Could not create the Stripe account', (stripe) =>
        stripe.accounts.create(
          {
            country: 'GB',
            email,
            business_profile: { name: businessName || undefined },
            // The business's own account: it pays Stripe's fees, carries its losses, uses the full dashboard.
            controller: { fees: { payer: 'account' }, losses: { payments: 'stripe' }, stripe_dashboard: { type: 'full' }, requirement_collection: 'stripe' },
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
            metadata: { userId: String(userId) },
          },
          { idempotencyKey: `account-${userId}` },
        ),
      );
      return account.id;
    },

    async retrieveAccount(accountId) {
      return accountStateOf(await call('Could not read the Stripe account', (stripe) => stripe.accounts.retrieve(accountId)));
    },

    async onboardingLink({ accountId, refreshUrl, returnUrl }) {
      const link = await call('Could not start the Stripe set-up', (stripe) =>
        stripe.accountLinks.create({ account: accountId, refresh_url: refreshUrl, return_url: returnUrl, type: 'account_onboarding' }),
      );
      return link.url;
    },

    async createCheckout(input) {
      const fee = options.mode === 'connect' && input.account && input.applicationFeePence > 0 ? { application_fee_amount: input.applicationFeePence } : {};
      const metadata = { invoiceId: String(input.invoiceId), userId: String(input.userId), amountPence: String(input.amountPence) };
      const session = await call('Could not start the card payment', (stripe) =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [{ quantity: 1, price_data: { currency: CHARGE_CURRENCY, unit_amount: input.amountPence, product_data: { name: input.description } } }],
            payment_intent_data: { ...fee, description: input.description, metadata },
            metadata,
            client_reference_id: String(input.invoiceId),
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
            expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_OPEN_SECONDS,
          },
          { ...onAccount(input.account), idempotencyKey: input.idempotencyKey },
        ),
      );
      if (!session.url) throw new PaymentProviderError('Could not start the card payment: Stripe gave no page to pay on');
      return { sessionId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
    },

    async refund(input) {
      const refund = await call('Could not refund the payment', (stripe) =>
        stripe.refunds.create(
          {
            payment_intent: input.paymentIntentId,
            amount: input.amountPence,
            reason: 'requested_by_customer',
            metadata: { reason: input.reason.slice(0, 500) },
            // A direct charge's fee goes back to the business in proportion, so a refund costs it no fee it kept.
            ...(input.account ? { refund_application_fee: true } : {}),
            // The charge, to tell the customer which card the money goes back to.
            expand: ['charge'],
          },
          { ...onAccount(input.account), idempotencyKey: input.idempotencyKey },
        ),
      );
      const card = typeof refund.charge === 'object' ? refund.charge?.payment_method_details?.card : null;
      return { refundId: refund.id, card: card?.brand && card.last4 ? { brand: card.brand, last4: card.last4 } : null };
    },

    async refundsOfCharge({ account, chargeId }) {
      // At most 100 refunds of one charge: Stripe's page size, more than any invoice's payment has.
      const list = await call('Could not read the refunds', (stripe) => stripe.refunds.list({ charge: chargeId, limit: 100 }, onAccount(account)));
      return oldestFirst(list.data);
    },

    async parseEvent(rawBody, signature) {
      const { stripe } = await connect();
      return toCardEvent(verifiedEvent(stripe, rawBody, signature, options.webhookSecret));
    },
  };
}

function accountStateOf(account: Stripe.Account): AccountState {
  return {
    accountId: account.id,
    detailsSubmitted: account.details_submitted === true,
    chargesEnabled: account.charges_enabled === true,
    requirements: account.requirements?.currently_due ?? [],
  };
}

function refundFactOf(refund: Stripe.Refund): ChargeRefundFact {
  return { id: refund.id, amountPence: refund.amount, status: refund.status ?? 'succeeded', stripeReason: refund.reason ?? null, ourReason: refund.metadata?.reason ?? null, created: refund.created };
}

/** Stripe lists refunds newest first; several made in one second keep that order, reversed. */
const oldestFirst = (refunds: Stripe.Refund[]): ChargeRefundFact[] => [...refunds].reverse().map(refundFactOf).sort((a, b) => a.created - b.created);

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

/** The event as card payments read it; anything else is kept by id and ignored. */
export function toCardEvent(event: Stripe.Event): CardEvent {
  const base = { id: event.id, livemode: event.livemode, account: event.account ?? null };
  if ((event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') && event.data.object.payment_status === 'paid') {
    const session = event.data.object;
    const intent = session.payment_intent;
    return {
      ...base,
      kind: 'checkout_paid',
      sessionId: session.id,
      paymentIntentId: typeof intent === 'string' ? intent : (intent?.id ?? null),
      amountPence: session.amount_total ?? 0,
      currency: session.currency ?? '',
      metadata: { ...(session.metadata ?? {}) },
    };
  }
  if (event.type === 'charge.refunded') {
    const charge = event.data.object;
    // The list is whole only when Stripe sent it all; otherwise the refunds are asked for (events.ts).
    const refunds = charge.refunds && !charge.refunds.has_more ? oldestFirst(charge.refunds.data) : null;
    const card = charge.payment_method_details?.card;
    return {
      ...base,
      kind: 'charge_refunded',
      chargeId: charge.id,
      paymentIntentId: idOf(charge.payment_intent),
      amountRefundedPence: charge.amount_refunded,
      refunds,
      card: card?.brand && card.last4 ? { brand: card.brand, last4: card.last4 } : null,
    };
  }
  if (event.type === 'charge.dispute.created' || event.type === 'charge.dispute.closed') {
    const dispute = event.data.object;
    const dueBy = dispute.evidence_details?.due_by;
    return {
      ...base,
      kind: 'dispute',
      phase: event.type === 'charge.dispute.created' ? 'created' : 'closed',
      disputeId: dispute.id,
      chargeId: idOf(dispute.charge) ?? '',
      paymentIntentId: idOf(dispute.payment_intent),
      amountPence: dispute.amount,
      reason: dispute.reason,
      status: dispute.status,
      evidenceDueBy: dueBy ? new Date(dueBy * 1000) : null,
    };
  }
  if (event.type === 'account.updated') return { ...base, kind: 'account_updated', state: accountStateOf(event.data.object) };
  return { ...base, kind: 'ignored', type: event.type };
}
