import type { CardProviderKind } from '../../core/card-payments';
import type { AppDeps } from '../deps';

/**
 * Customers' card payments behind one interface (docs/payments.md, Customers' card payments),
 * chosen once at start (create-provider.ts): the demo, the install's own Stripe account, or
 * Stripe Connect. The server decides every amount and fee; what a provider reports back is
 * checked against the checkout the server started before anything is recorded (events.ts).
 */

/** What Stripe says of a connected account. */
export interface AccountState {
  accountId: string;
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  /** requirements.currently_due, e.g. ["external_account"]. */
  requirements: string[];
}

export interface CheckoutInput {
  /** The connected account the charge is made on (a direct charge); null for the install's own account or the demo. */
  account: string | null;
  amountPence: number;
  /** The install's share, taken by Stripe from the business's charge; 0 for none (and always for own and the demo). */
  applicationFeePence: number;
  /** What the customer's card statement and Checkout page name: "Invoice INV-0007 from Oak & Ash". */
  description: string;
  invoiceId: number;
  userId: number;
  successUrl: string;
  cancelUrl: string;
  customerEmail: string | null;
  /** The same key for the same checkout asked twice (a double click), so Stripe makes it once. */
  idempotencyKey: string;
}

export interface CheckoutCreated {
  sessionId: string;
  url: string;
  expiresAt: Date;
}

export interface RefundInput {
  account: string | null;
  paymentIntentId: string;
  amountPence: number;
  idempotencyKey: string;
  /** Our refund's reason, kept in the refund's metadata (Stripe's own `reason` is an enum). */
  reason: string;
}

/** A refund of a charge as Stripe reports it (on the charge's refunds, or listed for it). */
export interface ChargeRefundFact {
  id: string;
  amountPence: number;
  /** succeeded, pending, requires_action, failed, canceled: only the first three move money back. */
  status: string;
  /** Stripe's reason ("requested_by_customer", "duplicate", "fraudulent"), if one was given. */
  stripeReason: string | null;
  /** Our own refunds keep their reason in metadata.reason (stripe-card-provider.ts refund). */
  ourReason: string | null;
  created: number;
}

/** A verified event, reduced to what card payments need. */
export type CardEvent =
  | {
      kind: 'checkout_paid';
      id: string;
      livemode: boolean;
      /** The connected account the event is from (Connect events name it); null from the install's own account. */
      account: string | null;
      sessionId: string;
      paymentIntentId: string | null;
      amountPence: number;
      currency: string;
      metadata: Record<string, string>;
    }
  | {
      /** charge.refunded: some or all of a charge went back, from whoever made it (this app, the Stripe dashboard, the API). */
      kind: 'charge_refunded';
      id: string;
      livemode: boolean;
      account: string | null;
      chargeId: string;
      paymentIntentId: string | null;
      /** What has been refunded of the charge so far, all refunds together (Stripe's amount_refunded). */
      amountRefundedPence: number;
      /** The charge's refunds when the event carried the whole list; null when it did not (Stripe leaves it out since API 2022-11-15). */
      refunds: ChargeRefundFact[] | null;
      /** The card the charge was paid with (brand and last 4), for the customer's refund e-mail; null when Stripe does not say. */
      card: { brand: string; last4: string } | null;
    }
  | {
      /** charge.dispute.created or charge.dispute.closed. */
      kind: 'dispute';
      id: string;
      livemode: boolean;
      account: string | null;
      phase: 'created' | 'closed';
      disputeId: string;
      chargeId: string;
      paymentIntentId: string | null;
      amountPence: number;
      reason: string;
      /** Stripe's status: needs_response, under_review, won, lost, warning_closed... */
      status: string;
      evidenceDueBy: Date | null;
    }
  | { kind: 'account_updated'; id: string; livemode: boolean; account: string | null; state: AccountState }
  | { kind: 'ignored'; id: string; livemode: boolean; account: string | null; type: string };

export interface CardPaymentsProvider {
  readonly kind: CardProviderKind;
  /** Whether the key is a live one: events must say the same (a test event under a live key is not a payment). */
  readonly livemode: boolean;
  /** Connect: a new account the business controls (its own Stripe dashboard, it pays Stripe's fees and carries its disputes). */
  createAccount(input: { userId: number; email: string; businessName: string }): Promise<string>;
  retrieveAccount(accountId: string): Promise<AccountState>;
  /** A single-use, short-lived onboarding link (Account Links); the refresh URL mints another. */
  onboardingLink(input: { accountId: string; refreshUrl: string; returnUrl: string }): Promise<string>;
  createCheckout(input: CheckoutInput): Promise<CheckoutCreated>;
  /** `card`: the card the money goes back to, as the charge describes it (brand and last 4), when Stripe says. */
  refund(input: RefundInput): Promise<{ refundId: string; card: { brand: string; last4: string } | null }>;
  /** The refunds of a charge, oldest first (a charge.refunded event that did not carry them). */
  refundsOfCharge(input: { account: string | null; chargeId: string }): Promise<ChargeRefundFact[]>;
  /** Verifies the signature over the raw body and parses the event; rejects with WebhookSignatureError. */
  parseEvent(rawBody: string, signature: string | undefined): Promise<CardEvent>;
}

/** What handling an event needs (events.ts, charge-refunds.ts, disputes.ts). */
export type EventDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'mailer' | 'logger' | 'photos'> & { cardPayments: CardPaymentsProvider | null };

/** What the webhook answers it did with an event (`outcome`). */
export type CardEventOutcome =
  | 'recorded'
  | 'duplicate'
  | 'ignored'
  | 'wrong_mode'
  | 'needs_refund'
  | 'account_updated'
  | 'refund_recorded'
  | 'problem_refunded'
  | 'dispute_opened'
  | 'dispute_won'
  | 'dispute_lost';
