import { count, desc, eq, notInArray } from 'drizzle-orm';
import { parsePostcode } from '../../core/postcode';
import { postcodeLocations } from '../../db/schema';
import type { AppDeps } from '../deps';
import { LOOKUP_TIMEOUT_MS } from '../protection/fetch-json';
import { postcodesIo } from '../protection/postcodes-io';
import { UnknownPostcode } from '../protection/types';
import { weatherState } from './state';

/**
 * A site's latitude and longitude: its postcode's centre from the postcode service the product
 * already asks for protected trees (POSTCODE_LOOKUP_URL, postcodes.io; only the postcode is sent),
 * kept in postcode_locations so a board of three hundred bookings does not ask on every read: asked
 * again after LOCATION_FRESH_DAYS, or a day after the service did not know the postcode. Asks of one
 * postcode at once share one (WeatherState.locations). Never throws: a failure reads as no location.
 */
export interface SiteLocation {
  latitude: number;
  longitude: number;
}

type LocationDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

export const LOCATION_FRESH_DAYS = 90;
const UNKNOWN_FRESH_MS = 86_400_000;
/** The most postcodes kept: past it the ones looked up longest ago are dropped. */
export const LOCATIONS_MAX = 20_000;

const DAY_MS = 86_400_000;

/** Whether this install may send postcodes to the postcode service (either use of it is on). */
const mayAsk = (deps: LocationDeps) => deps.config.weather.on || deps.config.protection.lookups;

function keep(deps: LocationDeps, postcode: string, found: SiteLocation | null): void {
  const values = { latitude: found?.latitude ?? null, longitude: found?.longitude ?? null, lookedUpAt: deps.clock.now() };
  deps.db.insert(postcodeLocations).values({ postcode, ...values }).onConflictDoUpdate({ target: postcodeLocations.postcode, set: values }).run();
  const kept = deps.db.select({ n: count() }).from(postcodeLocations).get()?.n ?? 0;
  if (kept > LOCATIONS_MAX) {
    const newest = deps.db.select({ postcode: postcodeLocations.postcode }).from(postcodeLocations).orderBy(desc(postcodeLocations.lookedUpAt)).limit(LOCATIONS_MAX);
    deps.db.delete(postcodeLocations).where(notInArray(postcodeLocations.postcode, newest)).run();
  }
}

async function lookUp(deps: LocationDeps, postcode: string, stale: SiteLocation | null): Promise<SiteLocation | null> {
  try {
    const centre = await postcodesIo(deps.config.protection.postcodeUrl).centre(postcode, AbortSignal.timeout(LOOKUP_TIMEOUT_MS));
    const found = { latitude: centre.latitude, longitude: centre.longitude };
    keep(deps, postcode, found);
    return found;
  } catch (err) {
    if (err instanceof UnknownPostcode) {
      keep(deps, postcode, null);
      return null;
    }
    deps.logger.warn({ postcode, err: err instanceof Error ? err.message : String(err) }, 'postcode location lookup failed');
    return stale;
  }
}

export async function siteLocation(deps: LocationDeps, postcode: string): Promise<SiteLocation | null> {
  const normalised = parsePostcode(postcode)?.postcode;
  if (!normalised) return null;
  const row = deps.db.select().from(postcodeLocations).where(eq(postcodeLocations.postcode, normalised)).get();
  const kept = row && row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null;
  const age = row ? deps.clock.now().getTime() - row.lookedUpAt.getTime() : Infinity;
  if (row && age < (kept ? LOCATION_FRESH_DAYS * DAY_MS : UNKNOWN_FRESH_MS)) return kept;
  if (!mayAsk(deps)) return kept;
  return weatherState(deps.config).locations.find(normalised, () => lookUp(deps, normalised, kept));
}
