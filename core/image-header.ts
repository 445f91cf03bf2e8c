import type { AcceptedImageType } from './upload-rules';

/**
 * The one reader of image headers, for the browser and the server alike: a photo's pixel size
 * (and for the browser its EXIF orientation) read from the first bytes of its file without
 * decoding it: the JPEG frame header (SOFn) and its Exif APP1, the PNG IHDR (and eXIf), the
 * WebP VP8 / VP8L / VP8X header (and EXIF chunk). Two callers, one walk:
 *
 * - The browser (core/photo-shrink.ts, readImageHeader) asks for an already smaller bitmap from
 *   the size here, so the 12-megapixel original is never held at full size just to learn how big
 *   it is. It looks at no more than HEADER_READ_BYTES; a wrong answer costs nothing worse than
 *   the slow path, as photo-shrink checks the bitmap it gets back.
 * - The server (server/images/upload-checks.ts, readImageSize) refuses a shape before anything
 *   decodes it, on the event loop for every upload. It fails closed: wherever the walk cannot
 *   follow the file as the standards lay it out, the answer is null and the upload is refused as
 *   unreadable, so it can never let through a shape that libvips would see differently.
 *
 * Written here rather than taken from the image-size package: its JPEG walk steps through junk
 * one byte at a time, allocating as it goes, and took 1.3-2.0 s of the event loop on a crafted
 * 10 MB file (measured on the bench box), which would stall every request at once.
 *
 * Hostile input: the file is whatever the visitor chose. Every offset is checked against the
 * buffer before it is read, every loop moves forward by at least one byte and a JPEG's walk
 * takes a bounded number of steps, so a crafted file ends in no answer, never in a throw or a
 * long loop.
 */

/** The most of a file the browser reads for its header: a phone JPEG's Exif (with its thumbnail) comes well within it. */
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

/**
 * The image type by its magic numbers: JPEG SOI marker FF D8 FF (ITU T.81), the PNG
 * signature (RFC 2083 section 3.1), WebP's RIFF container with form type WEBP (RFC 9649).
 */
export function detectImageType(bytes: Uint8Array): AcceptedImageType | undefined {
  const starts = (signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 12 && starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/**
 * The browser's reading: the header of a JPEG, PNG or WebP file from its first HEADER_READ_BYTES,
 * with its orientation, or undefined when it is none of them, cut short or of no size.
 */
export function readImageHeader(file: Uint8Array): ImageHeader | undefined {
  const bytes = file.length > HEADER_READ_BYTES ? file.subarray(0, HEADER_READ_BYTES) : file;
  const header = isJpeg(bytes) ? jpegHeader(bytes, true) : isPng(bytes) ? pngHeader(bytes, true) : isWebp(bytes) ? webpHeader(bytes, true) : null;
  if (!header || header.width < 1 || header.height < 1) return undefined;
  return header;
}

/**
 * The server's reading: the width and height the header of a file of `type` (as
 * detectImageType found it) claims, or null when the header cannot be followed. The whole file
 * is walked, each read costing at most a bounded number of steps, and no orientation is read
 * (the shape limits are the same either way round, core/image-shape.ts).
 */
export function readImageSize(bytes: Uint8Array, type: AcceptedImageType): { width: number; height: number } | null {
  const header = type === 'image/png' ? pngHeader(bytes, false) : type === 'image/webp' ? webpHeader(bytes, false) : jpegHeader(bytes, false);
  return header && { width: header.width, height: header.height };
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
const u32le = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
const ascii = (b: Uint8Array, i: number, text: string) => i >= 0 && i + text.length <= b.length && [...text].every((c, k) => b[i + k] === c.charCodeAt(0));

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const isJpeg = (b: Uint8Array) => b.length >= 4 && b[0] === 0xff && b[1] === 0xd8;
const isPng = (b: Uint8Array) => PNG_SIGNATURE.every((v, k) => b[k] === v);
const isWebp = (b: Uint8Array) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP');

/**
 * Marker segments a JPEG may hold before its frame header: a phone photo has under ten (APP0,
 * APP1 EXIF and XMP, a few APP2 ICC or MPF, DQT, DRI), and even a 10 MB file of full 64 KB
 * segments has under 200. Past this many steps (fill bytes count) the walk gives up.
 */
const MAX_JPEG_SEGMENTS = 1000;

/** SOF0-SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * JPEG (ITU T.81 annex B): after SOI, marker segments each give their length, so the walk jumps
 * from one to the next until the first frame header (SOFn), whose height and width follow its
 * length and precision (B.2.2). libjpeg also takes the first frame header. Fill bytes (FF) may
 * come before a marker; anything else where a marker should be, another SOI, a scan or the end
 * of the image before any frame, or the end of the bytes is no answer. An Exif APP1 before the
 * frame gives the orientation, when asked for.
 */
function jpegHeader(b: Uint8Array, withOrientation: boolean): ImageHeader | null {
  let orientation = 1;
  let at = 2;
  for (let steps = 0; steps < MAX_JPEG_SEGMENTS && at + 4 <= b.length; steps += 1) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    // Markers that stand alone (TEM, RST0-7) carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || marker === 0xda) return null;
    const length = u16be(b, at + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (length < 8 || at + 9 > b.length) return null;
      return { width: u16be(b, at + 7), height: u16be(b, at + 5), orientation };
    }
    if (withOrientation && marker === 0xe1 && ascii(b, at + 4, 'Exif\0\0')) {
      orientation = tiffOrientation(b.subarray(at + 10, Math.min(b.length, at + 2 + length))) ?? orientation;
    }
    at += 2 + length;
  }
  return null;
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

/** PNG (RFC 2083 sections 3.2 and 4.1.1): IHDR must be the first chunk; width and height follow its name. */
function pngHeader(b: Uint8Array, withOrientation: boolean): ImageHeader | null {
  if (b.length < 24 || !ascii(b, 12, 'IHDR')) return null;
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  let orientation = 1;
  // Chunks before the pixels (IDAT) may hold eXIf: length, type, data, CRC.
  for (let i = 8; withOrientation && i + 8 <= b.length; ) {
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

/**
 * WebP (RFC 9649): the first chunk after "WEBP" at byte 12 is VP8X (the canvas size, less one,
 * as 24-bit little-endian at 24 and 27; section 2.7), VP8L (after the signature byte 0x2F, two
 * 14-bit sizes less one; section 3.2.1) or VP8 (after the start code 9D 01 2A, two 14-bit sizes;
 * RFC 6386 section 9.1). The RIFF and WEBP names are the caller's to check (isWebp or
 * detectImageType).
 */
function webpHeader(b: Uint8Array, withOrientation: boolean): ImageHeader | null {
  if (b.length < 30) return null;
  if (ascii(b, 12, 'VP8 ')) {
    // A key frame's start code, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff, orientation: 1 };
  }
  if (ascii(b, 12, 'VP8L')) {
    if (b[20] !== 0x2f) return null;
    const bits = u32le(b, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, orientation: 1 };
  }
  if (!ascii(b, 12, 'VP8X')) return null;
  const width = (b[24]! | (b[25]! << 8) | (b[26]! << 16)) + 1;
  const height = (b[27]! | (b[28]! << 8) | (b[29]! << 16)) + 1;
  let orientation = 1;
  const hasExif = withOrientation && (b[20]! & 0x08) !== 0;
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
