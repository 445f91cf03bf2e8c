import { ApiError } from '../http/errors';

/**
 * Image work (decode, resize, re-encode, the pixel checks) is CPU-bound and holds about 75 MB
 * while it runs (the decoded pixels beside their copies), so on a 2-core box more than two at
 * once only costs memory: 10 uploads at once must stay inside the 400 MB budget
 * (bench/RESULTS.md). The slot is taken once the upload is in and given back before the model
 * is asked, so neither a slow client nor a slow model holds anyone else back.
 */
export const IMAGE_SLOTS = 2;

/**
 * How many complete uploads may wait for a slot. Each waits with its bytes in memory (at most
 * 10 MB), so 20 is at most 200 MB; and at about half a second a 10 MB photo over two slots, the
 * last in line starts within some 5 s, already a long wait beside a model's 10-30 s. Past that a
 * quick "try again" is kinder than a line that only grows (and the memory with it).
 */
export const MAX_WAITING = 20;

export const BUSY_MESSAGE = 'The estimator is busy right now. Please try again in a moment.';

/** The client went away while in line: no one reads this answer, but it is an expected end, not a crash. */
const cancelled = () => new ApiError('ANALYSIS_FAILED', 'The analysis was cancelled before it started.');

/** Before any image work is timed; a 10 MB photo takes about half a second on the bench box. */
const FIRST_ESTIMATE_MS = 1000;

/**
 * The slots for image work of one app (createApp makes one; a test can bring its own): at most
 * `capacity` run at once, at most `maxWaiting` wait in line, first come first served; anyone
 * past that is refused with 503 BUSY and a Retry-After estimated from recent image work.
 */
export class ImageSlots {
  private active = 0;
  /** Those waiting, oldest first: each is woken with the slot handed over. */
  private readonly line: (() => void)[] = [];
  /** A moving average of how long a slot is held, for Retry-After. */
  private typicalMs = FIRST_ESTIMATE_MS;

  constructor(
    readonly capacity = IMAGE_SLOTS,
    readonly maxWaiting = MAX_WAITING,
  ) {
    if (!(capacity >= 1) || !(maxWaiting >= 0)) throw new Error('ImageSlots needs at least one slot and a line of 0 or more');
  }

  /** Every slot taken and the line full: a new request would be refused. */
  get full(): boolean {
    return this.active >= this.capacity && this.line.length >= this.maxWaiting;
  }

  /** How many hold a slot and how many wait, for tests and logs. */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.line.length };
  }

  /**
   * Runs `work` in a slot, waiting in line for one if need be; throws BUSY at once when the
   * line is full, and leaves the line when the signal says the client went away.
   */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
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
  busy(): ApiError {
    const ahead = this.active + this.line.length;
    const seconds = Math.max(1, Math.ceil((ahead / this.capacity) * (this.typicalMs / 1000)));
    return new ApiError('BUSY', BUSY_MESSAGE, { headers: { 'Retry-After': String(seconds) } });
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.active < this.capacity) {
      this.active += 1;
      return Promise.resolve();
    }
    if (this.line.length >= this.maxWaiting) return Promise.reject(this.busy());
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.line.indexOf(wake);
        if (at >= 0) this.line.splice(at, 1);
        reject(cancelled());
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(wake);
    });
  }

  private release(): void {
    // The slot passes straight to the next in line, so `active` stays counted.
    const next = this.line.shift();
    if (next) next();
    else this.active -= 1;
  }
}

/** What createApp gives the analysis route: its image slots, and how long an upload may stall. */
export interface AnalysisLoad {
  slots: ImageSlots;
  /** Milliseconds without a byte of the upload before 408 (upload.ts UPLOAD_IDLE_MS). */
  uploadIdleMs: number;
}
