import { imageShapeProblem, type ImageUse } from '../../core/image-shape';
import { DomainError } from '../../core/errors';
import type { AcceptedImageType as UploadImageType } from '../../core/upload-rules';

/**
 * The width and height a JPEG, PNG or WebP file's header claims, read synchronously from the
 * bytes without decoding anything, or null when the header cannot be read. It runs on the
 * event loop for every upload, so each read costs at most a bounded number of steps, whatever
 * the file.
 *
 * Written here rather than taken from the image-size package: its JPEG walk steps through
 * junk one byte at a time, allocating as it goes, and took 1.3-2.0 s of the event loop on a
 * crafted 10 MB file (measured on the bench box), which would stall every request at once. This
 * one fails closed: wherever it cannot follow the file as the standards lay it out, the upload
 * is refused as unreadable, so it can never let through a shape that libvips would see
 * differently.
 */
export function readImageHeader(bytes: Uint8Array, type: UploadImageType): { width: number; height: number } | null {
  if (type === 'image/png') return pngSize(bytes);
  if (type === 'image/webp') return webpSize(bytes);
  return jpegSize(bytes);
}

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const ascii = (b: Uint8Array, at: number, length: number) => String.fromCharCode(...b.subarray(at, at + length));

/** PNG (RFC 2083 sections 3.2 and 4.1.1): IHDR must be the first chunk; width and height follow its name. */
function pngSize(b: Uint8Array) {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

/**
 * WebP (RFC 9649): the first chunk after "WEBP" at byte 12 is VP8X (the canvas size, less one,
 * as 24-bit little-endian at 24 and 27; section 2.7), VP8L (after the signature byte 0x2F, two
 * 14-bit sizes less one; section 3.2.1) or VP8 (after the start code 9D 01 2A, two 14-bit sizes;
 * RFC 6386 section 9.1).
 */
function webpSize(b: Uint8Array) {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X') return { width: 1 + u24le(b, 24), height: 1 + u24le(b, 27) };
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return { width: (b[26]! | (b[27]! << 8)) & 0x3fff, height: (b[28]! | (b[29]! << 8)) & 0x3fff };
  }
  return null;
}

/**
 * Marker segments a JPEG may hold before its frame header: a phone photo has under ten (APP0,
 * APP1 EXIF and XMP, a few APP2 ICC or MPF, DQT, DRI), and even a 10 MB file of full 64 KB
 * segments has under 200. Past this many the file is refused rather than walked further.
 */
const MAX_JPEG_SEGMENTS = 1000;

/**
 * JPEG (ITU T.81 annex B): after SOI, marker segments each give their length, so the walk jumps
 * from one to the next until the first frame header (SOFn: C0-CF less DHT C4, JPG C8 and DAC
 * CC), whose height and width follow its length and precision (B.2.2). libjpeg also takes the
 * first frame header. Fill bytes (FF) may come before a marker; anything else where a marker
 * should be, a scan before any frame, or the end of the file is unreadable.
 */
function jpegSize(b: Uint8Array) {
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
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 8 || at + 9 > b.length) return null;
      return { width: u16be(b, at + 7), height: u16be(b, at + 5) };
    }
    at += 2 + length;
  }
  return null;
}

/**
 * Refuses an image by its header alone, before anything decodes it (core/image-shape.ts): an
 * unreadable header is a 400 in words; too many pixels on a side or in all is 413
 * PAYLOAD_TOO_LARGE, as the pixel-flood guard has always answered; a shape no photo or logo
 * has (too long for its width) is not too large, so 400 VALIDATION_ERROR. `field` names the
 * form field for the details.
 */
export function refuseImageShape(bytes: Uint8Array, type: UploadImageType, use: ImageUse, field: string): void {
  const problem = imageShapeProblem(readImageHeader(bytes, type) ?? { width: 0, height: 0 }, use);
  if (!problem) return;
  const code = problem.kind === 'edge' || problem.kind === 'pixels' ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
  throw new DomainError(code, problem.message, code === 'VALIDATION_ERROR' ? { details: { [field]: [problem.message] } } : {});
}
