import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../core/errors';
import { newAccount, registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { cpuMsWhile } from '../../testing/cpu-time';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function errorOf(res: Response) {
  const text = await res.text();
  expect(text).not.toMatch(/at \w+ \(|node_modules|SQLITE|sql/i);
  return errorBodySchema.parse(JSON.parse(text));
}

describe('accounts: errors', () => {
  it('refuses a duplicate username (any case) and a duplicate e-mail with 409', async () => {
    const { account } = await registerClient(server);
    const dupName = await new TestClient(server).post('/api/auth/register', newAccount({ username: account.username.toUpperCase() }));
    expect(dupName.status).toBe(409);
    expect(await errorOf(dupName)).toMatchObject({ code: 'CONFLICT', message: 'Username is already taken' });

    const dupEmail = await new TestClient(server).post('/api/auth/register', newAccount({ email: account.email.toUpperCase() }));
    expect(dupEmail.status).toBe(409);
    expect(await errorOf(dupEmail)).toMatchObject({ code: 'CONFLICT', message: 'An account with this email already exists' });
  });

  it('validates registration with per-field details and the spec messages', async () => {
    const res = await new TestClient(server).post(
      '/api/auth/register',
      newAccount({ email: 'not-an-email', password: '123', confirmPassword: '1234' }),
    );
    expect(res.status).toBe(400);
    const body = await errorOf(res);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details?.email).toContain('Please enter a valid email address');
    expect(body.details?.password).toContain('Password must be at least 6 characters');

    const mismatch = await new TestClient(server).post('/api/auth/register', newAccount({ confirmPassword: 'something else' }));
    expect((await errorOf(mismatch)).details?.confirmPassword).toContain("Passwords don't match");
  });

  it('answers a wrong password and an unknown user the same way', async () => {
    const { account } = await registerClient(server);
    const wrong = await new TestClient(server).post('/api/auth/login', { usernameOrEmail: account.username, password: 'wrong password' });
    const unknown = await new TestClient(server).post('/api/auth/login', { usernameOrEmail: 'nobody-here', password: 'wrong password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await errorOf(wrong)).toEqual(await errorOf(unknown));
  });

  it('takes a similar time for an unknown user as for a wrong password', async () => {
    const { account } = await registerClient(server);
    // The CPU time of each login (argon2 runs on libuv's threads, counted too; testing/cpu-time.ts), not the wall clock.
    const time = async (usernameOrEmail: string) =>
      (await cpuMsWhile(() => new TestClient(server).post('/api/auth/login', { usernameOrEmail, password: 'not the password' }))).cpuMs;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const known: number[] = [];
    const unknown: number[] = [];
    // Alternate; 3 each stays under the per-account limit.
    for (let i = 0; i < 3; i++) {
      known.push(await time(account.username));
      unknown.push(await time(`ghost-${i}-${account.username}`));
    }
    const ratio = median(unknown) / median(known);
    // Both verify one argon2id hash (~40 ms); a skipped hash would make this ratio ~0.1.
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('answers 401 to signed-out requests', async () => {
    const client = new TestClient(server);
    for (const path of ['/api/auth/me', '/api/user-tokens']) {
      const res = await client.get(path);
      expect(res.status).toBe(401);
      expect((await errorOf(res)).code).toBe('UNAUTHORIZED');
    }
  });

  it('answers malformed JSON with 400 and no stack', async () => {
    const res = await new TestClient(server).post('/api/auth/login', '{"usernameOrEmail": "x",', {});
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ message: 'Request body must be valid JSON', code: 'VALIDATION_ERROR' });
  });

  it('refuses an oversized JSON body with 413', async () => {
    const res = await new TestClient(server).post('/api/auth/login', { usernameOrEmail: 'x'.repeat(100_000), password: 'x' });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await new TestClient(server).get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('NOT_FOUND');
  });
});
