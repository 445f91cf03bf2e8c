/**
 * The control and bidi characters in `text` (core/plain-text.ts says which and why), as U+XXXX,
 * for tests that nothing a customer typed smuggles one into an e-mail, a page or a calendar file.
 * Tab is allowed, and line breaks when `lines` says so.
 */
export function hiddenCharacters(text: string, { lines = false } = {}): string[] {
  const found: string[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const allowed = code === 0x09 || (lines && (code === 0x0a || code === 0x0d));
    const hidden =
      code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x061c || code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
    if (hidden && !allowed) found.push(`U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
  }
  return found;
}
