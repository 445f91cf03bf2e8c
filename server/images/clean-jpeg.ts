/**
 * Whether an uploaded JPEG is already what the server would store and send a model, so that it
 * can be kept byte for byte instead of decoded and encoded twice more (server/images/normalise.ts):
 * the copy a browser makes of a chosen photo (core/photo-shrink.ts) is exactly that. A file
 * passes only if it is, in every byte:
 *
 * - a baseline JPEG (SOF0: 8-bit, one scan of 1 or 3 components, the only kind a canvas
 *   writes), at most `maxEdge` px on either side;
 * - with no metadata: before the scan only the coding tables (DQT, DHT, DRI), one JFIF APP0 that
 *   is exactly the 16-byte header (version 1.x, units, densities, and no thumbnail: nothing can
 *   follow it), and at most one ICC colour profile (APP2 "ICC_PROFILE", which Chromium's encoder
 *   writes; it says how to show the colours and names no person, place or camera) that is
 *   well formed and at most MAX_ICC_BYTES (iccProfileIsWellFormed). Any EXIF (GPS, camera, time,
 *   orientation), XMP, comment, other APPn, a JFIF thumbnail or extension, bytes riding after
 *   the JFIF header or outside the profile's own size, or a second frame fails it;
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
/** APP0's length field for the bare JFIF header: 2 + "JFIF\0" + version 2 + units 1 + densities 4 + thumbnail size 2 (JFIF 1.02, p. 5). */
const JFIF_HEADER_LENGTH = 16;
/** "ICC_PROFILE\0", then the chunk's sequence number and the count of chunks (ICC.1:2022 annex B.4). */
const ICC_MARKER = 'ICC_PROFILE\0';
const ICC_CHUNK_HEADER = ICC_MARKER.length + 2;
/** ICC.1:2022 7.2: a 128-byte header (size at 0, 'acsp' at 36), then the tag count and 12 bytes a tag (signature, offset, size). */
const ICC_HEADER_BYTES = 128;
const ICC_TAG_BYTES = 12;

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32be = (b: Uint8Array, at: number) => b[at]! * 0x1000000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
const startsWith = (b: Uint8Array, at: number, text: string) =>
  at + text.length <= b.length && [...text].every((c, k) => b[at + k] === c.charCodeAt(0));

export function cleanJpegSize(b: Uint8Array, maxEdge: number): { width: number; height: number } | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let at = 2;
  let frame: { width: number; height: number; components: number } | null = null;
  let profiles = 0;
  let jfifs = 0;
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
      case 0xe0: // APP0: the bare JFIF header, once
        if (!isBareJfifHeader(b, body, length) || (jfifs += 1) > 1) return null;
        break;
      case 0xe2: // APP2: one well-formed ICC profile in one chunk
        if (!isWholeIccProfile(b, body, length) || (profiles += 1) > 1) return null;
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

/** APP0 at `body` is exactly the 16-byte JFIF 1.x header with a 0 x 0 thumbnail: no byte after it. */
function isBareJfifHeader(b: Uint8Array, body: number, length: number): boolean {
  return length === JFIF_HEADER_LENGTH && startsWith(b, body, 'JFIF\0') && b[body + 5] === 1 && b[body + 12] === 0 && b[body + 13] === 0;
}

/** APP2 at `body` is chunk 1 of 1 of an ICC profile, and the profile fills the rest of it and is well formed. */
function isWholeIccProfile(b: Uint8Array, body: number, length: number): boolean {
  if (!startsWith(b, body, ICC_MARKER) || b[body + ICC_MARKER.length] !== 1 || b[body + ICC_MARKER.length + 1] !== 1) return false;
  const start = body + ICC_CHUNK_HEADER;
  return iccProfileIsWellFormed(b.subarray(start, body + length - 2));
}

/**
 * An ICC profile (ICC.1:2022 section 7) of at most MAX_ICC_BYTES whose header declares exactly its
 * length and carries the 'acsp' signature, whose every tag lies inside it after the tag table, and
 * with no byte after the table that is no tag's. The tag count is bounded by the size before the
 * table is read, so a forged count reads no further than the profile. What a tag holds is not
 * read: a profile's description and copyright are text (docs/security.md says so).
 */
export function iccProfileIsWellFormed(profile: Uint8Array): boolean {
  const size = profile.length;
  if (size < ICC_HEADER_BYTES + 4 || size > MAX_ICC_BYTES) return false;
  if (u32be(profile, 0) !== size || !startsWith(profile, 36, 'acsp')) return false;
  const tags = u32be(profile, ICC_HEADER_BYTES);
  const tableEnd = ICC_HEADER_BYTES + 4 + tags * ICC_TAG_BYTES;
  if (tableEnd > size) return false;
  const spans: [number, number][] = [];
  for (let entry = ICC_HEADER_BYTES + 4; entry < tableEnd; entry += ICC_TAG_BYTES) {
    const offset = u32be(profile, entry + 4);
    const end = offset + u32be(profile, entry + 8);
    if (offset < tableEnd || end > size) return false;
    spans.push([offset, end]);
  }
  // Nothing rides between or after the tags: past the table every byte is some tag's, or one of
  // the at most 3 zero bytes that pad a tag to the 4-byte boundary the next one starts on (7.3.1).
  let covered = tableEnd;
  for (const [offset, end] of [...spans.sort((x, y) => x[0] - y[0]), [size, size] as [number, number]]) {
    if (offset > covered && !isPadding(profile, covered, offset)) return false;
    covered = Math.max(covered, end);
  }
  return true;
}

const isPadding = (b: Uint8Array, from: number, to: number) => to - from <= 3 && b.subarray(from, to).every((byte) => byte === 0);

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
