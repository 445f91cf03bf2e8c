import type { CardProviderKind } from '../../core/card-payments';

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
  /** Verifies the signature over the raw body and parses the event; rejects with WebhookSignatureError. */
  parseEvent(rawBody: string, signature: string | undefined): Promise<CardEvent>;
}
