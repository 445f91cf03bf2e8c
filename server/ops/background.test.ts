import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerClient, startTestServer, TestClient } from '../../testing/harness';
import { createBackgroundWork } from './background';

/*
 * Closing the app ends what its requests started in the background (docs/testing.md): a test's
 * server closes it before the database, so no mail is made from a closed database and nothing logs
 * after the test file has ended (vitest failed a green run on exactly that).
 */

/** A real SMTP server on loopback that refuses while `refusing` is set and counts every try. */
let refusing = false;
let tries = 0;
const accepted: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, _session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    stream.on('end', () => {
      tries += 1;
      if (refusing) return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      accepted.push(raw);
      callback();
    });
  },
});
let smtpUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

describe("closing a test's server", () => {
  it('waits for the mail its last request started: the reset e-mail is sent, made from the open database', async () => {
    refusing = false;
    const server = await startTestServer({ SMTP_URL: smtpUrl });
    const { account } = await registerClient(server);
    // The answer comes first; the reset token and the message are made after it, in the background.
    expect((await new TestClient(server).post('/api/auth/forgot-password', { email: account.email })).status).toBe(200);
    await server.close();
    expect(accepted.filter((raw) => raw.includes(account.email) && raw.includes('reset-password?token='))).toHaveLength(1);
    expect(server.logs.filter((line) => String(line.msg).startsWith('e-mail not'))).toEqual([]);
  });

  it('leaves a refused message in the outbox for the next start (no try cut short, nothing given up), and logs to the server, not the console', async () => {
    refusing = true;
    tries = 0;
    const console = vi.spyOn(globalThis.console, 'error');
    try {
      const server = await startTestServer({ SMTP_URL: smtpUrl });
      const { client, account } = await registerClient(server);
      expect((await new TestClient(server).post('/api/auth/forgot-password', { email: account.email })).status).toBe(200);
      // The first try is refused; the row then waits for its next try (server/mail/outbox-worker.ts).
      await vi.waitFor(() => expect(server.logs.some((line) => line.msg === 'e-mail not sent, will try again')).toBe(true), { timeout: 60_000 });
      const waiting = (await (await client.get('/api/mail-outbox')).json()) as { mails: { to: string }[] };
      expect(waiting.mails.map((mail) => mail.to)).toEqual([account.email]);
      await server.close();
      // Nothing is due when stopping: no extra try, and the message stays for the next start.
      expect(tries).toBe(1);
      expect(server.logs.filter((line) => String(line.msg).includes('given up'))).toEqual([]);
      expect(console.mock.calls.filter((call) => String(call[0]).includes('e-mail'))).toEqual([]);
    } finally {
      console.mockRestore();
    }
  });
});

describe('background work', () => {
  it('idle waits for work started and not awaited; close stops the parts before waiting', async () => {
    const work = createBackgroundWork();
    const order: string[] = [];
    let finish = () => {};
    void work.track(new Promise<void>((resolve) => (finish = resolve)).then(() => void order.push('tracked work done')));
    work.add({ close: () => void order.push('part stopped'), idle: async () => void order.push('part idle') });
    const closed = work.close().then(() => void order.push('closed'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['part stopped']);
    finish();
    await closed;
    expect(order).toEqual(['part stopped', 'tracked work done', 'part idle', 'closed']);
    expect(work.closed).toBe(true);
  });

  it("clears the app's timers at close", () => {
    vi.useFakeTimers();
    try {
      const work = createBackgroundWork();
      let runs = 0;
      work.every(60_000, () => (runs += 1));
      vi.advanceTimersByTime(180_000);
      expect(runs).toBe(3);
      void work.close();
      vi.advanceTimersByTime(600_000);
      expect(runs).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
