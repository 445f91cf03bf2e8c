import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets that carry authority (session ids, reset tokens, quote links, estimate and reminder
 * tokens): made, hashed and compared here, in one place, below every domain folder that hands
 * them out (docs/architecture.md, Layers).
 */

/** A random 256-bit secret, URL-safe. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets (session ids, reset tokens) are stored only as their SHA-256. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A stored hash against one just taken, in constant time (both are sha256's hex, so of one length). */
export function hashesMatch(stored: string, hash: string): boolean {
  return timingSafeEqual(Buffer.from(stored), Buffer.from(hash));
}
