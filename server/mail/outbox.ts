import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, isNull, lt, ne, or } from 'drizzle-orm';
import type Database from 'better-sqlite3';
import { MAIL_GIVE_UP_AFTER_MS, outboxState, type OutboxMail, type StoredMail } from '../../core/mail-outbox';
import { DomainError } from '../../core/errors';
import { immediate, type Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { Clock } from '../clock';
import type { MailAttachment, MailMessage } from './mailer';
import { installAddress } from './sender';

/**
 * The outbox (CONVENTIONS 18): an e-mail is a row written with the change it reports, in the same
 * SQLite transaction when the caller is in one (better-sqlite3 runs everything on one connection,
 * so a row written inside `immediate(db, ...)` commits or rolls back with it). The worker
 * (outbox-worker.ts) delivers it.
 *
 * A row holds the message as JSON (its attachments as base64), not as the raw RFC 822 bytes
 * nodemailer would make of it: the row is written inside a synchronous better-sqlite3 transaction,
 * and nodemailer builds a message asynchronously, so raw bytes could only be stored after the
 * change had committed, which is the gap the outbox closes. What makes every try the same message
 * to the receiving server is kept in the row instead: the Message-ID, fixed when the row is
 * written, and the Date, its creation time. The JSON also gives Settings its "to" and subject.
 */

export interface MailMeta {
  /** Names the message in logs and to the operator: "quote Q-000012 v2", "password reset". */
  label: string;
  /** The account whose action caused it: it sees the message in Settings; null for the install's own mail (admins see it). */
  userId: number | null;
}

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  config: { mailFrom: string };
}

/**
 * Work this process still owes the outbox: attachments being made and messages to be made after
 * the answer (queueMailLater). The worker's `settled()` waits for them; keyed by the connection so
 * two apps in one process (tests) never share them.
 */
const pendingWork = new WeakMap<Database.Database, Set<Promise<unknown>>>();
/** Rows whose attachment this process is making: no worker here claims them meanwhile. */
const composingHere = new WeakMap<Database.Database, Set<number>>();
/** The workers on a connection, told when a row is written so they send it at once. */
const listeners = new WeakMap<Database.Database, Set<() => void>>();

function track(db: Db, work: Promise<unknown>): void {
  let set = pendingWork.get(db.$client);
  if (!set) pendingWork.set(db.$client, (set = new Set()));
  set.add(work);
  void work.finally(() => set.delete(work));
}

export function pendingOutboxWork(db: Db): Promise<unknown>[] {
  return [...(pendingWork.get(db.$client) ?? [])];
}

export function rowsComposingHere(db: Db): number[] {
  return [...(composingHere.get(db.$client) ?? [])];
}

export function onMailQueued(db: Db, listener: () => void): () => void {
  let set = listeners.get(db.$client);
  if (!set) listeners.set(db.$client, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Tells this process's workers a row is waiting; they look on the next turn, after the caller's transaction. */
function notify(db: Db): void {
  for (const listener of listeners.get(db.$client) ?? []) listener();
}

/** `<random@domain of MAIL_FROM>`, as nodemailer would make one, but made once. */
export function newMessageId(mailFrom: string): string {
  const domain = installAddress(mailFrom).split('@')[1]?.trim() || 'treeanalyzer.local';
  return `<${randomUUID()}@${domain}>`;
}

function toStored(message: MailMessage): StoredMail {
  const { attachments, messageId: _ignored, date: _date, ...rest } = message;
  return {
    ...rest,
    ...(attachments?.length
      ? { attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, base64: Buffer.from(a.content).toString('base64') })) }
      : {}),
  };
}

/** The message as the mailer takes it, with the row's fixed Message-ID and Date. */
export function fromStored(stored: StoredMail, row: { messageId: string; createdAt: Date }): MailMessage {
  const { attachments, ...rest } = stored;
  return {
    ...rest,
    ...(attachments?.length ? { attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.base64, 'base64') })) } : {}),
    messageId: row.messageId,
    date: row.createdAt,
  };
}

/**
 * Writes `message` to the outbox: sent by the worker once the caller's transaction (if any) has
 * committed. With `attach`, the row is written now and waits while its attachments (a PDF, made
 * asynchronously) are made after the answer; should this process stop before they are, the worker
 * sends the message without them once the claim runs out, as when a PDF cannot be made: its link
 * still opens the document. Returns the row's id.
 */
export function queueMail(deps: OutboxDeps, message: MailMessage, meta: MailMeta & { attach?: () => Promise<MailAttachment[]>; composeLeaseMs?: number }): number {
  const { db, clock } = deps;
  const now = clock.now();
  const claim = meta.attach ? randomBytes(12).toString('hex') : null;
  const row = db
    .insert(mailOutbox)
    .values({
      userId: meta.userId,
      label: meta.label,
      messageId: newMessageId(deps.config.mailFrom),
      toAddress: message.to,
      subject: message.subject,
      message: toStored(message),
      status: meta.attach ? 'composing' : 'queued',
      nextTryAt: now,
      giveUpAt: new Date(now.getTime() + MAIL_GIVE_UP_AFTER_MS),
      claim,
      claimedUntil: meta.attach ? new Date(now.getTime() + (meta.composeLeaseMs ?? 5 * 60_000)) : null,
      createdAt: now,
    })
    .returning({ id: mailOutbox.id })
    .get();
  if (meta.attach && claim) compose(deps, row.id, claim, message, meta.attach, meta.label);
  else notify(db);
  return row.id;
}

/** Makes the attachments after the current turn (the caller's transaction has ended by then), and lets the row go. */
function compose(deps: OutboxDeps, id: number, claim: string, message: MailMessage, attach: () => Promise<MailAttachment[]>, label: string): void {
  const { db } = deps;
  let here = composingHere.get(db.$client);
  if (!here) composingHere.set(db.$client, (here = new Set()));
  const mine = here;
  mine.add(id);
  const work = (async () => {
    await new Promise((resolve) => setImmediate(resolve));
    // Rolled back with the caller's transaction: nothing to make.
    if (!db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.id, id)).get()) return;
    let attachments: MailAttachment[] = [];
    try {
      attachments = await attach();
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', msg: 'e-mail attachment not made: the e-mail goes without it', mail: label, error: err instanceof Error ? err.message : String(err) }));
    }
    if (!db.$client.open) return;
    db.update(mailOutbox)
      .set({ message: toStored({ ...message, attachments }), status: 'queued', claim: null, claimedUntil: null })
      .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'composing'), eq(mailOutbox.claim, claim)))
      .run();
  })().finally(() => {
    mine.delete(id);
    if (db.$client.open) notify(db);
  });
  track(db, work);
}

/**
 * A message made after the answer has gone, in one transaction with whatever `make` writes (a
 * password reset's token row): forgot-password answers in the same time for a known and an
 * unknown address, so not even the rows are written before the answer. `make` answering null, or
 * throwing (logged), sends nothing.
 */
export function queueMailLater(deps: OutboxDeps, make: () => MailMessage | null, meta: MailMeta): void {
  const { db } = deps;
  const work = (async () => {
    await new Promise((resolve) => setImmediate(resolve));
    if (!db.$client.open) return;
    try {
      immediate(db, () => {
        const message = make();
        if (message) queueMail(deps, message, meta);
      });
    } catch (err) {
      console.error(JSON.stringify({ level: 'error', msg: 'e-mail not made', mail: meta.label, error: err instanceof Error ? err.message : String(err) }));
    }
  })();
  track(db, work);
}

type OutboxRow = typeof mailOutbox.$inferSelect;

function toView(row: OutboxRow): OutboxMail {
  const state = outboxState(row.status) ?? 'waiting';
  return {
    id: row.id,
    to: row.toAddress,
    subject: row.subject,
    state,
    tries: row.tries,
    lastError: row.lastError,
    nextTryAt: state === 'waiting' ? row.nextTryAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Whose rows a person sees: their own, and an admin the install's own mail as well. */
function visibleTo(viewer: { id: number; role: 'user' | 'admin' }) {
  return viewer.role === 'admin' ? or(eq(mailOutbox.userId, viewer.id), isNull(mailOutbox.userId)) : eq(mailOutbox.userId, viewer.id);
}

/** At most this many in Settings' list, newest first: past it, the mail server is the problem, not a message. */
export const OUTBOX_LIST_LIMIT = 200;

/** Settings' list: the viewer's messages not yet delivered and those given up, newest first. */
export function listUndelivered(db: Db, viewer: { id: number; role: 'user' | 'admin' }): OutboxMail[] {
  return db
    .select()
    .from(mailOutbox)
    .where(and(visibleTo(viewer), ne(mailOutbox.status, 'sent')))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(OUTBOX_LIST_LIMIT)
    .all()
    .map(toView);
}

/**
 * "Send again": a message given up, or one waiting for its next try, is tried now and for another
 * 48 hours. Another's message is not found; one being sent this moment is left to that try.
 */
export function sendAgain(deps: Pick<OutboxDeps, 'db' | 'clock'>, viewer: { id: number; role: 'user' | 'admin' }, id: number): OutboxMail {
  const { db, clock } = deps;
  const row = immediate(db, (tx) => {
    const found = tx.select().from(mailOutbox).where(and(eq(mailOutbox.id, id), visibleTo(viewer))).get();
    if (!found || found.status === 'sent' || found.message === null) throw new DomainError('NOT_FOUND', 'No such e-mail waiting to be sent');
    if (found.status === 'sending' || found.status === 'composing') throw new DomainError('CONFLICT', 'This e-mail is being sent now.');
    const now = clock.now();
    return tx
      .update(mailOutbox)
      .set({ status: 'queued', nextTryAt: now, giveUpAt: new Date(now.getTime() + MAIL_GIVE_UP_AFTER_MS), tries: found.status === 'failed' ? 0 : found.tries })
      .where(eq(mailOutbox.id, id))
      .returning()
      .get();
  });
  notify(db);
  return toView(row);
}

/** Delivered messages' rows (their bodies already emptied) are kept 30 days, for the operator's questions. */
export const SENT_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

export function pruneSent(db: Db, now: Date): number {
  return db
    .delete(mailOutbox)
    .where(and(eq(mailOutbox.status, 'sent'), lt(mailOutbox.sentAt, new Date(now.getTime() - SENT_KEPT_MS))))
    .run().changes;
}
