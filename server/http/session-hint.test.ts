import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';

/**
 * The session hint cookie (server/http/session.ts): set and cleared with the session cookie,
 * readable by the dashboard's script, and holding nothing but "1".
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function setCookie(res: Response, name: string): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

describe('session hint cookie', () => {
  it('login sets it beside the session cookie: "1", script-readable, same path, SameSite and lifetime', async () => {
    const { account } = await registerClient(server);
    const client = new TestClient(server);
    const res = await client.post('/api/auth/login', { usernameOrEmail: account.username, password: account.password });
    expect(res.status).toBe(200);
    const session = setCookie(res, 'ta_session');
    const hint = setCookie(res, 'ta_signed_in');
    expect(session).toMatch(/HttpOnly/i);
    expect(hint).toBeDefined();
    expect(hint).toMatch(/^ta_signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/i);
    for (const attribute of [/Path=\/(;|$)/, /SameSite=Lax/i, /Max-Age=2592000/]) {
      expect(session).toMatch(attribute);
      expect(hint).toMatch(attribute);
    }
    // Nothing secret: not the sealed cookie, not the session id or its hash.
    const sealed = session!.split(';')[0]!.split('=').slice(1).join('=');
    expect(hint).not.toContain(sealed.slice(0, 16));
    for (const row of server.db.$client.prepare('select id from sessions').all() as { id: string }[]) expect(hint).not.toContain(row.id);
  });

  it('registration sets it too', async () => {
    const res = await new TestClient(server).post('/api/auth/register', newAccount());
    expect(res.status).toBe(201);
    expect(setCookie(res, 'ta_signed_in')).toMatch(/^ta_signed_in=1;/);
  });

  it('logout clears it with the session cookie', async () => {
    const { client } = await registerClient(server);
    expect(client.cookies.get('ta_signed_in')).toBe('1');
    const res = await client.post('/api/auth/logout');
    expect(res.status).toBe(200);
    expect(setCookie(res, 'ta_session')).toMatch(/Max-Age=0/i);
    expect(setCookie(res, 'ta_signed_in')).toMatch(/Max-Age=0/i);
    expect(client.cookies.has('ta_signed_in')).toBe(false);
    expect((await client.get('/api/auth/me')).status).toBe(401);
  });

  it('a hint that outlived its session gets a 401 from /api/auth/me, which clears it', async () => {
    const { client } = await registerClient(server);
    // The same browser's cookies elsewhere: that copy logs out, so the session row is gone.
    const copy = new TestClient(server);
    copy.cookies = new Map(client.cookies);
    expect((await copy.post('/api/auth/logout')).status).toBe(200);

    const res = await client.get('/api/auth/me');
    expect(res.status).toBe(401);
    expect(setCookie(res, 'ta_signed_in')).toMatch(/Max-Age=0/i);
    expect(client.cookies.has('ta_signed_in')).toBe(false);
  });

  it('a hint without any session cookie is cleared', async () => {
    const client = new TestClient(server);
    client.cookies.set('ta_signed_in', '1');
    const res = await client.get('/api/auth/me');
    expect(res.status).toBe(401);
    expect(setCookie(res, 'ta_signed_in')).toMatch(/Max-Age=0/i);
  });

  it('a valid session without the hint gets it back on its next request', async () => {
    const { client } = await registerClient(server);
    client.cookies.delete('ta_signed_in');
    const res = await client.get('/api/auth/me');
    expect(res.status).toBe(200);
    expect(setCookie(res, 'ta_signed_in')).toMatch(/^ta_signed_in=1;.*Max-Age=2592000/);
  });
});
