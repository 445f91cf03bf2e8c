/**
 * The chosen photo made smaller on the device before it is sent (docs/product.md, Analysis,
 * The photo on its way): the long edge brought to the size the server keeps, the EXIF
 * orientation applied to the pixels, and every byte of metadata (GPS, camera, time) dropped by
 * re-encoding, so the original never leaves the phone. A 12-megapixel phone photo (about
 * 2.5 MB) becomes about 0.5 MB: on a slow 4G uplink that is seconds instead of half a minute
 * (bench/results/phone-photo.md), and the server decodes a sixth of the pixels.
 *
 * Shared by the widget and the dashboard. The size maths is pure; `shrinkPhoto` uses browser
 * APIs (createImageBitmap, OffscreenCanvas or a canvas) and checks for them first, so core
 * stays importable from Node, where it hands the file back untouched.
 */

/**
 * The long edge sent: the server's own limit, server/analysis/image.ts STORED_MAX_EDGE (2048 px,
 * docs/product.md, Constants). Sending exactly what the server keeps means it never resamples a
 * second time, so the stored photo is as sharp as before; e2e/photo-shrink.spec.ts holds the
 * two equal (core imports nothing from the server).
 */
export const SEND_MAX_EDGE = 2048;

/**
 * JPEG quality for the copy sent: 0.85 is the server's own quality 85 (server/analysis/image.ts
 * JPEG), visually lossless for a photo; the server re-encodes once more at the same quality.
 */
export const SEND_JPEG_QUALITY = 0.85;

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
 * The photo to send for `file`: a JPEG at most `maxEdge` on the long side, upright, with no
 * metadata. Every photo the browser can decode is re-encoded, even one already small: a small
 * photo may still carry its GPS position, and the promise is that no metadata leaves the device
 * (a web-sized JPEG may come out a few kB larger; it is small either way). The file goes as
 * chosen only when the browser cannot do the work (no createImageBitmap, a file it cannot
 * decode, out of memory): then the server's own checks answer it, as they always have. Never
 * rejects.
 */
export async function shrinkPhoto(file: File, { maxEdge = SEND_MAX_EDGE, quality = SEND_JPEG_QUALITY }: ShrinkOptions = {}): Promise<File> {
  if (typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const { width, height } = shrunkSize(bitmap, maxEdge);
    const blob = await drawAsJpeg(bitmap, width, height, quality);
    if (!blob || blob.size === 0) return file;
    return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  } catch {
    return file;
  } finally {
    bitmap.close();
  }
}

/** The bitmap drawn at width x height on white (a transparent PNG would otherwise turn black), as a JPEG. */
async function drawAsJpeg(bitmap: ImageBitmap, width: number, height: number, quality: number): Promise<Blob | null> {
  const paint = (context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D) => {
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
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
