import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundMail } from './background';
import { createSmtpMailer } from './smtp-mailer';

/** A real SMTP server on loopback that refuses the first `refusals` messages with a temporary error. */
let refusals = 0;
const accepted: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, _session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    stream.on('end', () => {
      if (refusals > 0) {
        refusals -= 1;
        const error = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
        return callback(error);
      }
      accepted.push(raw);
      callback();
    });
  },
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  url = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const message = (subject: string) => ({ to: 'owner@example.com', subject, text: 'Hello' });

describe('background mail', () => {
  it('answers at once, then retries a refused message until the server takes it, once', async () => {
    refusals = 2;
    const queue = backgroundMail(createSmtpMailer(url, 'Trees <no-reply@trees.test>'), { retryDelaysMs: [5, 5, 5] });
    let built = false;
    queue.send(() => {
      built = true;
      return message('Retried');
    }, 'test');
    // Nothing is made or sent before the caller's turn ends.
    expect(built).toBe(false);
    await queue.idle();
    expect(built).toBe(true);
    expect(refusals).toBe(0);
    expect(accepted.filter((raw) => raw.includes('Subject: Retried'))).toHaveLength(1);
  });

  it('gives up after the last retry without throwing, and goes on with the next message', async () => {
    refusals = 3;
    const queue = backgroundMail(createSmtpMailer(url, 'Trees <no-reply@trees.test>'), { retryDelaysMs: [5, 5] });
    queue.send(message('Lost'), 'test');
    await queue.idle();
    expect(refusals).toBe(0);
    queue.send(message('Next'), 'test');
    await queue.idle();
    expect(accepted.some((raw) => raw.includes('Subject: Lost'))).toBe(false);
    expect(accepted.some((raw) => raw.includes('Subject: Next'))).toBe(true);
  });
});
