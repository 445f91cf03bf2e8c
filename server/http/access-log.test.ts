import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, grantTo } from '../../testing/analysis';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { mailSettled, newestOutboxMessage, resetTokenFrom } from '../../testing/mail';

/**
 * Structured logs an operator can use (docs/operations.md, Logs). One access line per request with the id the
 * answer carries as X-Request-Id; a provider failure logged with its cause under that id; and
 * never a password, token, cookie or photo, whatever the requests carried.
 */
let server: TestServer;
let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-log-test-key', OPENAI_MODEL: 'no-such-model' });
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

const linesFor = (requestId: string) => server.logs.filter((line) => line.requestId === requestId);

describe('logs', () => {
  it('writes one access line per request, with the id the answer carries, and no query string', async () => {
    const { client, account } = await registerClient(server);
    const res = await client.get('/api/auth/me?token=secret-in-query');
    const requestId = res.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const access = linesFor(requestId).filter((line) => line.msg === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ level: 'info', method: 'GET', path: '/api/auth/me', status: 200, service: 'treeanalyzer' });
    expect(access[0]!.userId).toBe(server.db.$client.prepare('select id from users where username = ?').pluck().get(account.username));
    expect(typeof access[0]!.ms).toBe('number');
    expect(typeof access[0]!.time).toBe('string');
    // A proxy's id is kept when it looks like one.
    // (Not /healthz: it answers 503 for a second the test process stalled on a loaded box.)
    const traced = await fetch(`${server.url}/api/capabilities`, { headers: { 'x-request-id': 'proxy-abc-12345' } });
    expect(traced.headers.get('x-request-id')).toBe('proxy-abc-12345');
    expect(linesFor('proxy-abc-12345')[0]).toMatchObject({ path: '/api/capabilities', status: 200, userId: null });
  });

  it('logs a vision provider failure with its cause and the request id, while the user gets the polite message', async () => {
    fake.setMode('error500');
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    const res = await analyze(client, { description: 'oak, 12 inch trunk, 30 ft' });
    expect(res.status).toBe(502);
    const requestId = res.headers.get('x-request-id')!;
    const failure = linesFor(requestId).find((line) => line.msg === 'request failed');
    expect(failure).toMatchObject({ level: 'error', code: 'ANALYSIS_FAILED', path: '/api/analyze-tree' });
    // The chain down to the model server's own answer: what an operator needs to fix it.
    const error = failure!.error as { cause?: { name?: string; cause?: { status?: number; message?: string } } };
    expect(error.cause?.name).toBe('VisionError');
    expect(error.cause?.cause).toMatchObject({ status: 500, message: expect.stringContaining('The fake server had an error') });
    expect(JSON.stringify(await res.json())).not.toContain('500');
  });

  it('never logs a password, token, cookie, session or photo', async () => {
    fake.setMode('ok');
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    await analyze(client, { description: 'ash, 10 inch trunk, 25 ft' });
    await new TestClient(server).post('/api/auth/login', { usernameOrEmail: account.username, password: account.password });
    await new TestClient(server).post('/api/auth/login', { usernameOrEmail: account.username, password: 'a-wrong-password-123' });
    await new TestClient(server).post('/api/auth/forgot-password', { email: account.email });
    await mailSettled(server);
    const token = resetTokenFrom(newestOutboxMessage(server.dataDir));
    await new TestClient(server).post('/api/auth/reset-password', { token, password: 'a-new-password-456', confirmPassword: 'a-new-password-456' });

    const everything = JSON.stringify(server.logs);
    const sessionCookie = client.cookies.get('ta_session')!;
    for (const secret of [account.password, 'a-wrong-password-123', 'a-new-password-456', token, sessionCookie, 'sk-log-test-key', server.config.sessionSecret]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/\/9j\/|base64/); // no JPEG bytes, no data URL
    expect(server.logs.some((line) => line.msg === 'request' && line.path === '/api/auth/reset-password')).toBe(true);
  });
});
