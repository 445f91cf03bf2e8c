import type { Logger } from '../log';
import type { MailMessage, Mailer } from './mailer';

/**
 * Mail that goes out after the answer. Forgot-password must answer in the same
 * time for a known and an unknown address: awaiting the SMTP conversation for known ones
 * made them measurably slower (86 % of pairs). Lead e-mails likewise never hold up a visitor.
 *
 * Each message is tried again after growing delays when the mail server refuses or is
 * down, then given up with an error line naming what it was (never the message body, which
 * may hold a reset link). One queue per mailer, so every route of an app shares it and
 * tests or shutdown can wait for it to drain. Lines go to the app's logger (createApp gives it:
 * a test's lines land in its server's `logs`, never on a console a finished test file has
 * closed); a queue made without one writes JSON lines to standard error.
 */
export const RETRY_DELAYS_MS = [2_000, 15_000, 60_000] as const;

export interface BackgroundMail {
  /**
   * Sends in the background; `label` names the message in logs (e.g. "password reset").
   * A function is called only after the current answer has gone out, so whatever work
   * makes the message (a token row, composing it, rendering a PDF to attach: it may be async)
   * costs the caller nothing either; one that throws or rejects is logged and nothing is sent.
   */
  send(message: MailMessage | (() => MailMessage | Promise<MailMessage>), label: string): void;
  /** Resolves once every message queued so far is sent or given up. */
  idle(): Promise<void>;
  /**
   * Stopping (the app's close): a message waiting out a retry delay is tried once more at once and
   * given up if refused again (logged); the ones being made or sent finish; resolves when none is left. Later sends still go out.
   */
  close(): Promise<void>;
}

interface QueueOptions {
  retryDelaysMs?: readonly number[];
  /** Where the queue's lines go; the first queue made for a mailer keeps it. */
  logger?: Logger;
}

const queues = new WeakMap<Mailer, BackgroundMail>();

export function backgroundMail(mailer: Mailer, options: QueueOptions = {}): BackgroundMail {
  const known = queues.get(mailer);
  if (known) return known;
  const { retryDelaysMs = RETRY_DELAYS_MS, logger } = options;
  const pending = new Set<Promise<void>>();
  // The retry delays being waited out, ended early by close().
  const waiting = new Set<() => void>();
  let stopping = false;
  const log = (level: 'warn' | 'error', fields: Record<string, unknown>, msg: string) => {
    if (logger) logger[level](fields, msg);
    else console.error(JSON.stringify({ level, msg, ...fields }));
  };

  async function deliver(make: MailMessage | (() => MailMessage | Promise<MailMessage>), label: string): Promise<void> {
    // Next turn of the event loop: the response being answered is written first.
    await new Promise((resolve) => setImmediate(resolve));
    let message: MailMessage;
    try {
      message = typeof make === 'function' ? await make() : make;
    } catch (err) {
      log('error', { mail: label, error: err instanceof Error ? err.message : String(err) }, 'e-mail not made');
      return;
    }
    for (let attempt = 0; ; attempt += 1) {
      try {
        await mailer.send(message);
        return;
      } catch (err) {
        const delay = retryDelaysMs[attempt];
        const error = err instanceof Error ? err.message : String(err);
        if (delay === undefined || stopping) {
          log('error', { mail: label, attempts: attempt + 1, error, ...(stopping && { stopping: true }) }, 'e-mail not sent, giving up');
          return;
        }
        log('warn', { mail: label, attempt: attempt + 1, retryInMs: delay, error }, 'e-mail not sent, will retry');
        // Unref'd: a pending retry never keeps a stopping process alive; close() ends it at once.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, delay).unref();
          function done() {
            clearTimeout(timer);
            waiting.delete(done);
            resolve();
          }
          waiting.add(done);
        });
      }
    }
  }

  const queue: BackgroundMail = {
    send(message, label) {
      const job: Promise<void> = deliver(message, label).finally(() => pending.delete(job));
      pending.add(job);
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async close() {
      stopping = true;
      for (const done of [...waiting]) done();
      await queue.idle();
      stopping = false;
    },
  };
  queues.set(mailer, queue);
  return queue;
}
