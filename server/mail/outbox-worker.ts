import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { mailRetryDelayMs } from '../../core/mail-outbox';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { Clock } from '../clock';
import { describeError, type Logger } from '../log';
import type { Mailer } from './mailer';
import { fromStored, onMailQueued, pendingOutboxWork, pruneSent, rowsComposingHere } from './outbox';
import { describeSendFailure } from './send-errors';

/**
 * Delivers the outbox (outbox.ts), one message at a time, oldest due first:
 * - a row is claimed before its SMTP conversation (one conditional update: status 'sending', a
 *   random claim token, until a lease runs out), so two workers, or a worker and a restart, never
 *   both send it; it is marked sent only after the mail server's 250;
 * - a refused or failed try waits mailRetryDelayMs (one minute, doubling to four hours), and a
 *   message still refused 48 hours after it was written is given up ('failed': Settings shows it,
 *   with "Send again");
 * - a row claimed by a process that stopped (killed mid-send, or while making a PDF) is taken
 *   again once its lease has run out. The lease is five times the SMTP conversation's timeout: a
 *   live worker has finished or given up its try long before. A message the server had taken
 *   just before the kill, but not yet marked, is sent again: the same Message-ID lets the
 *   receiving side see it is the same message (as exactly once as SMTP allows, RFC 5321 6.3).
 * Due times come from the injected clock; the timer for the next one is unref'd, and checks at
 * least every minute for rows other processes wrote (the CLI, a second server on the file).
 */
export interface MailWorkerDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  logger: Logger;
  config: { mail: { retryFirstMs: number; sendTimeoutMs: number } };
}

export interface MailWorker {
  /** Looks for due messages on the next turn. */
  wake(): void;
  /**
   * Resolves once this process's pending work is done (attachments being made, messages made
   * after the answer) and nothing is due by the clock now: what a test waits for.
   */
  settled(): Promise<void>;
  /** Stops looking; resolves once the try in flight and the attachments being made have finished. Unsent rows stay for the next start. */
  stop(): Promise<void>;
}

const POLL_MS = 60_000;
/** Stopping sends what is due for at most this long (within the server's 10 s stop); the rest goes at the next start. */
const FINAL_PASS_MS = 5_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

type Row = typeof mailOutbox.$inferSelect;

export function startMailWorker(deps: MailWorkerDeps): MailWorker {
  const { db, clock, mailer, logger } = deps;
  const leaseMs = 5 * deps.config.mail.sendTimeoutMs;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Immediate | undefined;
  let prunedAt = 0;
  /** While stopping: when the last pass ends (performance.now(): a budget of the stop, not domain time). */
  let finalUntil = Infinity;

  /** Claims the oldest due row, or none. */
  function claimNext(): Row | undefined {
    const now = clock.now().getTime();
    const mine = randomBytes(12).toString('hex');
    const here = JSON.stringify(rowsComposingHere(db));
    const due = sql`(${mailOutbox.status} = 'queued' and ${mailOutbox.nextTryAt} <= ${now}) or (${mailOutbox.status} in ('sending', 'composing') and ${mailOutbox.claimedUntil} <= ${now})`;
    return db
      .update(mailOutbox)
      .set({ status: 'sending', claim: mine, claimedUntil: new Date(now + leaseMs), tries: sql`${mailOutbox.tries} + 1` })
      .where(
        sql`${mailOutbox.id} = (select id from ${mailOutbox} where (${due}) and id not in (select value from json_each(${here})) order by ${mailOutbox.nextTryAt}, id limit 1) and (${due})`,
      )
      .returning()
      .get();
  }

  async function deliver(row: Row): Promise<void> {
    const now = () => clock.now();
    if (!row.message) {
      // Nothing to send (a row emptied by hand): given up rather than claimed again and again.
      db.update(mailOutbox).set({ status: 'failed', lastError: 'The e-mail was empty.', claim: null, claimedUntil: null }).where(sql`${mailOutbox.id} = ${row.id} and ${mailOutbox.claim} = ${row.claim}`).run();
      return;
    }
    try {
      await mailer.send(fromStored(row.message, row));
    } catch (err) {
      const failure = describeSendFailure(err);
      const at = now();
      const giveUp = failure.permanent || at.getTime() >= row.giveUpAt.getTime();
      const nextTryAt = new Date(at.getTime() + mailRetryDelayMs(row.tries, deps.config.mail.retryFirstMs));
      db.update(mailOutbox)
        .set(giveUp ? { status: 'failed', lastError: failure.words, claim: null, claimedUntil: null } : { status: 'queued', lastError: failure.words, nextTryAt, claim: null, claimedUntil: null })
        .where(sql`${mailOutbox.id} = ${row.id} and ${mailOutbox.claim} = ${row.claim}`)
        .run();
      const line = { mail: row.label, outboxId: row.id, tries: row.tries, error: describeError(err) };
      if (giveUp) logger.error(line, 'e-mail not sent, given up');
      else logger.warn({ ...line, nextTryAt: nextTryAt.toISOString() }, 'e-mail not sent, will try again');
      return;
    }
    // The server has taken it (250): the body goes, the row stays as a record for 30 days.
    db.update(mailOutbox)
      .set({ status: 'sent', sentAt: now(), message: null, lastError: null, claim: null, claimedUntil: null })
      .where(sql`${mailOutbox.id} = ${row.id} and ${mailOutbox.claim} = ${row.claim}`)
      .run();
  }

  /**
   * When the next row falls due, by the clock: the timer is set for then, at most a minute away.
   * Rows whose attachment this process is making are left out: their end wakes the worker.
   */
  function nextDueInMs(): number {
    const next = db.$client
      .prepare(
        "select min(case when status = 'queued' then next_try_at else claimed_until end) as at from mail_outbox where status in ('queued', 'sending', 'composing') and id not in (select value from json_each(?))",
      )
      .get(JSON.stringify(rowsComposingHere(db))) as { at: number | null };
    if (next.at === null) return POLL_MS;
    return Math.max(0, Math.min(POLL_MS, next.at - clock.now().getTime()));
  }

  async function runDue(): Promise<void> {
    do {
      again = false;
      const going = () => !stopped && performance.now() < finalUntil;
      for (let row = going() ? claimNext() : undefined; row; row = going() ? claimNext() : undefined) await deliver(row);
    } while (again && !stopped);
    const now = clock.now().getTime();
    if (now - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = now;
      pruneSent(db, clock.now());
    }
  }

  function schedule(ms: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, ms);
    // A waiting retry never keeps a stopping process (or a test file) alive.
    timer.unref();
  }

  function run(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = runDue()
      .catch((err: unknown) => {
        if (!stopped) logger.error({ error: describeError(err) }, 'outbox worker failed; trying again in a minute');
      })
      .finally(() => {
        running = null;
        if (!stopped && db.$client.open) schedule(nextDueInMs());
      });
    return running;
  }

  const unlisten = onMailQueued(db, () => {
    if (stopped || soon) return;
    soon = setImmediate(() => {
      soon = undefined;
      void run();
    });
  });
  // Rows left by the previous process (due, or claimed by it before it stopped) are looked at now.
  schedule(0);

  return {
    wake() {
      void run();
    },
    async settled() {
      for (;;) {
        const pending = pendingOutboxWork(db);
        if (pending.length > 0) {
          await Promise.allSettled(pending);
          continue;
        }
        await run();
        if (pendingOutboxWork(db).length === 0 && !running && !dueNow()) return;
      }
    },
    async stop() {
      if (stopped) return;
      unlisten();
      clearTimeout(timer);
      if (soon) clearImmediate(soon);
      // Attachments being made and messages made after an answer (a reset asked for a moment ago)
      // are written, and what is due goes, for up to FINAL_PASS_MS; then the try in flight
      // finishes before the database closes: nothing this process started logs after its end.
      await Promise.allSettled(pendingOutboxWork(db));
      finalUntil = performance.now() + FINAL_PASS_MS;
      if (db.$client.open) await run();
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled([running, ...pendingOutboxWork(db)]);
    },
  };

  function dueNow(): boolean {
    const now = clock.now().getTime();
    const here = JSON.stringify(rowsComposingHere(db));
    const row = db.$client
      .prepare(
        "select 1 from mail_outbox where ((status = 'queued' and next_try_at <= ?) or (status in ('sending', 'composing') and claimed_until <= ?)) and id not in (select value from json_each(?)) limit 1",
      )
      .get(now, now, here);
    return row !== undefined;
  }
}
