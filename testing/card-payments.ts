import { expect } from 'vitest';
import { paymentsSetupSchema } from '../core/card-payments';
import { signedWebhook, type FakeStripe } from './fake-stripe';
import type { TestClient, TestServer } from './harness';
import { invoiceOf } from './invoices';
import { ownerWithProfile, sentLinesJob } from './quote-links';

/**
 * Customers' card payments through the fake Stripe in tests (docs/payments.md, Customers' card
 * payments): a business connected and able to take charges, a deposit paid by card on acceptance
 * and recorded by its signed event, and events delivered to the card payments' webhook as Stripe
 * delivers them.
 */
export const CARD_WEBHOOK_SECRET = 'whsec_card_payments';

/** An event delivered to the card payments' webhook as Stripe does, signed with `secret`. */
export function deliverCardEvent(target: TestServer, payload: object, secret = CARD_WEBHOOK_SECRET): Promise<Response> {
  const { body, signature } = signedWebhook(payload, secret);
  return fetch(`${target.url}/api/card-payments/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });
}

/** The webhook's `outcome`, after checking it answered 200. */
export async function outcomeOf(res: Response): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { outcome: string }).outcome;
}

/** A business with bank details and a 10% deposit on jobs over £100; under Connect, its Stripe account connected and able to take charges. */
export async function cardOwner(server: TestServer, stripe: FakeStripe, connect = true): Promise<{ owner: TestClient; account: string | null }> {
  const { client: owner } = await ownerWithProfile(server);
  const saved = await owner.request('PATCH', '/api/system-settings', {
    bankDetails: { accountName: 'Birch Brothers Ltd', sortCode: '40-11-62', accountNumber: '71234567' },
    depositRule: { percent: 10, overAmount: '100' },
  });
  expect(saved.status).toBe(200);
  if (!connect) return { owner, account: null };
  expect((await owner.post('/api/payments-setup/onboarding', {})).status).toBe(200);
  const account = paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json()).accountId!;
  stripe.completeOnboarding(account);
  // Coming back from Stripe's onboarding: the set-up is read again, and the account takes charges.
  expect(paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json()).chargesEnabled).toBe(true);
  return { owner, account };
}

let customers = 0;
/**
 * A quote of `price` accepted by a new customer and its deposit paid by card: the checkout
 * completed at the fake and its signed event recorded. The deposit invoice's id, the payment's
 * id and the charge it made.
 */
export async function paidDeposit(server: TestServer, stripe: FakeStripe, owner: TestClient, price: string) {
  customers += 1;
  const email = `hazel${customers}@example.com`;
  const { job, token } = await sentLinesJob(server, owner, { name: 'Hazel Customer', email }, [{ description: 'Reduce the beech crown', price }]);
  const res = await fetch(`${server.url}/api/quotes/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ name: 'Hazel Customer', acceptTerms: true }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const { deposit } = (await res.json()) as { deposit: { amount: string; invoiceId: number; payUrl: string } };
  expect(deposit.payUrl).toBeTruthy();
  const record = [...stripe.state.checkoutSessions.values()].find((r) => r.session.url === deposit.payUrl)!;
  const session = stripe.completeCheckout(record.session.id);
  expect(await outcomeOf(await deliverCardEvent(server, stripe.checkoutCompletedEvent(record.session.id)))).toBe('recorded');
  const invoice = await invoiceOf(await owner.get(`/api/invoices/${deposit.invoiceId}`));
  expect(invoice.status).toBe('paid');
  return { job, email, invoiceId: deposit.invoiceId, paymentId: invoice.payments[0]!.id, charge: stripe.chargeOf(session.payment_intent!) };
}
