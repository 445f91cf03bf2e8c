import type { SubscriptionType } from '../../core/credits';

/**
 * Payments behind one interface (a real and a local implementation; docs/payments.md):
 * Stripe when STRIPE_SECRET_KEY is set, else (outside production) the demo provider.
 * The server decides every amount; what a provider reports back is checked before
 * anything is applied (server/payments/billing.ts).
 */
export interface PaymentIntentInfo {
  id: string;
  status: 'succeeded' | 'processing' | 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'canceled' | string;
  /** Integer pence. */
  amount: number;
  currency: string;
  customerId: string | null;
  /** Our metadata: userId (as text), kind ('pass' | 'subscription'), plan. */
  metadata: Record<string, string>;
  /** The subscription this payment pays for, when it is a subscription invoice's payment. */
  subscriptionId: string | null;
}

export interface SubscriptionInfo {
  id: string;
  /** Stripe's statuses: incomplete, active, past_due, canceled, unpaid, ... */
  status: string;
  customerId: string;
  plan: SubscriptionType | null;
  /** Start of the current paid period. */
  currentPeriodStart: Date | null;
  /** End of the current paid period. */
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** When the subscription will end, if cancelled at the period end. */
  cancelAt: Date | null;
}

export interface CreatedPayment {
  /** The client confirms the payment with this (Stripe.js confirmPayment, or the demo form). */
  clientSecret: string;
  paymentIntentId: string;
}

export interface CreatedSubscription extends CreatedPayment {
  subscriptionId: string;
}

/** A verified webhook event, reduced to what billing needs. */
export type BillingEvent =
  | {
      id: string;
      created: Date;
      type: 'invoice.paid';
      subscriptionId: string;
      customerId: string;
      invoiceId: string;
      amountPaid: number;
      currency: string;
      /** 'subscription_create' for the first payment, 'subscription_cycle' for a renewal. */
      billingReason: string | null;
      paymentIntentId: string | null;
      /** Start of the period this invoice pays for (its line's period.start); orders renewals. */
      periodStart: Date | null;
    }
  | { id: string; created: Date; type: 'invoice.payment_failed'; subscriptionId: string; customerId: string; invoiceId: string }
  | { id: string; created: Date; type: 'customer.subscription.updated' | 'customer.subscription.deleted'; subscriptionId: string; customerId: string }
  | { id: string; created: Date; type: 'payment_intent.succeeded'; paymentIntentId: string; customerId: string | null }
  | { id: string; created: Date; type: 'ignored'; stripeType: string };

/**
 * A plan change at the provider. An upgrade is charged now for the rest of the period (the
 * provider's proration); a downgrade changes the price from the next renewal, with no charge
 * or refund now. 'payment_failed': the upgrade's charge did not go through and nothing changed.
 */
export type PlanChangeResult =
  | {
      status: 'changed';
      /** The invoice that charged the upgrade (keys the change once, with its webhook); null for a downgrade or the demo. */
      invoiceId: string | null;
      /** Integer pence charged now. */
      chargedPence: number;
      subscription: SubscriptionInfo;
    }
  | { status: 'payment_failed'; message: string };

export interface PlanChangeInput {
  subscriptionId: string;
  plan: SubscriptionType;
  /** The new plan's monthly price, integer pence (the server decides it). */
  amountPence: number;
  /** true: charge the difference now for the rest of the period (an upgrade); false: from the next renewal. */
  prorate: boolean;
  /** The instant the proration is computed for, so the provider and our credits use the same share. */
  prorationDate: Date;
  /**
   * The current plan's price and our stored period: the demo provider, which keeps no state
   * across a restart, charges from these; Stripe uses its own records.
   */
  fromAmountPence: number;
  storedPeriod: { start: Date; end: Date } | null;
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'demo';
  /** For Stripe.js on the client; null for the demo provider. */
  readonly publishableKey: string | null;
  /** Returns the existing customer id, or creates a customer for the user. */
  ensureCustomer(user: { id: number; email: string; name: string }, existingId: string | null): Promise<string>;
  /** The one-time pass: a PaymentIntent for exactly `amountPence` GBP. */
  createPassPayment(input: { customerId: string; userId: number; amountPence: number }): Promise<CreatedPayment>;
  /** A subscription in the incomplete state whose first invoice payment the client confirms. */
  createSubscription(input: { customerId: string; userId: number; plan: SubscriptionType; amountPence: number }): Promise<CreatedSubscription>;
  retrievePaymentIntent(id: string): Promise<PaymentIntentInfo | null>;
  retrieveSubscription(id: string): Promise<SubscriptionInfo | null>;
  cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionInfo>;
  changePlan(input: PlanChangeInput): Promise<PlanChangeResult>;
  /** Ends the subscription now, with no further charge (account deletion); one already gone is fine. */
  cancelNow(subscriptionId: string): Promise<void>;
  /**
   * Verifies the signature over the raw body and parses the event; rejects on a bad signature.
   * A promise because the Stripe SDK is loaded on first use, which may be this call.
   */
  parseWebhook(rawBody: string, signature: string | undefined): Promise<BillingEvent>;
}

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

export class WebhookSignatureError extends Error {}
