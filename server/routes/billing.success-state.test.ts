import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTokensResponseSchema } from '../../core/credits';
import { findUserByUsername } from '../accounts/users';
import { ledgerSum } from '../credits/ledger';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/**
 * What the success pages read (/subscribe?success=true and /checkout?success=true show
 * the account's real state): GET /api/user-tokens for an account that paid nothing, one whose
 * subscription is started but unpaid (the page waits), and one that paid.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const tokens = async (client: TestClient) => userTokensResponseSchema.parse(await (await client.get('/api/user-tokens')).json());

describe('the state the success pages read', () => {
  it('shows no plan, no pass and no credits for an account that paid nothing, whatever it reports', async () => {
    const { client, account } = await registerClient(server);
    expect(await tokens(client)).toEqual({
      tokensRemaining: 0,
      tokensTotal: 0,
      subscriptionType: null,
      subscriptionStatus: null,
      lastRefillDate: null,
      nextRefillDate: null,
      cancelAt: null,
      passEndsAt: null,
      unlimited: false,
    });
    // Reporting a payment that never happened changes nothing.
    const fake = await client.post('/api/payment-success', { subscriptionType: 'pro', paymentType: 'monthly', paymentIntentId: 'demo_pi_made_up' });
    expect(fake.status).toBe(400);
    const fakePass = await client.post('/api/payment-success', { paymentType: 'one_time', paymentIntentId: 'demo_pi_made_up' });
    expect(fakePass.status).toBe(400);
    expect(await tokens(client)).toMatchObject({ tokensRemaining: 0, subscriptionStatus: null, unlimited: false });
    expect(ledgerSum(server.db, findUserByUsername(server.db, account.username)!.id)).toBe(0);
  });

  it('reads a started but unpaid subscription as incomplete with no credits (the page waits), then active once paid', async () => {
    const { client } = await registerClient(server);
    const { clientSecret } = await (await client.post('/api/create-subscription', { subscriptionType: 'pro' })).json();
    expect(await tokens(client)).toMatchObject({ subscriptionStatus: 'incomplete', subscriptionType: 'pro', tokensRemaining: 0, nextRefillDate: null });

    const { paymentIntentId } = await (await client.post('/api/demo/confirm-payment', { clientSecret, cardNumber: '4242424242424242' })).json();
    await client.post('/api/payment-success', { subscriptionType: 'pro', paymentType: 'monthly', paymentIntentId });
    const paid = await tokens(client);
    expect(paid).toMatchObject({ subscriptionStatus: 'active', subscriptionType: 'pro', tokensRemaining: 1000, unlimited: false });
    expect(paid.nextRefillDate).not.toBeNull();
  });

  it('reads a pass started but unpaid as no pass', async () => {
    const { client } = await registerClient(server);
    expect((await client.post('/api/create-payment-intent')).status).toBe(200);
    expect(await tokens(client)).toMatchObject({ unlimited: false, passEndsAt: null, tokensRemaining: 0 });
  });
});
