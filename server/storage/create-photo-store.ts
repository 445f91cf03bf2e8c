import { createLocalPhotoStore } from './local-photo-store';
import type { PhotoStore } from './photo-store';
import { createS3PhotoStore } from './s3-photo-store';
import type { PhotoStoreSettings } from './store-url';

/** The store config names, built once at start (server/main.ts) and handed to the app in its deps. */
export function createPhotoStore(config: { dataDir: string; photoStore: PhotoStoreSettings }): PhotoStore {
  const { photoStore } = config;
  return photoStore.kind === 's3' ? createS3PhotoStore(photoStore) : createLocalPhotoStore(config.dataDir);
}
