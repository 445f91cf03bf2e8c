import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESET_INVALID_MESSAGE, RESET_REQUESTED_MESSAGE } from '../../core/accounts';
import { mailSettled, newestOutboxMessage, outboxCount, resetTokenFrom } from '../../testing/mail';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

async function requestReset(email: string): Promise<string> {
  const res = await new TestClient(server).post('/api/auth/forgot-password', { email });
  expect(res.status).toBe(200);
  expect((await res.json()).message).toBe(RESET_REQUESTED_MESSAGE);
  await mailSettled(server);
  return resetTokenFrom(newestOutboxMessage(server.dataDir));
}

const reset = (token: string, password: string) =>
  new TestClient(server).post('/api/auth/reset-password', { token, password, confirmPassword: password });

describe('password reset', () => {
  it('answers the same for an unknown address and sends nothing', async () => {
    const res = await new TestClient(server).post('/api/auth/forgot-password', { email: 'nobody@example.com' });
    expect(res.status).toBe(200);
    expect((await res.json()).message).toBe(RESET_REQUESTED_MESSAGE);
    await mailSettled(server);
    expect(outboxCount(server.dataDir)).toBe(0);
  });

  it('e-mails a link whose token works once, sets the new password, and stores only its hash', async () => {
    const { account } = await registerClient(server);
    const token = await requestReset(account.email);
    const stored = server.db.$client.prepare('select token from password_reset_tokens').all() as { token: string }[];
    expect(stored.map((r) => r.token)).not.toContain(token);

    expect((await reset(token, 'brand new pass')).status).toBe(200);
    const again = await reset(token, 'another pass');
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe(RESET_INVALID_MESSAGE);

    const oldLogin = await new TestClient(server).post('/api/auth/login', { usernameOrEmail: account.username, password: account.password });
    expect(oldLogin.status).toBe(401);
    const newLogin = await new TestClient(server).post('/api/auth/login', { usernameOrEmail: account.username, password: 'brand new pass' });
    expect(newLogin.status).toBe(200);
  });

  it('refuses a token after its hour is up', async () => {
    const { account } = await registerClient(server);
    const token = await requestReset(account.email);
    server.clock.advance(61 * 60 * 1000);
    const res = await reset(token, 'too late pass');
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(RESET_INVALID_MESSAGE);
  });

  it('ends every session of the user', async () => {
    const { client: laptop, account } = await registerClient(server);
    const phone = new TestClient(server);
    await phone.post('/api/auth/login', { usernameOrEmail: account.email, password: account.password });
    expect((await phone.get('/api/auth/me')).status).toBe(200);

    const token = await requestReset(account.email);
    expect((await reset(token, 'fresh password')).status).toBe(200);
    expect((await laptop.get('/api/auth/me')).status).toBe(401);
    expect((await phone.get('/api/auth/me')).status).toBe(401);
  });
});

describe('same-origin check', () => {
  it('refuses a cross-origin POST that carries the session cookie', async () => {
    const { client } = await registerClient(server);
    const byOrigin = await client.post('/api/auth/logout', undefined, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(byOrigin.status).toBe(403);
    expect((await byOrigin.json()).code).toBe('FORBIDDEN');
    const byOriginOnly = await client.request('POST', '/api/auth/logout', undefined, { origin: 'https://evil.example', 'sec-fetch-site': '' });
    expect(byOriginOnly.status).toBe(403);
    // The session survived both attempts.
    expect((await client.get('/api/auth/me')).status).toBe(200);
    expect((await client.post('/api/auth/logout')).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After after repeated failed logins, even with the right password', async () => {
    const { account } = await registerClient(server);
    const attempt = (password: string) => new TestClient(server).post('/api/auth/login', { usernameOrEmail: account.username, password });
    for (let i = 0; i < 5; i++) expect((await attempt(`wrong-${i}`)).status).toBe(401);
    const blocked = await attempt(account.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await blocked.json()).code).toBe('RATE_LIMITED');
  });

  it('limits failed logins per address across accounts', async () => {
    const attempt = (i: number) => new TestClient(server).post('/api/auth/login', { usernameOrEmail: `ghost${i}`, password: 'nope-nope' });
    for (let i = 0; i < 10; i++) expect((await attempt(i)).status).toBe(401);
    const blocked = await attempt(99);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('a remembered cookie does not outlive its session', () => {
  const meWith = (cookie: string) => fetch(`${server.url}/api/auth/me`, { headers: { cookie } });

  it('is refused at once after logout, though its unsealed value is still remembered', async () => {
    const { client } = await registerClient(server);
    const cookie = client.cookieHeader();
    // Twice: the second read comes from the memory of unsealed cookies.
    expect((await meWith(cookie)).status).toBe(200);
    expect((await meWith(cookie)).status).toBe(200);
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    expect((await meWith(cookie)).status).toBe(401);
  });

  it('is refused at once after a password reset', async () => {
    const { client, account } = await registerClient(server);
    const cookie = client.cookieHeader();
    expect((await meWith(cookie)).status).toBe(200);
    expect((await meWith(cookie)).status).toBe(200);
    const token = await requestReset(account.email);
    expect((await reset(token, 'fresh password')).status).toBe(200);
    expect((await meWith(cookie)).status).toBe(401);
  });
});
