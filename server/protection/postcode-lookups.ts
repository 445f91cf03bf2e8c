import type { LookupFindings, LookupStatus } from '../../core/protection';

/** What one lookup of a postcode found (lookup.ts findOut). */
export interface Found {
  status: LookupStatus;
  findings: LookupFindings;
}

/** A site note kept for a postcode (site-note.ts), until a time in ms. */
export interface KeptNote {
  note: string | null;
  until: number;
}

/**
 * The postcode lookups of one app (docs/security.md, The lookups' limits): made by createApp (or
 * given to it by main.ts, which shares it with the hourly housekeeping), never a module global,
 * so two apps in one process (tests) share nothing.
 * - In flight: one lookup of the outside services per postcode at a time, however many ask at
 *   once (the public site note, twenty jobs' pages, the housekeeping): a second asker joins the
 *   first's answer, and nothing of it is kept once it is answered.
 * - The site notes kept per postcode (site-note.ts says for how long).
 */
export class PostcodeLookups {
  private readonly inFlight = new Map<string, Promise<Found>>();
  /** How many askers share each lookup on its way (the first included): what the logs and tests can see of the sharing. */
  private readonly askers = new Map<string, number>();
  readonly siteNotes = new Map<string, KeptNote>();

  /** How many askers are waiting on the lookup of `postcode` on its way; 0 when none is. */
  waiting(postcode: string): number {
    return this.askers.get(postcode) ?? 0;
  }

  /** Whether a lookup of `postcode` is on its way now (a caller joining it spends no allowance). */
  running(postcode: string): boolean {
    return this.inFlight.has(postcode);
  }

  /**
   * The answer of the lookup of `postcode` on its way, or of one started now with `ask`. The check
   * and the start are one synchronous step, so two askers never both start.
   */
  find(postcode: string, ask: () => Promise<Found>): Promise<Found> {
    const running = this.inFlight.get(postcode);
    if (running) {
      this.askers.set(postcode, this.waiting(postcode) + 1);
      return running;
    }
    const started = ask();
    this.inFlight.set(postcode, started);
    this.askers.set(postcode, 1);
    const done = () => {
      if (this.inFlight.get(postcode) !== started) return;
      this.inFlight.delete(postcode);
      this.askers.delete(postcode);
    };
    started.then(done, done);
    return started;
  }
}
