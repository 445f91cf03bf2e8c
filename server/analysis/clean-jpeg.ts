/**
 * Whether an uploaded JPEG is already what the server would store and send a model, so that it
 * can be kept byte for byte instead of decoded and encoded twice more (server/analysis/image.ts):
 * the copy a browser makes of a chosen photo (core/photo-shrink.ts) is exactly that. A file
 * passes only if it is, in every byte:
 *
 * - a baseline JPEG (SOF0: 8-bit, one scan of 1 or 3 components, the only kind a canvas
 *   writes), at most `maxEdge` px on either side;
 * - with no metadata: before the scan only the coding tables (DQT, DHT, DRI), a JFIF APP0 and at
 *   most one small ICC colour profile (APP2 "ICC_PROFILE", which Chromium's encoder writes; it
 *   says how to show the colours and names no person, place or camera). Any EXIF (GPS, camera,
 *   time, orientation), XMP, comment, other APPn or a second frame fails it;
 * - with nothing hidden in or after the picture: in the scan every 0xFF byte is a stuffed 0xFF00
 *   or a restart marker, and the file ends at its one EOI, so no second image or trailing data
 *   rides along.
 *
 * Anything else goes the long way (decoded, re-encoded without metadata), as every upload did
 * before. The walk reads each byte at most once and stops at MAX_SEGMENTS segments, so its
 * work grows no faster than the file (which the upload limit bounds at 10 MB). The decode that
 * measures the photo still reads the whole scan with sharp's failOn 'warning', so a damaged
 * file is refused either way.
 */

/** Segments before the scan: a canvas JPEG has 9 (APP0, APP2, 2 DQT, SOF0, 4 DHT). */
const MAX_SEGMENTS = 32;
/** A single-chunk sRGB profile: Chromium writes 472 bytes, the common IEC 61966-2.1 one 3,144. */
const MAX_ICC_BYTES = 8 * 1024;

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const startsWith = (b: Uint8Array, at: number, text: string) =>
  at + text.length <= b.length && [...text].every((c, k) => b[at + k] === c.charCodeAt(0));

export function cleanJpegSize(b: Uint8Array, maxEdge: number): { width: number; height: number } | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let at = 2;
  let frame: { width: number; height: number; components: number } | null = null;
  let profiles = 0;
  for (let steps = 0; steps < MAX_SEGMENTS; steps += 1) {
    if (at + 4 > b.length || b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    const length = u16be(b, at + 2);
    if (length < 2 || at + 2 + length > b.length) return null;
    const body = at + 4;
    switch (marker) {
      case 0xdb: // DQT
      case 0xc4: // DHT
      case 0xdd: // DRI
        break;
      case 0xe0: // APP0: JFIF only
        if (!startsWith(b, body, 'JFIF\0')) return null;
        break;
      case 0xe2: // APP2: one ICC profile in one chunk
        if (!startsWith(b, body, 'ICC_PROFILE\0') || length - 2 > MAX_ICC_BYTES || (profiles += 1) > 1) return null;
        break;
      case 0xc0: {
        // SOF0: precision, height, width, component count (ITU T.81 B.2.2)
        if (frame || length < 8 || b[body] !== 8) return null;
        const components = b[body + 5]!;
        if (components !== 1 && components !== 3) return null;
        frame = { height: u16be(b, body + 1), width: u16be(b, body + 3), components };
        break;
      }
      case 0xda: {
        // SOS: the one scan must carry every component (baseline, not progressive)
        if (!frame || b[body] !== frame.components) return null;
        if (frame.width < 1 || frame.height < 1 || frame.width > maxEdge || frame.height > maxEdge) return null;
        return scanEndsCleanly(b, at + 2 + length) ? { width: frame.width, height: frame.height } : null;
      }
      default:
        return null;
    }
    at += 2 + length;
  }
  return null;
}

/** From the scan's first byte: only stuffed bytes and restart markers, then EOI as the file's last two bytes. */
function scanEndsCleanly(b: Uint8Array, from: number): boolean {
  const last = b.length - 2;
  if (last < from || b[last] !== 0xff || b[last + 1] !== 0xd9) return false;
  for (let i = b.indexOf(0xff, from); i !== -1 && i < last; i = b.indexOf(0xff, i + 2)) {
    const next = b[i + 1]!;
    if (next !== 0x00 && (next < 0xd0 || next > 0xd7)) return false;
  }
  return true;
}
