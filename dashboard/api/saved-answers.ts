/**
 * The crew's answers the service worker keeps on the phone for use without signal (docs/product.md,
 * The crew's day, On a phone, with or without signal): build/dashboard-plugins.ts names these caches
 * in its runtime caching, and the crew's screens read them for a copy shown at once.
 */
export const CREW_API_CACHE = 'crew-api-v1';
export const CREW_PHOTO_CACHE = 'crew-photos-v1';

/**
 * At every sign-in and sign-out: what was kept belonged to whoever was signed in before, so it goes.
 * The changes still waiting to send are not here (they are in IndexedDB, each with its person).
 */
export function dropSavedAnswers(): void {
  if (typeof caches === 'undefined') return;
  for (const name of [CREW_API_CACHE, CREW_PHOTO_CACHE]) void caches.delete(name).catch(() => undefined);
}
