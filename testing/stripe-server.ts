import { startFakeStripe, type FakeStripe } from './fake-stripe';
import { startTestServer, type TestServer } from './harness';
import type { AppOptions } from '../server/app';

/**
 * The real app configured for Stripe (all three keys) against a fake Stripe on loopback,
 * whose clock is the app's test clock, so subscription periods move when the test moves time.
 * `env` adds to the environment (the card payments' CARD_PAYMENTS, STRIPE_CONNECT_WEBHOOK_SECRET...).
 */
export async function startServerWithFakeStripe(
  keys: { secretKey: string; webhookSecret: string; publishableKey: string },
  env: Record<string, string> = {},
  options: AppOptions = {},
): Promise<{ server: TestServer; stripe: FakeStripe }> {
  const started: { server?: TestServer } = {};
  const stripe = await startFakeStripe({ secretKey: keys.secretKey, now: () => started.server?.clock.now() ?? new Date() });
  const server = (started.server = await startTestServer(
    {
      STRIPE_SECRET_KEY: keys.secretKey,
      STRIPE_PUBLISHABLE_KEY: keys.publishableKey,
      STRIPE_WEBHOOK_SECRET: keys.webhookSecret,
      STRIPE_API_BASE: stripe.apiBase,
      ...env,
    },
    options,
  ));
  return { server, stripe };
}
