import { createHash, randomBytes } from 'node:crypto';

/** A random 256-bit secret, URL-safe. */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets (session ids, reset tokens) are stored only as their SHA-256. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
