import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer, type ServerProcess } from '../build/server-process';
import { newAccount } from '../testing/harness';
import { decodeQuotedPrintable, outboxCount, resetTokenFrom } from '../testing/mail';
import { SERVER_NODE_ARGS } from '../testing/processes';

/**
 * Production-safe defaults (docs/operations.md, Production settings), on the real server in its own process with
 * NODE_ENV=production, reading everything it prints: a password reset's link never reaches
 * standard output or the log (the mail waits in the outbox, the log says where), and a Stripe
 * address override is refused at start.
 */
const ROOT = new URL('../', import.meta.url).pathname;
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-production-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function startProduction(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  return spawnServer({
    nodeArgs: SERVER_NODE_ARGS,
    cwd: ROOT,
    port,
    env: { NODE_ENV: 'production', PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, ...env },
    timeoutMs: 120_000,
  });
}

describe('NODE_ENV=production without SMTP_URL', () => {
  it('writes a reset mail to the outbox and never prints its link or token', async () => {
    const server = await startProduction();
    const outbox = join(dataDir, 'outbox');
    let message: string;
    try {
      const account = newAccount();
      const headers = { 'content-type': 'application/json', origin: server.url };
      const registered = await fetch(`${server.url}/api/auth/register`, { method: 'POST', headers, body: JSON.stringify(account) });
      expect(registered.status).toBe(201);
      const asked = await fetch(`${server.url}/api/auth/forgot-password`, { method: 'POST', headers, body: JSON.stringify({ email: account.email }) });
      expect(asked.status).toBe(200);
      // The mail goes out after the answer.
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && outboxCount(dataDir) === 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const [file] = readdirSync(outbox);
      message = decodeQuotedPrintable(readFileSync(join(outbox, file!), 'utf8'));
    } finally {
      // Stopped before reading its output: the log is written in batches and flushed at exit.
      await server.stop();
    }
    const token = resetTokenFrom(message);
    const printed = server.output();
    expect(printed).toContain('mail written to outbox');
    expect(printed).toContain(outbox);
    expect(printed).not.toContain(token);
    expect(printed).not.toContain(encodeURIComponent(token));
    expect(printed).not.toContain('reset-password?token');
  });

  it('still writes a reset mail asked for just before the server is told to stop, then stops cleanly', async () => {
    const before = outboxCount(dataDir);
    const server = await startProduction();
    const account = newAccount();
    const headers = { 'content-type': 'application/json', origin: server.url };
    expect((await fetch(`${server.url}/api/auth/register`, { method: 'POST', headers, body: JSON.stringify(account) })).status).toBe(201);
    const asked = await fetch(`${server.url}/api/auth/forgot-password`, { method: 'POST', headers, body: JSON.stringify({ email: account.email }) });
    expect(asked.status).toBe(200);
    // SIGTERM at once: the mail goes out after the answer, so it is still on its way.
    await server.stop();
    expect(outboxCount(dataDir)).toBe(before + 1);
    expect(server.output()).toContain('mail written to outbox');
    expect(server.output()).toContain('"msg":"stopped"');
    expect(server.child.exitCode).toBe(0);
  });
});

describe('NODE_ENV=production with STRIPE_API_BASE', () => {
  it('refuses to start, naming the variable', async () => {
    const started = startProduction({
      STRIPE_API_BASE: 'http://127.0.0.1:9/stripe',
      STRIPE_SECRET_KEY: 'sk_live_not_real',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_not_real',
      STRIPE_WEBHOOK_SECRET: 'whsec_not_real',
    });
    await expect(started).rejects.toThrow(/exited before it was healthy[\s\S]*STRIPE_API_BASE: not allowed when NODE_ENV=production/);
  });
});
