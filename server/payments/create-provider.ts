import type { Clock } from '../clock';
import type { Config } from '../config';
import { createDemoProvider } from './demo-provider';
import { createStripeProvider } from './stripe-provider';
import type { PaymentProvider } from './types';

/**
 * Chosen once at start (docs/payments.md): Stripe when STRIPE_SECRET_KEY is set; otherwise the
 * demo provider outside production; in production without keys, none (the payment
 * routes answer 503 PAYMENTS_NOT_CONFIGURED).
 */
export function createPaymentProvider(config: Config, clock: Clock): PaymentProvider | null {
  const { secretKey, publishableKey, webhookSecret, apiBase } = config.stripe;
  if (secretKey) {
    return createStripeProvider({ secretKey, publishableKey: publishableKey ?? null, webhookSecret: webhookSecret ?? null, apiBase });
  }
  return config.env === 'production' ? null : createDemoProvider(clock);
}
