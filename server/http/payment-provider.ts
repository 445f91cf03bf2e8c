import type { Context } from 'hono';
import { PaymentProviderError, WebhookSignatureError } from '../payments/types';
import { bodyIdleMs, readBodyText } from './body';
import type { AppEnv } from './context';
import { ApiError } from './errors';

/**
 * What the payment routes share (billing's and the customers' card payments'): a provider's
 * failure answered as the provider's fault, and a Stripe webhook's body read like every public one.
 */

/** Provider errors are the provider's fault, not the user's: a 502 with a safe message. */
export async function viaProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof PaymentProviderError) throw new ApiError('PAYMENT_PROVIDER_ERROR', err.message, { cause: err });
    throw err;
  }
}

/** Stripe's events are a few KB; 1 MB is far more than any. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * A webhook's event: anyone can post to a webhook route, so the raw body is read with a limit and
 * the idle timeout (body.ts) before `parse` checks its signature; a bad one is a 400.
 */
export async function signedWebhookEvent<T>(c: Context<AppEnv>, parse: (raw: string, signature: string | undefined) => Promise<T>): Promise<T> {
  const raw = await readBodyText(c.req.raw, {
    maxBytes: WEBHOOK_BODY_LIMIT,
    idleMs: bodyIdleMs(c),
    tooLarge: () => new ApiError('PAYLOAD_TOO_LARGE', 'Webhook body is too large'),
  });
  try {
    return await parse(raw, c.req.header('stripe-signature'));
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw new ApiError('VALIDATION_ERROR', 'Invalid webhook signature');
    throw err;
  }
}
