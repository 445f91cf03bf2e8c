/*
 * The crew's outbox (docs/product.md, The crew's day, On a phone, with or without signal): every
 * change made on the phone (the site check, a signature, a timer tap, the finish, a photo) is kept
 * here first and sent from here, in the order it was made, each once. It survives the page being
 * closed (the store is IndexedDB, outbox-store.ts) and a session ending: a change waits for its
 * own person to sign in again.
 *
 * The logic takes its store and its sender as arguments, so it is tested without a browser
 * (outbox.test.ts) and the browser's parts stay thin.
 */

export const OUTBOX_KINDS = ['site-check', 'sign', 'work', 'finish', 'photo'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** A refusal the server gave: its sentence, kept for the person with the change. */
export interface OutboxProblem {
  status: number;
  code?: string;
  message: string;
  /** For a start refused without a complete site check: what is missing, in words. */
  missing?: string[];
}

export interface OutboxPhoto {
  blob: Blob;
  name: string;
  kind: 'before' | 'after';
}

export interface OutboxItem {
  /** The store's key, rising: the order the changes were made in. */
  id: number;
  /** The signed-in person's own user id: a change is sent only with their session. */
  userId: number;
  jobId: number;
  kind: OutboxKind;
  method: 'POST' | 'PUT';
  path: string;
  /** The JSON body; a photo goes as multipart instead. */
  body?: Record<string, unknown>;
  photo?: OutboxPhoto;
  /** Sent as Idempotency-Key (and as a work event's clientId), so a replay counts once. */
  key: string;
  /** What the person did, in words: "Start the timer on Q-000123". */
  label: string;
  queuedAt: string;
  state: 'waiting' | 'not_sent';
  problem?: OutboxProblem;
}

export type NewOutboxItem = Omit<OutboxItem, 'id' | 'state' | 'problem'>;

/** Where the changes are kept (IndexedDB on the phone, a Map in the tests). */
export interface OutboxStore {
  add(item: Omit<OutboxItem, 'id'>): Promise<number>;
  /** Every item, oldest first. */
  all(): Promise<OutboxItem[]>;
  put(item: OutboxItem): Promise<void>;
  remove(id: number): Promise<void>;
}

/** What became of one attempt to send. */
export type SendResult =
  | { outcome: 'sent' }
  /** No answer, or one that says try later (5xx, 429): kept, and sending stops until the next try. */
  | { outcome: 'retry' }
  /** 401: the session ended; kept until the same person signs in again. */
  | { outcome: 'signed_out' }
  /** Refused for good (409 moved, 404 taken off the crew, 400 a shape the server will not take): kept in "Not sent". */
  | { outcome: 'refused'; problem: OutboxProblem }
  /**
   * Refused for now, for want of what another phone may still be sending: a start before the last
   * signature on the site check has arrived (each person signs on their own phone, and phones get
   * signal back in any order). Kept waiting with the server's sentence, and that job's later
   * changes wait behind it (nothing of the job goes ahead of its start); other jobs' changes go on.
   * The next try sends it again.
   */
  | { outcome: 'held'; problem: OutboxProblem };

/** The refusals that hold a change rather than refuse it for good (see 'held'). */
export const HELD_CODES: readonly string[] = ['SITE_CHECK_MISSING'];

export type Sender = (item: OutboxItem) => Promise<SendResult>;

/** How an HTTP status is read: what may succeed later, and what never will as it stands. */
export function outcomeOfStatus(status: number): Exclude<SendResult['outcome'], 'held'> {
  if (status >= 200 && status < 300) return 'sent';
  if (status === 401) return 'signed_out';
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'retry';
  return 'refused';
}

export interface FlushResult {
  sent: number;
  refused: number;
  /** Why sending stopped before the end, or null when every waiting change was tried. */
  stoppedBy: 'retry' | 'signed_out' | 'held' | null;
}

/**
 * Sends the person's waiting changes oldest first. A change sent is removed at once; a refused one
 * moves to "Not sent" with the server's sentence and the next is tried; no answer (or a session
 * ended) stops there, so nothing is sent ahead of a change still waiting before it. A change held
 * (see SendResult) stops its own job's later changes only: another job's day is not held up by a
 * signature still to come on this one.
 */
export async function flushOutbox(store: OutboxStore, send: Sender, userId: number): Promise<FlushResult> {
  const result: FlushResult = { sent: 0, refused: 0, stoppedBy: null };
  const waiting = (await store.all()).filter((item) => item.state === 'waiting' && item.userId === userId);
  const heldJobs = new Set<number>();
  for (const item of waiting) {
    if (heldJobs.has(item.jobId)) continue;
    let answer: SendResult;
    try {
      answer = await send(item);
    } catch {
      answer = { outcome: 'retry' };
    }
    if (answer.outcome === 'sent') {
      await store.remove(item.id);
      result.sent += 1;
    } else if (answer.outcome === 'refused') {
      await store.put({ ...item, state: 'not_sent', problem: answer.problem });
      result.refused += 1;
    } else if (answer.outcome === 'held') {
      await store.put({ ...item, problem: answer.problem });
      result.stoppedBy = 'held';
      heldJobs.add(item.jobId);
    } else {
      result.stoppedBy = answer.outcome;
      break;
    }
  }
  return result;
}

/** A new id for a change: also a work event's clientId (8 to 64 letters, digits, "-" or "_"). */
export function newClientId(): string {
  return crypto.randomUUID();
}

export interface OutboxStatus {
  /** The person's changes still to send. */
  waiting: OutboxItem[];
  /** Refused by the server, kept until the person dismisses them. */
  notSent: OutboxItem[];
  sending: boolean;
  /** The last attempt: every waiting change sent, no signal, the session ended, or a change held (its problem says why). */
  last: 'sent' | 'offline' | 'signed_out' | 'held' | null;
}

/**
 * The outbox the screens share: adds, sends one batch at a time (a second "Send now" while one
 * runs waits for it, so nothing goes twice), and tells its listeners what it holds.
 */
export class Outbox {
  private running: Promise<FlushResult> | null = null;
  private listeners = new Set<(status: OutboxStatus) => void>();
  private status: OutboxStatus = { waiting: [], notSent: [], sending: false, last: null };

  constructor(
    private readonly store: OutboxStore,
    private readonly send: Sender,
    /** Holds the whole batch across the phone's tabs (navigator.locks), when the browser has it. */
    private readonly exclusive: <T>(run: () => Promise<T>) => Promise<T> = (run) => run(),
  ) {}

  current(): OutboxStatus {
    return this.status;
  }

  subscribe(listener: (status: OutboxStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async refresh(userId: number | null): Promise<OutboxStatus> {
    const items = userId === null ? [] : (await this.store.all()).filter((item) => item.userId === userId);
    this.publish({ waiting: items.filter((i) => i.state === 'waiting'), notSent: items.filter((i) => i.state === 'not_sent') });
    return this.status;
  }

  async add(item: NewOutboxItem): Promise<number> {
    const id = await this.store.add({ ...item, state: 'waiting' });
    await this.refresh(item.userId);
    return id;
  }

  /** A waiting change's body replaced where it stands in the order (a held start given its reason), its problem cleared. */
  async revise(id: number, userId: number, body: Record<string, unknown>): Promise<void> {
    const item = (await this.store.all()).find((i) => i.id === id && i.userId === userId && i.state === 'waiting');
    if (item) await this.store.put({ ...item, body, problem: undefined });
    await this.refresh(userId);
  }

  async dismiss(id: number, userId: number): Promise<void> {
    await this.store.remove(id);
    await this.refresh(userId);
  }

  /** Sends what waits; a call while a batch runs gets that batch's result. */
  flush(userId: number): Promise<FlushResult> {
    if (this.running) return this.running;
    this.publish({ sending: true });
    const run = this.exclusive(() => flushOutbox(this.store, this.send, userId))
      .catch((): FlushResult => ({ sent: 0, refused: 0, stoppedBy: 'retry' }))
      .then(async (result) => {
        this.running = null;
        await this.refresh(userId);
        const stopped = result.stoppedBy === 'retry' ? 'offline' : result.stoppedBy;
        const last = stopped ?? (result.sent > 0 ? 'sent' : this.status.last);
        this.publish({ sending: false, last });
        return result;
      });
    this.running = run;
    return run;
  }

  private publish(change: Partial<OutboxStatus>): void {
    this.status = { ...this.status, ...change };
    for (const listener of this.listeners) listener(this.status);
  }
}

/** "3 changes waiting to send", "1 change waiting to send". */
export function waitingWords(count: number): string {
  return `${count} ${count === 1 ? 'change' : 'changes'} waiting to send`;
}
