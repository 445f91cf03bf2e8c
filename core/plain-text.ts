/**
 * Names from outside (a visitor's, an account's, a business's) on one line of someone else's
 * screen: an e-mail subject, a log line. Unicode has characters that break such a line or
 * disguise it, and none has a place in a name:
 * - line breaks: the C0 controls (tab, LF, CR...), NEL (U+0085), and the line and paragraph
 *   separators U+2028 and U+2029, which JSON leaves raw and some viewers start a line at;
 * - other controls: DEL and the rest of C1 (U+007F to U+009F);
 * - bidi controls, which reorder what follows them (the "Trojan Source" trick, CVE-2021-42574):
 *   U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069.
 * A break becomes a space, the rest is dropped, and runs of spaces close up.
 */
const BREAKS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x85, 0x2028, 0x2029]);

const isControlOrBidi = (code: number) =>
  code < 0x20 ||
  (code >= 0x7f && code <= 0x9f) ||
  code === 0x061c ||
  code === 0x200e ||
  code === 0x200f ||
  (code >= 0x202a && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069);

/** The text with every line-breaking, control and bidi character taken out (see above), trimmed. */
export function plainLine(text: string): string {
  let line = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (BREAKS.has(code)) line += ' ';
    else if (!isControlOrBidi(code)) line += ch;
  }
  return line.replace(/ {2,}/g, ' ').trim();
}

/** A line break in any of its forms: CRLF, CR, LF, NEL, and the line and paragraph separators. */
const LINE_BREAKS = /\r\n|[\r\n\u0085\u2028\u2029]/g;

/**
 * Text a customer or visitor wrote (a note, a message, an address, a description) as it is kept
 * and then shown: in an e-mail body, on the quote page, in a PDF, in a calendar file. Its lines
 * stay lines (every break above becomes "\n") and tabs stay; every other control character (the
 * rest of C0, DEL, C1: NUL, VT, form feed, escape...) and every bidi control listed above is
 * dropped, so none can hide or reorder words or break a format that forbids it (RFC 5545 3.3.11
 * forbids controls in a calendar's text). Spaces are kept as typed; nothing is trimmed. For a
 * name or anything else of one line, plainLine.
 */
export function plainText(text: string): string {
  let kept = '';
  for (const ch of text.replace(LINE_BREAKS, '\n')) {
    const code = ch.codePointAt(0) ?? 0;
    if (code === 0x0a || code === 0x09 || !isControlOrBidi(code)) kept += ch;
  }
  return kept;
}
