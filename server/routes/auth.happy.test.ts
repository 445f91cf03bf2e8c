import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicUserSchema, userResponseSchema } from '../../core/accounts';
import { userTokensResponseSchema } from '../../core/credits';
import { newAccount, registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('accounts: happy paths', () => {
  it('registers, signs the new user in, and makes the first account admin', async () => {
    const client = new TestClient(server);
    const account = newAccount({ email: '  First.User@Example.COM ' });
    const res = await client.post('/api/auth/register', account);
    expect(res.status).toBe(201);
    const { user } = userResponseSchema.parse(await res.json());
    expect(user).toMatchObject({ username: account.username, email: 'first.user@example.com', role: 'admin' });
    expect(JSON.stringify(user)).not.toMatch(/argon|password/i);

    const me = await client.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(publicUserSchema.parse((await me.json()).user).username).toBe(account.username);

    const second = await registerClient(server);
    const secondMe = await (await second.client.get('/api/auth/me')).json();
    expect(secondMe.user.role).toBe('user');
  });

  it('sets an HttpOnly, SameSite=Lax session cookie that holds no readable id', async () => {
    const res = await new TestClient(server).post('/api/auth/register', newAccount());
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('ta_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Max-Age=2592000/);
    const stored = server.db.$client.prepare('select id from sessions').all() as { id: string }[];
    for (const row of stored) {
      expect(row.id).toMatch(/^[0-9a-f]{64}$/);
      expect(cookie).not.toContain(row.id);
    }
  });

  it('logs in by username (any case) and by e-mail', async () => {
    const { account } = await registerClient(server);
    const byName = new TestClient(server);
    const r1 = await byName.post('/api/auth/login', { usernameOrEmail: account.username.toUpperCase(), password: account.password });
    expect(r1.status).toBe(200);
    expect((await r1.json()).user.username).toBe(account.username);

    const byEmail = new TestClient(server);
    const r2 = await byEmail.post('/api/auth/login', { usernameOrEmail: account.email.toUpperCase(), password: account.password });
    expect(r2.status).toBe(200);
    expect((await (await byEmail.get('/api/auth/me')).json()).user.email).toBe(account.email);
  });

  it('gives a new account a zero balance', async () => {
    const { client } = await registerClient(server);
    const res = await client.get('/api/user-tokens');
    expect(res.status).toBe(200);
    expect(userTokensResponseSchema.parse(await res.json())).toMatchObject({ tokensRemaining: 0, subscriptionType: null });
  });

  it('logout ends the session on the server: the old cookie no longer works', async () => {
    const { client } = await registerClient(server);
    const stolen = new TestClient(server);
    stolen.cookies = new Map(client.cookies);
    const out = await client.post('/api/auth/logout');
    expect(out.status).toBe(200);
    expect((await stolen.get('/api/auth/me')).status).toBe(401);
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });

  it('slides the session forward while used and ends it after 30 idle days', async () => {
    const { client } = await registerClient(server);
    server.clock.advance(20 * 24 * 3600_000);
    const mid = await client.get('/api/auth/me');
    expect(mid.status).toBe(200);
    expect(mid.headers.getSetCookie().some((c) => c.startsWith('ta_session='))).toBe(true);
    server.clock.advance(20 * 24 * 3600_000);
    expect((await client.get('/api/auth/me')).status).toBe(200);
    server.clock.advance(31 * 24 * 3600_000);
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });
});
