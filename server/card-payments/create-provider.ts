import type { Clock } from '../clock';
import type { Config } from '../config';
import { createDemoCardProvider } from './demo-card-provider';
import { createStripeCardProvider } from './stripe-card-provider';
import type { CardPaymentsProvider } from './types';

/**
 * Chosen once at start (docs/payments.md, Customers' card payments), as the billing provider is:
 * - CARD_PAYMENTS=off: none;
 * - Stripe keys and STRIPE_CONNECT_WEBHOOK_SECRET: Connect (the default) or the install's own
 *   account (CARD_PAYMENTS=own);
 * - Stripe keys without that secret: none, since no payment could be confirmed (start logs why);
 * - no keys: the demo outside production, none in production.
 * With none, invoices and quotes show no card button and the card routes answer 503.
 */
export function createCardPaymentsProvider(config: Config, clock: Clock): CardPaymentsProvider | null {
  const { mode, webhookSecret } = config.cardPayments;
  if (mode === 'off') return null;
  const { secretKey, apiBase } = config.stripe;
  if (secretKey) {
    if (!webhookSecret) return null;
    return createStripeCardProvider({ mode: mode ?? 'connect', secretKey, webhookSecret, apiBase });
  }
  return config.env === 'production' ? null : createDemoCardProvider(() => config.publicUrl, () => clock.now());
}

/** Why card payments are off, for the start line; null when they are on or turned off on purpose. */
export function cardPaymentsOffReason(config: Config): string | null {
  if (config.cardPayments.mode === 'off') return null;
  if (config.stripe.secretKey && !config.cardPayments.webhookSecret) return 'card payments off: set STRIPE_CONNECT_WEBHOOK_SECRET (docs/payments.md)';
  if (!config.stripe.secretKey && config.env === 'production') return 'card payments off: no Stripe keys';
  return null;
}
