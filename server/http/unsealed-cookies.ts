/**
 * A short, bounded memory of cookies already unsealed: the sealed cookie string to what it
 * holds (the session id, and its hash as the sessions table stores it). Unsealing is
 * iron-session's PBKDF2 over WebCrypto, 0.5-0.8 ms a request on a 2-core box,
 * and the same cookie arrives on every request.
 *
 * Why nothing here outlives a logout or a password reset: this holds only what the cookie
 * itself says (its id), never whether the session is still valid. Every request still
 * reads the sessions row for that id, and logout and reset delete the row, so the same
 * cookie is refused at once whether or not its unsealed value is remembered here.
 */
export class UnsealedCookies<T = string> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(
    /** Entries kept at most; the least recently used goes first. */
    private readonly capacity = 5000,
    /** How long an entry is trusted, so a seal past its own expiry is soon unsealed again. */
    private readonly ttlMs = 5 * 60 * 1000,
  ) {}

  get(sealed: string, nowMs: number): T | undefined {
    const entry = this.entries.get(sealed);
    if (!entry) return undefined;
    this.entries.delete(sealed);
    if (entry.until <= nowMs) return undefined;
    // Re-inserted so the Map's order stays least recently used first.
    this.entries.set(sealed, entry);
    return entry.value;
  }

  set(sealed: string, value: T, nowMs: number): void {
    this.entries.delete(sealed);
    this.entries.set(sealed, { value, until: nowMs + this.ttlMs });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
