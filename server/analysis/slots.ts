import { DomainError } from '../../core/errors';

/**
 * Image work (decode, resize, re-encode, the pixel checks) is CPU-bound and holds about 75 MB
 * while it runs (the decoded pixels beside their copies), so on a 2-core box more than two at
 * once only costs memory: 10 uploads at once must stay inside the 400 MB budget
 * (bench/RESULTS.md). The slot is taken once the upload is in and given back before the model
 * is asked, so neither a slow client nor a slow model holds anyone else back.
 */
export const IMAGE_SLOTS = 2;

/**
 * The line for slots is bounded twice. By bytes: every upload in line waits with its bytes in
 * memory, and 200 MiB is 20 full-size (10 MB) photos, which beside two decodes and the server
 * itself stays near the 400 MB budget; it is also a bound on the wait, since image work grows
 * with the photo (about half a second for 10 MB on the bench box, so the last of 20 starts
 * within some 5 s, already long beside a model's 10-30 s). By count, for small photos: 100 of
 * them, at a few tens of milliseconds each, is still a wait of seconds. Past either, a quick
 * "try again" is kinder than a line that only grows, and the memory with it.
 */
export const MAX_WAITING_BYTES = 200 * 1024 * 1024;
export const MAX_WAITING = 100;

export const BUSY_MESSAGE = 'The estimator is busy right now. Please try again in a moment.';

/** The client went away while in line: no one reads this answer, but it is an expected end, not a crash. */
const cancelled = () => new DomainError('ANALYSIS_FAILED', 'The analysis was cancelled before it started.');

/** Before any image work is timed; a 10 MB photo takes about half a second on the bench box. */
const FIRST_ESTIMATE_MS = 1000;

interface Waiter {
  wake(): void;
  bytes: number;
}

/**
 * The slots for image work of one app (createApp makes one; a test can bring its own): at most
 * `capacity` run at once, first come first served, with a line bounded by count and by the bytes
 * waiting in it; anyone past that is refused with 503 BUSY and a Retry-After estimated from
 * recent image work.
 */
export class ImageSlots {
  private active = 0;
  /** Those waiting, oldest first: each is woken with the slot handed over. */
  private readonly line: Waiter[] = [];
  private waitingBytes = 0;
  /** A moving average of how long a slot is held, for Retry-After. */
  private typicalMs = FIRST_ESTIMATE_MS;

  constructor(
    readonly capacity = IMAGE_SLOTS,
    readonly maxWaiting = MAX_WAITING,
    readonly maxWaitingBytes = MAX_WAITING_BYTES,
  ) {
    if (!(capacity >= 1) || !(maxWaiting >= 0)) throw new Error('ImageSlots needs at least one slot and a line of 0 or more');
  }

  /** Every slot taken and the line full, by count or by bytes: a new request would be refused. */
  get full(): boolean {
    return this.active >= this.capacity && (this.line.length >= this.maxWaiting || this.waitingBytes >= this.maxWaitingBytes);
  }

  /** How many hold a slot and how many wait, for tests and logs. */
  get load(): { active: number; waiting: number; waitingBytes: number } {
    return { active: this.active, waiting: this.line.length, waitingBytes: this.waitingBytes };
  }

  /**
   * Runs `work` in a slot, waiting in line for one if need be with `bytes` (the upload) held
   * meanwhile; throws BUSY at once when the line has no room for it, and leaves the line when
   * the signal says the client went away.
   */
  async run<T>(work: () => Promise<T>, options: { bytes?: number; signal?: AbortSignal } = {}): Promise<T> {
    await this.acquire(options.bytes ?? 0, options.signal);
    // A duration, not a date: the injected clock is for what the product records, and a test's
    // clock stands still.
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.typicalMs = 0.8 * this.typicalMs + 0.2 * (performance.now() - started);
      this.release();
    }
  }

  /** 503 BUSY; Retry-After is when the line ahead should have drained, at least a second. */
  busy(): DomainError {
    const ahead = this.active + this.line.length;
    const seconds = Math.max(1, Math.ceil((ahead / this.capacity) * (this.typicalMs / 1000)));
    return new DomainError('BUSY', BUSY_MESSAGE, { headers: { 'Retry-After': String(seconds) } });
  }

  private acquire(bytes: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.active < this.capacity) {
      this.active += 1;
      return Promise.resolve();
    }
    if (this.line.length >= this.maxWaiting || this.waitingBytes + bytes > this.maxWaitingBytes) return Promise.reject(this.busy());
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        const at = this.line.indexOf(waiter);
        if (at >= 0) {
          this.line.splice(at, 1);
          this.waitingBytes -= bytes;
        }
        reject(cancelled());
      };
      const waiter: Waiter = {
        bytes,
        wake: () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        },
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.line.push(waiter);
      this.waitingBytes += bytes;
    });
  }

  private release(): void {
    // The slot passes straight to the next in line, so `active` stays counted.
    const next = this.line.shift();
    if (next) {
      this.waitingBytes -= next.bytes;
      next.wake();
    } else this.active -= 1;
  }
}

/** What createApp gives the analysis route: its image slots, and how long an upload may stall. */
export interface AnalysisLoad {
  slots: ImageSlots;
  /** Milliseconds without a byte of the upload before 408 (server/http/multipart.ts UPLOAD_IDLE_MS). */
  uploadIdleMs: number;
}
