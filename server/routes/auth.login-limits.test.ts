import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILED_MESSAGE } from '../../core/accounts';
import { loginDelayMs, RateLimits } from '../http/rate-limit';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';

/**
 * Login limits after the OWASP Authentication Cheat Sheet: failures count against the
 * account whichever name was typed, one address is refused after 5 failures on an account, and
 * the account itself is only slowed down, never locked: its owner signs in from another address
 * while an attacker hammers it. Behind TRUST_PROXY the address is the X-Forwarded-For one, so
 * one test process can speak from many addresses. The delay is shortened here (0.2 s doubling to
 * 0.8 s); a delay is checked as a lower bound, which load on the box can only lengthen.
 */
const DELAY = { freeFailures: 3, baseMs: 200, maxMs: 800 };
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true' }, { rateLimits: new RateLimits({}, { loginDelay: DELAY }) });
});
afterAll(() => server.close());

async function login(usernameOrEmail: string, password: string, from: string): Promise<{ status: number; ms: number; message: string }> {
  const start = performance.now();
  const res = await new TestClient(server).request('POST', '/api/auth/login', { usernameOrEmail, password }, { 'x-forwarded-for': from });
  const body = (await res.json()) as { message?: string };
  return { status: res.status, ms: performance.now() - start, message: body.message ?? '' };
}

describe('login limits', () => {
  it('delays by the schedule: none for 3 failures, then doubling to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 9].map((n) => loginDelayMs(n, DELAY))).toEqual([0, 0, 0, 200, 400, 800, 800, 800]);
  });

  it('counts the username and the e-mail of one account together, for the delay and the per-address refusal', async () => {
    const { account } = await registerClient(server);
    const from = '10.1.0.1';
    expect((await login(account.username, 'wrong-1', from)).status).toBe(401);
    expect((await login(account.email, 'wrong-2', from)).status).toBe(401);
    expect((await login(account.username.toUpperCase(), 'wrong-3', from)).status).toBe(401);
    // Three failures under three spellings: the fourth attempt waits, as for one name.
    const fourth = await login(account.email.toUpperCase(), 'wrong-4', from);
    expect(fourth.status).toBe(401);
    expect(fourth.ms).toBeGreaterThanOrEqual(DELAY.baseMs);
    expect((await login(account.username, 'wrong-5', from)).status).toBe(401);
    // Five from this address on this account: this address is refused, the right password included.
    const refused = await login(account.email, account.password, from);
    expect(refused.status).toBe(429);
  });

  it('lets the owner in from a fresh address while an attacker hammers the account from many', async () => {
    const { account } = await registerClient(server);
    const attempts: Promise<{ status: number }>[] = [];
    for (let a = 1; a <= 4; a += 1) {
      for (let i = 0; i < 6; i += 1) attempts.push(login(account.username, `guess-${a}-${i}`, `10.2.0.${a}`));
    }
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    // Each attacking address gets its 5 failures, then refusals; nothing else changes.
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(20);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);

    const owner = await login(account.email, account.password, '10.2.9.9');
    expect(owner.status).toBe(200);
    // Slowed (the account has many failures) but not refused.
    expect(owner.ms).toBeGreaterThanOrEqual(DELAY.maxMs);
  });

  it('slows guesses at an unknown name the same way, with the same message', async () => {
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push(await login('nobody-here', `guess-${i}`, '10.3.0.1'));
    expect(results.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect(results.every((r) => r.message === LOGIN_FAILED_MESSAGE)).toBe(true);
    expect(results[3]!.ms).toBeGreaterThanOrEqual(DELAY.baseMs);
    expect(results[4]!.ms).toBeGreaterThanOrEqual(2 * DELAY.baseMs);
  });
});
