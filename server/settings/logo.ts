import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { LOGO_BOX } from '../../core/company-profile';
import { detectImageType } from '../../core/image-header';
import { refuseImageShape } from '../images/upload-checks';
import { LOGO_SHAPE, unreadableImageMessage } from '../../core/image-shape';
import { DomainError } from '../../core/errors';
import { loadSharp } from '../images/sharp';
import { deleteLeftover, isLogoName, LOGO_NAME, logoKey, type PhotoStore } from '../storage/photo-store';
import type { Logger } from '../log';

/**
 * The company logo printed on quotes. Checked by its bytes like a tree photo (core/image-header.ts detectImageType, server/images/upload-checks.ts), then
 * decoded and re-encoded by sharp to a PNG inside 600 x 200 px, so what is stored and later
 * drawn into PDFs is always an image we wrote ourselves, without metadata. Logos live in the photo
 * store (server/storage/: DATA_DIR/logos by default, readable only by the server's user, or object
 * storage) by a server-generated name, and are served only to their owner.
 */
/** Where the local store keeps logos (server/storage/local-photo-store.ts). */
export function logosDir(dataDir: string): string {
  return join(dataDir, 'logos');
}

/** A short, unguessable-enough tag of the file, so a new logo gets a new URL and caches refresh. */
export function logoVersion(name: string): string {
  return LOGO_NAME.exec(name)?.[1] ?? '0';
}

export const unsupportedLogo = () =>
  new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported image type. Please upload a PNG, JPEG or WebP logo.');

/**
 * A logo's type by its bytes and its shape by its header (core/image-shape.ts LOGO_SHAPE),
 * checked synchronously before anything decodes it: the route calls it before the upload
 * spends a point of its rate limit or waits for an image slot, and normaliseLogo again for
 * every other caller.
 */
export function checkLogoHeader(bytes: Buffer): void {
  const type = detectImageType(bytes);
  if (!type) throw unsupportedLogo();
  refuseImageShape(bytes, type, 'logo', 'logo');
}

/**
 * The stored form of an uploaded logo: PNG (keeps transparency), at most 600 x 200, never
 * enlarged. The header check comes first; libvips's own pixel limit stays as a second one.
 */
export async function normaliseLogo(bytes: Buffer): Promise<Buffer> {
  checkLogoHeader(bytes);
  const sharp = await loadSharp();
  try {
    return await sharp(bytes, { limitInputPixels: LOGO_SHAPE.maxPixels, failOn: 'warning' })
      .autoOrient()
      .resize(LOGO_BOX.width, LOGO_BOX.height, { fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer();
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `Logo dimensions are too large (maximum ${LOGO_SHAPE.maxPixels / 1_000_000} megapixels).`);
    }
    throw new DomainError('VALIDATION_ERROR', unreadableImageMessage('logo'), {
      details: { logo: ["We couldn't read that image"] },
    });
  }
}

/** Writes a normalised logo under a new name and returns the name. */
export async function writeLogo(photos: PhotoStore, png: Buffer): Promise<string> {
  const name = `${randomUUID()}.png`;
  await photos.put(logoKey(name), png);
  return name;
}

// Names are ours (a UUID and .png); anything else is refused here, before the store is touched.
export async function deleteLogo(photos: PhotoStore, name: string): Promise<void> {
  if (!isLogoName(name)) return;
  await photos.delete(logoKey(name));
}

/** A logo no row names any more (replaced or removed): a store that cannot be reached leaves it, logged. */
export async function removeLogo(photos: PhotoStore, name: string, logger?: Pick<Logger, 'warn'>): Promise<void> {
  if (isLogoName(name)) await deleteLeftover(photos, logoKey(name), logger);
}

export async function readLogo(photos: PhotoStore, name: string | null): Promise<Buffer | null> {
  if (!name || !isLogoName(name)) return null;
  return photos.get(logoKey(name));
}
