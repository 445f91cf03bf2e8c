import type { MailMessage, Mailer } from './mailer';

/**
 * Mail that goes out after the answer. Forgot-password must answer in the same
 * time for a known and an unknown address: awaiting the SMTP conversation for known ones
 * made them measurably slower (86 % of pairs). Lead e-mails likewise never hold up a visitor.
 *
 * Each message is tried again after growing delays when the mail server refuses or is
 * down, then given up with an error line naming what it was (never the message body, which
 * may hold a reset link). One queue per mailer, so every route of an app shares it and
 * tests or shutdown can wait for it to drain.
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
}

const queues = new WeakMap<Mailer, BackgroundMail>();

export function backgroundMail(mailer: Mailer, retryDelaysMs: readonly number[] = RETRY_DELAYS_MS): BackgroundMail {
  const known = queues.get(mailer);
  if (known) return known;
  const pending = new Set<Promise<void>>();

  async function deliver(make: MailMessage | (() => MailMessage | Promise<MailMessage>), label: string): Promise<void> {
    // Next turn of the event loop: the response being answered is written first.
    await new Promise((resolve) => setImmediate(resolve));
    let message: MailMessage;
    try {
      message = typeof make === 'function' ? await make() : make;
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', msg: 'e-mail not made', mail: label, error: err instanceof Error ? err.message : String(err) }));
      return;
    }
    for (let attempt = 0; ; attempt += 1) {
      try {
        await mailer.send(message);
        return;
      } catch (err) {
        const delay = retryDelaysMs[attempt];
        const error = err instanceof Error ? err.message : String(err);
        if (delay === undefined) {
          console.error(JSON.stringify({ level: 'error', msg: 'e-mail not sent, giving up', mail: label, attempts: attempt + 1, error }));
          return;
        }
        console.error(JSON.stringify({ level: 'warn', msg: 'e-mail not sent, will retry', mail: label, attempt: attempt + 1, retryInMs: delay, error }));
        // Unref'd: a pending retry never keeps a stopping process alive.
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
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
  };
  queues.set(mailer, queue);
  return queue;
}
