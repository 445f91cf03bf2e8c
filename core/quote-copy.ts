import type { PublicQuote } from './quote-versions';

/**
 * The customer's copy as evidence either side can check (docs/product.md, Jobs and quotes:
 * evidence). An acceptance records the SHA-256 of the copy the customer was shown: the quote as
 * `GET /api/quotes/{token}` serves it, without its `answer` (which is only filled in by the
 * answer itself), written as canonical JSON: keys sorted, no spaces, as RFC 8785 (JCS) writes
 * it for the strings, whole numbers, booleans and nulls a copy holds. Anyone holding the link
 * can recompute it; the same text is printed on the page, the e-mail and the PDF.
 *
 * Written here rather than taken from a package: for these values JCS is JSON.stringify with
 * sorted keys (a copy holds no fractional numbers, whose JCS form differs), and the server, the
 * dashboard and a test all need the same few lines.
 */

/** JSON with every object's keys sorted by their UTF-16 code units and no whitespace. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isInteger(value)) throw new Error('canonicalJson: whole numbers only');
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((entry: unknown) => canonicalJson(entry === undefined ? null : entry)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, entry]) => entry !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
}

/** The copy an acceptance's hash covers: the served quote without its answer. */
export function customerCopy(quote: PublicQuote): Omit<PublicQuote, 'answer'> {
  const { answer: _answer, ...copy } = quote;
  return copy;
}

/** The text whose SHA-256 is the copy's fingerprint. */
export const customerCopyText = (quote: PublicQuote): string => canonicalJson(customerCopy(quote));

/** How to check the fingerprint, said the same on the page, in the e-mail and on the PDF. */
export function fingerprintCheck(apiUrl: string): string {
  return `To check it: fetch ${apiUrl}, take its "quote" without the "answer" field, write it as JSON with the keys sorted and no spaces (RFC 8785), and compute the SHA-256 of that text. The result must match this fingerprint.`;
}

/** "3f2a 9c1e ...": a fingerprint in groups of four, for reading aloud or by eye. */
export const groupedFingerprint = (hash: string): string => hash.replace(/(.{4})(?=.)/g, '$1 ');
