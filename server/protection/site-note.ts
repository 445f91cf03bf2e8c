import { siteNoteWords } from '../../core/protection';
import type { Config } from '../config';
import type { AppDeps } from '../deps';
import { findOut } from './lookup';
import { protectionLookups } from './providers';

/**
 * The homeowner's note under the postcode on the request screen (core/protection.ts siteNoteWords):
 * the postcode looked up as a job's is, and only the note kept. Kept per postcode for a day (an
 * hour when the services failed), at most CACHE_MAX postcodes, the oldest dropped first, so a
 * visitor typing cannot make the server ask the public services more than once a postcode. The
 * cache belongs to the app (keyed by its config, as providers.ts keeps its clients), not the module.
 */
export const CACHE_MAX = 500;
const KEPT_MS = 24 * 3_600_000;
const FAILED_KEPT_MS = 3_600_000;

interface Kept {
  note: string | null;
  until: number;
}
const caches = new WeakMap<Config, Map<string, Kept>>();

export async function siteNote(deps: Pick<AppDeps, 'config' | 'clock' | 'logger'>, postcode: string): Promise<string | null> {
  const lookups = protectionLookups(deps.config);
  if (!lookups) return null;
  let cache = caches.get(deps.config);
  if (!cache) caches.set(deps.config, (cache = new Map()));
  const now = deps.clock.now().getTime();
  const kept = cache.get(postcode);
  if (kept && kept.until > now) return kept.note;
  let fresh: Kept;
  try {
    const { status, findings } = await findOut(lookups, postcode);
    fresh = { note: siteNoteWords(status, findings), until: now + KEPT_MS };
  } catch (err) {
    deps.logger.warn({ postcode, err: err instanceof Error ? err.message : String(err) }, 'site note lookup failed');
    fresh = { note: null, until: now + FAILED_KEPT_MS };
  }
  cache.delete(postcode);
  cache.set(postcode, fresh);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return fresh.note;
}
