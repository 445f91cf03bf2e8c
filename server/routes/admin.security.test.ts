import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ONLY_MESSAGE, adminLogResponseSchema } from '../../core/admin';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { mailSettled, newestOutboxMessage, resetTokenFrom } from '../../testing/mail';

/**
 * docs/product.md, Accounts: only an admin reaches the admin routes (401 signed out,
 * 403 FORBIDDEN for a user, the role read from the database on every request), and the
 * log never holds a password hash, session, token or payment provider id.
 */
let server: TestServer;
let admin: TestClient;
let user: TestClient;
let userName: string;
const ADMIN_PATHS = ['/api/admin/log-accounts', '/api/admin/accounts', '/api/admin/accounts?query=a&page=1'];

beforeAll(async () => {
  server = await startTestServer();
  admin = (await registerClient(server)).client;
  const second = await registerClient(server);
  user = second.client;
  userName = second.account.username;
});
afterAll(() => server.close());

const setRole = (username: string, role: 'user' | 'admin') =>
  server.db.$client.prepare('update users set role = ? where username = ?').run(role, username);

describe('who may use the admin routes', () => {
  it('answers 401 to a visitor who is signed out', async () => {
    for (const path of ADMIN_PATHS) {
      const res = await new TestClient(server).get(path);
      expect(res.status, path).toBe(401);
      expect((await res.json()).code).toBe('UNAUTHORIZED');
    }
  });

  it('answers 403 FORBIDDEN to a signed-in user, and logs nothing for them', async () => {
    const before = server.logs.filter((line) => line.event === 'admin.account').length;
    for (const path of ADMIN_PATHS) {
      const res = await user.get(path);
      expect(res.status, path).toBe(403);
      expect(await res.json()).toEqual({ message: ADMIN_ONLY_MESSAGE, code: 'FORBIDDEN' });
    }
    expect(server.logs.filter((line) => line.event === 'admin.account').length).toBe(before);
  });

  it('follows the role in the database on the next request, without signing in again', async () => {
    setRole(userName, 'admin');
    try {
      expect((await user.get('/api/admin/log-accounts')).status).toBe(200);
    } finally {
      setRole(userName, 'user');
    }
    expect((await user.get('/api/admin/log-accounts')).status).toBe(403);
  });
});

describe('what the admin log writes', () => {
  it('never a password hash, session id or cookie, reset token or payment provider id', async () => {
    // A pending password reset and a Stripe customer, so there is a token and an id to leak.
    expect((await new TestClient(server).post('/api/auth/forgot-password', { email: `${userName}@example.com` })).status).toBe(200);
    await mailSettled(server);
    const resetToken = resetTokenFrom(newestOutboxMessage(server.dataDir));
    server.db.$client
      .prepare("update user_tokens set stripe_customer_id = 'cus_LeakCheck123', stripe_subscription_id = 'sub_LeakCheck456'")
      .run();

    const res = await admin.get('/api/admin/log-accounts');
    expect(adminLogResponseSchema.parse(await res.json()).totalUsers).toBe(2);
    const requestId = res.headers.get('x-request-id');
    const lines = server.logs.filter((line) => line.requestId === requestId && line.event === 'admin.account');
    expect(lines).toHaveLength(2);

    const secrets = [
      ...(server.db.$client.prepare('select password from users').pluck().all() as string[]),
      ...(server.db.$client.prepare('select id from sessions').pluck().all() as string[]),
      ...(server.db.$client.prepare('select token from password_reset_tokens').pluck().all() as string[]),
      ...[...admin.cookies.values(), ...user.cookies.values()].filter((value) => value.length > 8),
      resetToken,
      'cus_LeakCheck123',
      'sub_LeakCheck456',
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    const raw = JSON.stringify(server.logs);
    for (const secret of secrets) expect(raw, 'a secret reached the log').not.toContain(secret);
    // Nor a field that could carry one, under any name.
    for (const line of lines) {
      for (const key of Object.keys(line)) expect(key).not.toMatch(/password|session|cookie|stripe|^token$/i);
    }
    // The table's answer holds no more than the log.
    const table = await (await admin.get('/api/admin/accounts')).text();
    for (const secret of secrets) expect(table).not.toContain(secret);
  });
});

describe('"Trigger Console Log" stays a GET, from our own pages only', () => {
  const accountLines = () => server.logs.filter((line) => line.event === 'admin.account').length;
  const logAccounts = (headers: Record<string, string>) =>
    fetch(`${server.url}/api/admin/log-accounts`, { headers: { cookie: admin.cookieHeader(), ...headers }, redirect: 'manual' });

  it('refuses another site\'s link or form with the admin\'s Lax cookie: 403, and no account reaches the log', async () => {
    const before = accountLines();
    const attacks: Record<string, string>[] = [
      // A link or redirect on another site: a top-level navigation, which a Lax cookie goes with.
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      // A sibling subdomain is another site's page too.
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' },
      // A browser that names the other page's origin.
      { origin: 'https://evil.example' },
      // Our origin in words, but the browser says the request came from another site.
      { origin: server.origin, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of attacks) {
      const res = await logAccounts(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect((await res.json()).code).toBe('FORBIDDEN');
    }
    expect(accountLines()).toBe(before);
  });

  it('answers the dashboard\'s own request and an address the admin typed', async () => {
    const before = accountLines();
    const ours: Record<string, string>[] = [{ 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' }, { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate' }, {}];
    for (const headers of ours) {
      const res = await logAccounts(headers);
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(adminLogResponseSchema.parse(await res.json()).totalUsers).toBe(2);
    }
    expect(accountLines()).toBe(before + 6);
  });
});
