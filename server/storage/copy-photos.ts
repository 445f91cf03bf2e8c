import { createLocalPhotoStore } from './local-photo-store';
import type { PhotoStore, StoreFolder } from './photo-store';

/**
 * `npm run cli -- copy-photos-to-store`: the photos and logos an install kept under DATA_DIR,
 * copied into the configured store before (or after) PHOTO_STORE_URL is switched on. Names are
 * UUIDs and an object is never changed once written, so an object already in the store under
 * the same key is the same file: a second run (or one after an interruption) copies only what
 * is missing. The local files are left where they are; remove them once the store is in use.
 */
export interface CopyCounts {
  /** Files copied now, per folder. */
  copied: Record<StoreFolder, number>;
  /** Files the store already had. */
  alreadyThere: number;
}

const FOLDERS: StoreFolder[] = ['uploads', 'logos'];
/** A progress line every this many files, so a long first copy shows it is moving. */
const PROGRESS_EVERY = 50;

export async function copyLocalPhotos(dataDir: string, target: PhotoStore, say: (line: string) => void): Promise<CopyCounts> {
  const source = createLocalPhotoStore(dataDir);
  const counts: CopyCounts = { copied: { uploads: 0, logos: 0 }, alreadyThere: 0 };
  for (const folder of FOLDERS) {
    const local = await source.list(folder);
    const present = new Set(await target.list(folder));
    const missing = local.filter((key) => !present.has(key));
    counts.alreadyThere += local.length - missing.length;
    say(`${folder}: ${local.length} file${local.length === 1 ? '' : 's'} under ${dataDir}, ${missing.length} to copy`);
    for (const [index, key] of missing.entries()) {
      const bytes = await source.get(key);
      // Removed by hand since the listing: nothing to copy.
      if (!bytes) continue;
      await target.put(key, bytes);
      counts.copied[folder] += 1;
      if ((index + 1) % PROGRESS_EVERY === 0) say(`${folder}: ${index + 1} of ${missing.length} copied`);
    }
  }
  return counts;
}
