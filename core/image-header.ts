/**
 * A photo's pixel size and EXIF orientation read from the first bytes of its file, without
 * decoding it: the JPEG frame header (SOFn) and its Exif APP1, the PNG IHDR (and eXIf), the
 * WebP VP8 / VP8L / VP8X header (and EXIF chunk). core/photo-shrink.ts uses it to ask the
 * browser for an already smaller bitmap, so the 12-megapixel original is never held at full
 * size just to learn how big it is.
 *
 * Hostile input: the file is whatever the visitor chose. The reader looks at no more than
 * HEADER_READ_BYTES, every offset is checked against the buffer before it is read, and every
 * loop moves forward by at least one byte, so a crafted file ends in `undefined`, never in a
 * throw or a loop. A wrong answer costs nothing worse than the slow path: photo-shrink checks
 * the bitmap it gets back.
 */

/** The most of a file read for its header: a phone JPEG's Exif (with its thumbnail) comes well within it. */
export const HEADER_READ_BYTES = 256 * 1024;

export interface ImageHeader {
  /** Width and height as stored, before the orientation is applied. */
  width: number;
  height: number;
  /** EXIF orientation, 1 to 8 (1 when absent or not understood). */
  orientation: number;
}

/** The size the picture is shown at: orientations 5 to 8 turn it a quarter, swapping width and height. */
export function shownSize({ width, height, orientation }: ImageHeader): { width: number; height: number } {
  return orientation >= 5 ? { width: height, height: width } : { width, height };
}

/** The header of a JPEG, PNG or WebP file from its first bytes, or undefined when it is none of them or cut short. */
export function readImageHeader(file: Uint8Array): ImageHeader | undefined {
  const bytes = file.length > HEADER_READ_BYTES ? file.subarray(0, HEADER_READ_BYTES) : file;
  const header = readJpeg(bytes) ?? readPng(bytes) ?? readWebp(bytes);
  if (!header || header.width < 1 || header.height < 1) return undefined;
  return header;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
const u32le = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
const ascii = (b: Uint8Array, i: number, text: string) => i >= 0 && i + text.length <= b.length && [...text].every((c, k) => b[i + k] === c.charCodeAt(0));

/** SOF0-SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function readJpeg(b: Uint8Array): ImageHeader | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let orientation = 1;
  let i = 2;
  while (i + 1 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    // Fill bytes, and markers that stand alone (TEM, RST0-7): no length follows.
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    // The image data (SOS) or its end before any frame header: no size to be had.
    if (marker === 0xda || marker === 0xd9 || i + 4 > b.length) return undefined;
    const length = u16be(b, i + 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (i + 9 > b.length) return undefined;
      return { height: u16be(b, i + 5), width: u16be(b, i + 7), orientation };
    }
    if (marker === 0xe1 && ascii(b, i + 4, 'Exif\0\0')) {
      orientation = tiffOrientation(b.subarray(i + 10, Math.min(b.length, i + 2 + length))) ?? orientation;
    }
    i += 2 + length;
  }
  return undefined;
}

/** Tag 0x0112 of a TIFF block's first IFD (the EXIF of all three formats), when it is 1 to 8. */
function tiffOrientation(t: Uint8Array): number | undefined {
  if (t.length < 8) return undefined;
  const little = ascii(t, 0, 'II');
  if (!little && !ascii(t, 0, 'MM')) return undefined;
  const u16 = little ? u16le : u16be;
  const u32 = little ? u32le : u32be;
  if (u16(t, 2) !== 42) return undefined;
  const ifd = u32(t, 4);
  if (ifd + 2 > t.length) return undefined;
  // Never more entries than the block holds, however many the count claims.
  const count = Math.min(u16(t, ifd), Math.floor((t.length - ifd - 2) / 12));
  for (let k = 0; k < count; k += 1) {
    const entry = ifd + 2 + k * 12;
    if (u16(t, entry) === 0x0112) {
      const value = u16(t, entry + 8);
      return value >= 1 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function readPng(b: Uint8Array): ImageHeader | undefined {
  if (b.length < 24 || !PNG_SIGNATURE.every((v, k) => b[k] === v) || !ascii(b, 12, 'IHDR')) return undefined;
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  let orientation = 1;
  // Chunks before the pixels (IDAT) may hold eXIf: length, type, data, CRC.
  for (let i = 8; i + 8 <= b.length; ) {
    const length = u32be(b, i);
    if (ascii(b, i + 4, 'IDAT') || ascii(b, i + 4, 'IEND')) break;
    if (ascii(b, i + 4, 'eXIf')) {
      orientation = tiffOrientation(b.subarray(i + 8, Math.min(b.length, i + 8 + length))) ?? 1;
      break;
    }
    i += 12 + length;
  }
  return { width, height, orientation };
}

function readWebp(b: Uint8Array): ImageHeader | undefined {
  if (b.length < 30 || !ascii(b, 0, 'RIFF') || !ascii(b, 8, 'WEBP')) return undefined;
  if (ascii(b, 12, 'VP8 ')) {
    // A key frame's start code, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return undefined;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff, orientation: 1 };
  }
  if (ascii(b, 12, 'VP8L')) {
    if (b[20] !== 0x2f) return undefined;
    const bits = u32le(b, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, orientation: 1 };
  }
  if (!ascii(b, 12, 'VP8X')) return undefined;
  const width = (b[24]! | (b[25]! << 8) | (b[26]! << 16)) + 1;
  const height = (b[27]! | (b[28]! << 8) | (b[29]! << 16)) + 1;
  let orientation = 1;
  const hasExif = (b[20]! & 0x08) !== 0;
  // RIFF chunks: type, little-endian length, data padded to an even length.
  for (let i = 12; hasExif && i + 8 <= b.length; ) {
    const length = u32le(b, i + 4);
    if (ascii(b, i, 'EXIF')) {
      const data = b.subarray(i + 8, Math.min(b.length, i + 8 + length));
      orientation = tiffOrientation(ascii(data, 0, 'Exif\0\0') ? data.subarray(6) : data) ?? 1;
      break;
    }
    i += 8 + length + (length % 2);
  }
  return { width, height, orientation };
}
