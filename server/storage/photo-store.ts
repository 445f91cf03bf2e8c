import { DomainError } from '../../core/errors';
import type { Logger } from '../log';

/**
 * Where analysis photos and company logos live (docs/operations.md, Photos in object storage):
 * the local folders under DATA_DIR (the default) or an S3-compatible bucket. One small interface,
 * chosen once at start from config (server/storage/create-photo-store.ts), like the mailer and
 * the payment provider (CONVENTIONS 2).
 *
 * Keys are ours only: `uploads/<uuid>.jpg` for a photo, `logos/<uuid>.png` for a logo. Every
 * store refuses any other key before it touches a disk or the network, so a name read from a
 * row or a request can never reach another path or object.
 */
export interface PhotoStore {
  readonly kind: 'local' | 's3';
  /** Where it keeps them, for the operator: a folder, or s3://bucket/prefix. */
  readonly location: string;
  /** Writes the object; throws PhotoStoreError when the store cannot take it. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The object, or null when there is none (or the key is not ours). */
  get(key: string): Promise<Buffer | null>;
  /** Removes the object if there is one; throws PhotoStoreError when the store cannot be reached. */
  delete(key: string): Promise<void>;
  /** Every key of ours under `uploads/` or `logos/`. */
  list(folder: StoreFolder): Promise<string[]>;
}

export type StoreFolder = 'uploads' | 'logos';

/** A photo's name as analysis/store.ts newImageName makes it (a UUID and .jpg). */
const PHOTO_NAME = /^[0-9a-f-]{36}\.jpg$/;
/** A logo's name as settings/logo.ts writeLogo makes it; its first 8 hex digits are the logo's version. */
export const LOGO_NAME = /^([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.png$/;

export const isPhotoName = (name: string): boolean => PHOTO_NAME.test(name);
export const isLogoName = (name: string): boolean => LOGO_NAME.test(name);

export const photoKey = (name: string): string => `uploads/${name}`;
export const logoKey = (name: string): string => `logos/${name}`;

/** Whether a key is one of ours: a photo's or a logo's, nothing else (no `..`, no other folder). */
export function isStoreKey(key: string): boolean {
  const slash = key.indexOf('/');
  const folder = key.slice(0, slash);
  const name = key.slice(slash + 1);
  return (folder === 'uploads' && isPhotoName(name)) || (folder === 'logos' && isLogoName(name));
}

/** A store that could not be reached or refused a write: the user reads the message, the cause goes to the log. */
export class PhotoStoreError extends DomainError {
  constructor(cause: unknown) {
    super('INTERNAL_ERROR', 'Photo storage could not be reached just now. Please try again in a minute.', { cause });
    this.name = 'PhotoStoreError';
  }
}

/**
 * Removes an object after the row that named it is gone (a refund, a replaced logo, an erased
 * account). The row's change has already committed, so a store that cannot be reached must not
 * turn it into an error for the user: the object is left, and the log names it for the operator.
 */
export async function deleteLeftover(store: PhotoStore, key: string, logger?: Pick<Logger, 'warn'>): Promise<boolean> {
  return (await deleteLeftovers(store, [key], logger)) === 1;
}

/**
 * deleteLeftover for many (an erased account's photos, the reservations of a killed process).
 * The first failure stops the rest: a store that is down would otherwise cost each of them its
 * full timeout in turn. One warning line names every key left. Returns how many were removed.
 */
export async function deleteLeftovers(store: PhotoStore, keys: readonly string[], logger?: Pick<Logger, 'warn'>): Promise<number> {
  for (const [index, key] of keys.entries()) {
    try {
      await store.delete(key);
    } catch (err) {
      const left = keys.slice(index);
      logger?.warn(
        { key, keys: left, store: store.location, error: err instanceof Error ? err.message : String(err) },
        'photo store: could not remove objects no row names; they are left in the store',
      );
      return index;
    }
  }
  return keys.length;
}
