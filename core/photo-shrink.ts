import { HEADER_READ_BYTES, readImageHeader } from './image-header';

/**
 * The chosen photo made smaller on the device before it is sent (docs/product.md, Analysis,
 * The photo on its way): the long edge brought to SEND_MAX_EDGE, the EXIF orientation applied to
 * the pixels, and every byte of metadata (GPS, camera, time) dropped by re-encoding, so the
 * original never leaves the phone. A 12-megapixel phone photo (about 2.5 MB) becomes about
 * a quarter of a megabyte: on a slow 4G uplink that is seconds instead of half a minute
 * (bench/results/phone-photo.md), and the server keeps it as it came (server/images/normalise.ts).
 *
 * Shared by the widget and the dashboard. The size maths is pure; `shrinkPhoto` uses browser
 * APIs (ImageDecoder, createImageBitmap, OffscreenCanvas or a canvas) and checks for them first,
 * so core stays importable from Node, where it hands the file back untouched.
 */

/**
 * The long edge of the copy a vision model is sent: 1024 px. OpenAI's high-detail vision fits an
 * image in 2048 x 2048 and then scales its short side to 768 px, so a 3:4 photo is looked at as
 * 768 x 1024 whatever larger size arrives. server/images/normalise.ts makes its model copy at this
 * edge, and keeps a photo that arrives already at it as it came (a clean JPEG, see there).
 */
export const MODEL_MAX_EDGE = 1024;

/**
 * The long edge sent: the model's own, 1024 px, so the copy the device makes is the copy the
 * model sees and the server has no second copy to make. It was 1600 px; at 1024 a 12 MP photo
 * goes as about a quarter of a megabyte instead of half, which on a slow 4G uplink (750 kbps) is
 * over two seconds sooner to a price, and the server's image work for it is the web photo's
 * (bench/results/phone-photo.md). 1024 px is still twice the edge of a web-sized photo, enough
 * for the owner's History, the measuring and the quote's picture. The server keeps its own limit,
 * server/images/normalise.ts STORED_MAX_EDGE (2048 px), as the guard for whatever arrives (a photo
 * the browser could not shrink goes as chosen); e2e/photo-shrink.spec.ts holds this at or under it.
 */
export const SEND_MAX_EDGE = MODEL_MAX_EDGE;

/**
 * JPEG quality for the copy sent: 0.8, a photo's usual web quality; the server re-encodes once
 * more at its own 85. JPEG rather than WebP: Chromium's WebP at 0.8 was only 15% smaller
 * (386 KB against 456 KB for the bench's 12 MP photo) and took longer to encode on a slowed CPU,
 * so it saved no time to a price (bench/results/phone-photo.md).
 */
export const SEND_JPEG_QUALITY = 0.8;

export interface PixelSize {
  width: number;
  height: number;
}

/**
 * The size to draw a photo of `size` at: the long edge at most `maxEdge`, the shape kept
 * (the short edge rounded to a whole pixel, at least 1), never enlarged.
 */
export function shrunkSize(size: PixelSize, maxEdge = SEND_MAX_EDGE): PixelSize {
  const { width, height } = size;
  const long = Math.max(width, height);
  if (long <= maxEdge) return { width, height };
  const short = Math.max(1, Math.round((Math.min(width, height) * maxEdge) / long));
  return width >= height ? { width: maxEdge, height: short } : { width: short, height: maxEdge };
}

/** "IMG_0042.HEIC.png" -> "IMG_0042.HEIC.jpg": the name the visitor knows, with the type it now has. */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '');
  return `${base || 'photo'}.jpg`;
}

export interface ShrinkOptions {
  maxEdge?: number;
  quality?: number;
}

/**
 * What to ask a JPEG decoder for so that it decodes straight at a smaller scale and never below
 * `target`'s long edge. Decoders scale JPEGs by n/8 while decoding (libjpeg-turbo's DCT scaling;
 * Chromium's ImageDecoder picks n = floor(8 x sqrt(asked area / full area))), so the size asked
 * is the stored size at the smallest n/8 that still covers the target, plus a pixel for rounding.
 * `stored` is the size as stored (before orientation); the long edge is the same either way.
 */
export function decodeSize(stored: PixelSize, maxEdge = SEND_MAX_EDGE): PixelSize {
  const long = Math.max(stored.width, stored.height);
  if (long <= maxEdge) return { width: stored.width, height: stored.height };
  const eighths = Math.min(8, Math.ceil((8 * maxEdge) / long));
  return {
    width: Math.min(stored.width, Math.ceil((stored.width * eighths) / 8) + 1),
    height: Math.min(stored.height, Math.ceil((stored.height * eighths) / 8) + 1),
  };
}

/**
 * The photo to send for `file`: a JPEG at most `maxEdge` on the long side, upright, with no
 * metadata. Every photo the browser can decode is re-encoded, even one already small: a small
 * photo may still carry its GPS position, and the promise is that no metadata leaves the device
 * (a web-sized JPEG may come out a few kB larger; it is small either way). The file goes as
 * chosen only when the browser cannot do the work (no createImageBitmap, a file it cannot
 * decode, out of memory): then the server's own checks answer it, as they always have. Never
 * rejects.
 *
 * A large photo is decoded already smaller where the browser can (WebCodecs ImageDecoder with a
 * desired size, asked for from the size in the file's header, core/image-header.ts): measured in
 * Chromium with the CPU slowed 4x, a 12 MP JPEG came to a 1600 px copy in about half the time of
 * decoding it whole (createImageBitmap, with or without resizeWidth, which decodes whole and
 * then scales) and drawing it smaller (bench/results/phone-photo.md).
 */
export async function shrinkPhoto(file: File, { maxEdge = SEND_MAX_EDGE, quality = SEND_JPEG_QUALITY }: ShrinkOptions = {}): Promise<File> {
  if (typeof createImageBitmap !== 'function') return file;
  let picture: Picture | undefined;
  try {
    picture = (await decodedSmaller(file, maxEdge)) ?? (await decodedWhole(file));
  } catch {
    return file;
  }
  try {
    // Never larger than the browser decoded it (a decoder may scale below the size asked).
    const edge = Math.min(maxEdge, Math.max(picture.width, picture.height));
    const { width, height } = shrunkSize(picture, edge);
    const blob = await drawAsJpeg(picture.source, width, height, quality);
    if (!blob || blob.size === 0) return file;
    return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  } catch {
    return file;
  } finally {
    picture.close();
  }
}

/** A decoded photo, upright: what to draw, its shown size, and how to let it go. */
interface Picture {
  source: CanvasImageSource;
  width: number;
  height: number;
  close: () => void;
}

/** The whole photo decoded, orientation applied. */
async function decodedWhole(file: File): Promise<Picture> {
  const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
}

/**
 * A photo larger than `maxEdge` decoded at a smaller scale by ImageDecoder, or undefined where
 * that cannot be done (no ImageDecoder, a type it does not take, a header not understood, a
 * photo already small, or any failure): then it is decoded whole. The frame carries the EXIF
 * orientation (VideoFrame rotation and flip), which drawing it applies.
 */
async function decodedSmaller(file: File, maxEdge: number): Promise<Picture | undefined> {
  if (typeof ImageDecoder !== 'function' || !file.type) return undefined;
  try {
    const header = readImageHeader(new Uint8Array(await file.slice(0, HEADER_READ_BYTES).arrayBuffer()));
    if (!header || Math.max(header.width, header.height) <= maxEdge) return undefined;
    if (!(await ImageDecoder.isTypeSupported(file.type))) return undefined;
    const asked = decodeSize(header, maxEdge);
    const decoder = new ImageDecoder({ data: await file.arrayBuffer(), type: file.type, desiredWidth: asked.width, desiredHeight: asked.height });
    try {
      const { image } = await decoder.decode();
      return { source: image, width: image.displayWidth, height: image.displayHeight, close: () => image.close() };
    } finally {
      decoder.close();
    }
  } catch {
    return undefined;
  }
}

/** The picture drawn at width x height on white (a transparent PNG would otherwise turn black), as a JPEG. */
async function drawAsJpeg(source: CanvasImageSource, width: number, height: number, quality: number): Promise<Blob | null> {
  const paint = (context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D) => {
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingEnabled = true;
    // Medium (mipmaps, then bilinear): the decoder has already brought the picture within 2x of its size.
    context.imageSmoothingQuality = 'medium';
    context.drawImage(source, 0, 0, width, height);
  };
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    paint(context);
    return canvas.convertToBlob({ type: 'image/jpeg', quality });
  }
  if (typeof document === 'undefined') return null;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  paint(context);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
}

const prepared = new WeakMap<File, Promise<File>>();

/**
 * `shrinkPhoto` once per chosen file. The widget starts it when the photo is chosen and awaits
 * it when the photo is sent, so the work overlaps the visitor's answers, and a second send of
 * the same photo ("These sizes are right") reuses the copy.
 */
export function photoToSend(file: File): Promise<File> {
  let copy = prepared.get(file);
  if (!copy) {
    copy = shrinkPhoto(file);
    prepared.set(file, copy);
  }
  return copy;
}
