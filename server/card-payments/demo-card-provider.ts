import { randomBytes } from 'node:crypto';
import { WebhookSignatureError } from '../payments/types';
import type { CardPaymentsProvider } from './types';

/**
 * The demo card provider (docs/payments.md, Customers' card payments: the demo): the default with
 * no Stripe keys outside production, so a first run shows the whole flow. "Checkout" is a page on
 * this server (`/pay/demo/<session>`, quote-page/demo-checkout.ts) marked as a demo, where one tap
 * pays: that tap records the payment through the same step a Stripe event does (events.ts), so
 * every check after it is the real one. No money moves and no card number is asked.
 * The session id is 256 random bits: the page is reachable only from the invoice that started it.
 */
export const DEMO_SESSION_PREFIX = 'demo_cs_';
/** A demo payment's id (its "PaymentIntent"): no money moved for it. */
export const DEMO_PAYMENT_PREFIX = 'demo_pi_';

/** How long a demo checkout stays open, as Stripe's do here (stripe-card-provider.ts). */
const DEMO_OPEN_MS = 60 * 60 * 1000;

export const demoPayPath = (sessionId: string): string => `/pay/demo/${sessionId}`;

/** `publicUrl` is read at each checkout: a test's server learns its port after the provider is made. */
export function createDemoCardProvider(publicUrl: () => string, now: () => Date): CardPaymentsProvider {
  return {
    kind: 'demo',
    livemode: false,
    createAccount: () => Promise.reject(new Error('The demo needs no account')),
    retrieveAccount: (accountId) => Promise.resolve({ accountId, detailsSubmitted: true, chargesEnabled: true, requirements: [] }),
    onboardingLink: () => Promise.reject(new Error('The demo needs no onboarding')),
    createCheckout() {
      const sessionId = `${DEMO_SESSION_PREFIX}${randomBytes(32).toString('base64url')}`;
      return Promise.resolve({ sessionId, url: `${publicUrl().replace(/\/$/, '')}${demoPayPath(sessionId)}`, expiresAt: new Date(now().getTime() + DEMO_OPEN_MS) });
    },
    // Demo payments are refunded without the provider (refunds.ts): nothing else reaches here.
    refund: () => Promise.reject(new Error('The demo takes no refunds of real payments')),
    // No webhooks, so no charge.refunded to reconcile.
    refundsOfCharge: () => Promise.resolve([]),
    parseEvent: () => Promise.reject(new WebhookSignatureError('The demo card provider takes no webhooks: its payments are recorded on its own page')),
  };
}
