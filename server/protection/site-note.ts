import { siteNoteWords } from '../../core/protection';
import type { AppDeps } from '../deps';
import { findOut } from './lookup';
import type { KeptNote, PostcodeLookups } from './postcode-lookups';
import { protectionLookups } from './providers';

/**
 * The homeowner's note under the postcode on the request screen (core/protection.ts siteNoteWords):
 * the postcode looked up as a job's is, and only the note kept. Kept per postcode for a day (an
 * hour when the services failed), at most CACHE_MAX postcodes, the oldest dropped first, so a
 * visitor typing cannot make the server ask the public services more than once a postcode; and
 * visitors asking at once for a postcode not yet kept share one lookup (PostcodeLookups, the
 * app's own, which also holds what is kept: nothing here is a module global).
 */
export const CACHE_MAX = 500;
const KEPT_MS = 24 * 3_600_000;
const FAILED_KEPT_MS = 3_600_000;

export async function siteNote(deps: Pick<AppDeps, 'config' | 'clock' | 'logger'>, shared: PostcodeLookups, postcode: string): Promise<string | null> {
  const lookups = protectionLookups(deps.config);
  if (!lookups) return null;
  const cache = shared.siteNotes;
  const kept = cache.get(postcode);
  if (kept && kept.until > deps.clock.now().getTime()) return kept.note;
  let fresh: KeptNote;
  try {
    const { status, findings } = await shared.find(postcode, () => findOut(lookups, postcode));
    fresh = { note: siteNoteWords(status, findings), until: deps.clock.now().getTime() + KEPT_MS };
  } catch (err) {
    deps.logger.warn({ postcode, err: err instanceof Error ? err.message : String(err) }, 'site note lookup failed');
    fresh = { note: null, until: deps.clock.now().getTime() + FAILED_KEPT_MS };
  }
  cache.delete(postcode);
  cache.set(postcode, fresh);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return fresh.note;
}
