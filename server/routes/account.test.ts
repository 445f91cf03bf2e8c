import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELETED_MESSAGE, DELETE_PASSWORD_WRONG } from '../../core/account-data';
import { userTokens } from '../../db/schema';
import { findUserByUsername } from '../accounts/users';
import { uploadsDir } from '../analysis/store';
import { analyze, grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { intentIdOf, startFakeStripe, type FakeStripe } from '../../testing/fake-stripe';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { logoForm, testLogoPng } from '../../testing/logo';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const rowsFor = (table: string, column: string, id: number) =>
  (server.db.$client.prepare(`select count(*) as n from ${table} where ${column} = ?`).get(id) as { n: number }).n;

describe('Download my data (GET /api/account/export)', () => {
  it('gives the signed-in user a ZIP of their account, analyses with photos, ledger, businesses and leads, and nothing of anyone else', async () => {
    const { client, account } = await registerClient(server, { firstName: 'Hazel' });
    grantTo(server, account.username, 100);
    const first = (await (await analyze(client, { description: 'oak, 14 inch trunk, 35 ft' })).json()) as { analysis: { id: number } };
    await analyze(client, { description: 'birch, 8 inch trunk, 20 ft' });
    const business = await createBusinessFor(client, { name: 'Hazel Trees', allowedOrigins: [] });
    const visit = (await (await visitorAnalyze(server, business.slug)).json()) as { analysis: { id: number }; leadToken: string };
    expect((await visitorLead(server, business.slug, { analysisId: visit.analysis.id, leadToken: visit.leadToken, name: 'Sam Visitor', email: 'sam@example.com', phone: '', message: 'Soon please' })).status).toBe(201);
    expect((await client.upload('/api/system-settings/logo', logoForm(await testLogoPng()))).status).toBe(200);
    const other = await registerClient(server);
    grantTo(server, other.account.username, 10);
    await analyze(other.client, { description: 'a secret sycamore of someone else, 30 inch trunk, 60 ft' });

    const res = await client.get('/api/account/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="treeanalyzer-data-${account.username}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`));
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));

    const names = Object.keys(files);
    expect(names).toEqual(expect.arrayContaining(['README.txt', 'account.json', 'analyses.json', 'ledger.json', 'invoices.json', 'logo.png']));
    const accountJson = JSON.parse(text(files['account.json']!));
    expect(accountJson.user).toMatchObject({ username: account.username, email: account.email, firstName: 'Hazel' });
    // Settings include whether the account shares its job times.
    expect(accountJson.settings).toMatchObject({ hourlyRate: '0.00', shareJobTimes: true });
    expect(accountJson.businesses[0]).toMatchObject({ name: 'Hazel Trees' });
    expect(accountJson.businesses[0].leads[0]).toMatchObject({ name: 'Sam Visitor', email: 'sam@example.com' });

    const analyses = JSON.parse(text(files['analyses.json']!)) as { id: number; photo: string | null }[];
    expect(analyses).toHaveLength(3); // two of the user's own and the visitor's estimate on their site
    for (const a of analyses) {
      const photo = files[a.photo!]!;
      expect([...photo.subarray(0, 2)]).toEqual([0xff, 0xd8]); // a JPEG
    }
    const served = new Uint8Array(await (await client.get(`/api/analysis/${first.analysis.id}/image`)).arrayBuffer());
    expect(files[`photos/analysis-${first.analysis.id}.jpg`]).toEqual(served);

    const ledger = JSON.parse(text(files['ledger.json']!)) as { delta: number }[];
    const balance = server.db.select().from(userTokens).where(eq(userTokens.userId, findUserByUsername(server.db, account.username)!.id)).get()!.tokensRemaining;
    expect(ledger.reduce((sum, row) => sum + row.delta, 0)).toBe(balance);

    // Nothing secret and nothing of the other user.
    const everything = names.filter((n) => n.endsWith('.json')).map((n) => text(files[n]!)).join('\n');
    expect(everything).not.toMatch(/argon2|passwordHash|"password"/);
    expect(everything).not.toContain('secret sycamore');
    expect(everything).not.toContain(other.account.email);
  });

  it('is refused without a session', async () => {
    expect((await new TestClient(server).get('/api/account/export')).status).toBe(401);
  });
});

describe('Delete my account (DELETE /api/account)', () => {
  it('needs the right password, then removes the account, its rows, photos and sessions, and no one else\'s', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 50);
    await analyze(client, { description: 'ash, 10 inch trunk, 25 ft' });
    await createBusinessFor(client, { name: 'Going Away Ltd', allowedOrigins: [] });
    const other = await registerClient(server);
    grantTo(server, other.account.username, 10);
    await analyze(other.client, { description: 'elm, 12 inch trunk, 30 ft' });
    const id = findUserByUsername(server.db, account.username)!.id;
    const photos = (server.db.$client.prepare('select image_path as p from tree_analyses where user_id = ?').all(id) as { p: string }[]).map((r) => r.p);
    expect(photos).toHaveLength(1);

    const wrong = await client.request('DELETE', '/api/account', { password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe(DELETE_PASSWORD_WRONG);
    expect(findUserByUsername(server.db, account.username)).toBeDefined();

    const cookiesBefore = new Map(client.cookies);
    const done = await client.request('DELETE', '/api/account', { password: account.password });
    expect(done.status).toBe(200);
    expect((await done.json()).message).toBe(ACCOUNT_DELETED_MESSAGE);
    expect(done.headers.getSetCookie().some((c) => /^ta_session=;/.test(c) || /^ta_session=.*max-age=0/i.test(c))).toBe(true);

    expect(findUserByUsername(server.db, account.username)).toBeUndefined();
    for (const [table, column] of [['sessions', 'user_id'], ['tree_analyses', 'user_id'], ['credit_ledger', 'user_id'], ['user_tokens', 'user_id'], ['businesses', 'owner_id'], ['system_settings', 'user_id']] as const) {
      expect(rowsFor(table, column, id), table).toBe(0);
    }
    for (const name of photos) expect(existsSync(join(uploadsDir(server.dataDir), name))).toBe(false);
    // The old cookie is dead and the name cannot sign in.
    const stale = new TestClient(server);
    stale.cookies = cookiesBefore;
    expect(cookiesBefore.has('ta_session')).toBe(true);
    expect((await stale.get('/api/auth/me')).status).toBe(401);
    expect((await new TestClient(server).post('/api/auth/login', { usernameOrEmail: account.username, password: account.password })).status).toBe(401);
    // The other user is untouched.
    expect((await other.client.get('/api/auth/me')).status).toBe(200);
    expect((await other.client.get('/api/analyses')).status).toBe(200);
  });

  it('stops guessing after 5 wrong passwords', async () => {
    const { client, account } = await registerClient(server);
    for (let i = 0; i < 5; i += 1) expect((await client.request('DELETE', '/api/account', { password: `guess ${i}` })).status).toBe(400);
    const blocked = await client.request('DELETE', '/api/account', { password: account.password });
    expect(blocked.status).toBe(429);
    expect(findUserByUsername(server.db, account.username)).toBeDefined();
  });
});

describe('Delete my account with a Stripe subscription', () => {
  let stripe: FakeStripe;
  let paid: TestServer;
  beforeAll(async () => {
    stripe = await startFakeStripe({ secretKey: 'sk_test_gdpr', now: () => paid.clock.now() });
    paid = await startTestServer({ STRIPE_SECRET_KEY: 'sk_test_gdpr', STRIPE_PUBLISHABLE_KEY: 'pk_test_gdpr', STRIPE_WEBHOOK_SECRET: 'whsec_gdpr', STRIPE_API_BASE: stripe.apiBase });
  });
  afterAll(async () => {
    await paid.close();
    await stripe.close();
  });

  it('cancels the subscription at Stripe first, and deletes nothing when Stripe cannot be reached', async () => {
    const { client, account } = await registerClient(paid);
    const { clientSecret } = await (await client.post('/api/create-subscription', { subscriptionType: 'lite' })).json();
    const pi = intentIdOf(clientSecret);
    stripe.succeedPaymentIntent(pi);
    expect((await client.post('/api/payment-success', { subscriptionType: 'lite', paymentType: 'monthly', paymentIntentId: pi })).status).toBe(200);
    const subscriptionId = paid.db.select().from(userTokens).where(eq(userTokens.userId, findUserByUsername(paid.db, account.username)!.id)).get()!.stripeSubscriptionId!;

    stripe.failNextRequest({ status: 500, message: 'Stripe is down' }, { path: /^\/v1\/subscriptions\// });
    const failed = await client.request('DELETE', '/api/account', { password: account.password });
    expect(failed.status).toBe(502);
    expect(findUserByUsername(paid.db, account.username)).toBeDefined();
    expect(stripe.state.subscriptions.get(subscriptionId)!.status).toBe('active');

    stripe.requests.length = 0;
    expect((await client.request('DELETE', '/api/account', { password: account.password })).status).toBe(200);
    expect(stripe.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscriptionId}`)).toBe(true);
    expect(stripe.state.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect(findUserByUsername(paid.db, account.username)).toBeUndefined();
  });
});
