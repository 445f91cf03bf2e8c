import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isStoreKey, PhotoStoreError, type PhotoStore, type StoreFolder } from './photo-store';

/**
 * The default store: files under DATA_DIR, exactly as before there was a choice (uploads/ and
 * logos/, files readable only by the server's user). Logos' folder is made 0700, as
 * settings/logo.ts always made it; uploads' takes the process's umask, as it always did.
 */
const FOLDER_MODES: Record<StoreFolder, number | undefined> = { uploads: undefined, logos: 0o700 };

export function createLocalPhotoStore(dataDir: string): PhotoStore {
  const pathOf = (key: string) => join(dataDir, key);
  return {
    kind: 'local',
    location: dataDir,
    async put(key, bytes) {
      if (!isStoreKey(key)) throw new PhotoStoreError(new Error(`refused a key that is not ours: ${JSON.stringify(key.slice(0, 80))}`));
      const folder = key.slice(0, key.indexOf('/')) as StoreFolder;
      await mkdir(join(dataDir, folder), { recursive: true, mode: FOLDER_MODES[folder] });
      await writeFile(pathOf(key), bytes, { mode: 0o600 });
    },
    async get(key) {
      if (!isStoreKey(key)) return null;
      try {
        return await readFile(pathOf(key));
      } catch {
        return null;
      }
    },
    async delete(key) {
      if (!isStoreKey(key)) return;
      await rm(pathOf(key), { force: true });
    },
    async list(folder) {
      const names = await readdir(join(dataDir, folder)).catch(() => [] as string[]);
      return names.map((name) => `${folder}/${name}`).filter(isStoreKey).sort();
    },
  };
}
