import { count, desc, eq, lt, notInArray } from 'drizzle-orm';
import type { ForecastPoint } from '../../core/weather';
import { weatherForecasts } from '../../db/schema';
import type { AppDeps } from '../deps';
import { ServiceAnswer } from '../protection/fetch-json';
import { fetchForecast, locationKey } from './locationforecast';
import { weatherState } from './state';

/**
 * A location's forecast, kept in weather_forecasts as MET Norway's terms ask: used as it is until
 * its Expires, then asked again with If-Modified-Since (a 304 keeps the series and takes the new
 * Expires). One ask per location at a time, at most CONCURRENT_ASKS at once. When an ask fails the
 * series kept is still used for STALE_MS after it was fetched (a forecast a few hours old is still
 * a forecast), and the location is not asked again for FAILED_RETRY_MS; a 429 (throttled) or 403
 * (refused: the terms' identification) pauses every ask. Never throws: no forecast reads as null.
 */

type ForecastDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/** An Expires sooner than this (or none, or one in the past) is taken as this far off: the service is never asked in a loop. */
export const MIN_KEEP_MS = 60_000;
/** With no Expires: half an hour, MET's usual. */
export const DEFAULT_KEEP_MS = 30 * 60_000;
/** An Expires further off than this is taken as this (a clock gone wrong would keep a forecast for ever). */
export const MAX_KEEP_MS = 12 * 3_600_000;
export const STALE_MS = 6 * 3_600_000;
export const FAILED_RETRY_MS = 5 * 60_000;
/** After a 429: MET's FAQ says the client is sending too much; ask nothing for a while. */
export const THROTTLED_PAUSE_MS = 15 * 60_000;
/** After a 403: the User-Agent is refused or the install blocked; asking again at once will not help. */
export const REFUSED_PAUSE_MS = 60 * 60_000;
/** Rows not fetched for this long are dropped, and at most FORECASTS_MAX are kept. */
export const FORECAST_DROP_MS = 2 * 86_400_000;
export const FORECASTS_MAX = 1_000;

type Row = typeof weatherForecasts.$inferSelect;

function usable(row: Row | undefined, now: number): ForecastPoint[] | null {
  return row && now - row.fetchedAt.getTime() < STALE_MS ? row.series : null;
}

function keepFor(expiresAt: number | null, now: number): Date {
  const wanted = expiresAt === null ? DEFAULT_KEEP_MS : expiresAt - now;
  return new Date(now + Math.min(MAX_KEEP_MS, Math.max(MIN_KEEP_MS, wanted)));
}

function bound(deps: ForecastDeps, now: number): void {
  deps.db.delete(weatherForecasts).where(lt(weatherForecasts.fetchedAt, new Date(now - FORECAST_DROP_MS))).run();
  const kept = deps.db.select({ n: count() }).from(weatherForecasts).get()?.n ?? 0;
  if (kept > FORECASTS_MAX) {
    const newest = deps.db.select({ location: weatherForecasts.location }).from(weatherForecasts).orderBy(desc(weatherForecasts.fetchedAt)).limit(FORECASTS_MAX);
    deps.db.delete(weatherForecasts).where(notInArray(weatherForecasts.location, newest)).run();
  }
}

async function ask(deps: ForecastDeps, place: ReturnType<typeof locationKey>, row: Row | undefined): Promise<ForecastPoint[] | null> {
  const { config, logger } = deps;
  const state = weatherState(config);
  try {
    const answer = await state.limiter.run(() => fetchForecast(config.weather.url, config.weather.userAgent, place, row?.lastModified ?? null, AbortSignal.timeout(config.weather.timeoutMs)));
    const now = deps.clock.now().getTime();
    const expiresAt = keepFor(answer.expiresAt, now);
    if (answer.status === 'not_modified') {
      if (!row) throw new ServiceAnswer(304, 'forecast answered 304 to a request without If-Modified-Since');
      deps.db.update(weatherForecasts).set({ expiresAt, lastModified: answer.lastModified, fetchedAt: new Date(now) }).where(eq(weatherForecasts.location, place.key)).run();
      return row.series;
    }
    if (answer.deprecated && !state.deprecationLogged) {
      state.deprecationLogged = true;
      logger.warn({ url: config.weather.url }, 'weather forecast answered 203: this Locationforecast version is deprecated; see api.met.no for its successor');
    }
    const [lat, lon] = [Number(place.lat), Number(place.lon)];
    const values = { latitude: lat, longitude: lon, series: answer.series, expiresAt, lastModified: answer.lastModified, fetchedAt: new Date(now) };
    deps.db.insert(weatherForecasts).values({ location: place.key, ...values }).onConflictDoUpdate({ target: weatherForecasts.location, set: values }).run();
    bound(deps, now);
    state.failedUntil.delete(place.key);
    return answer.series;
  } catch (err) {
    const now = deps.clock.now().getTime();
    const status = err instanceof ServiceAnswer ? err.status : null;
    if (status === 429) state.pausedUntil = now + THROTTLED_PAUSE_MS;
    else if (status === 403) state.pausedUntil = now + REFUSED_PAUSE_MS;
    else state.failedUntil.set(place.key, now + FAILED_RETRY_MS);
    logger.warn({ location: place.key, status, err: err instanceof Error ? err.message : String(err) }, 'weather forecast unavailable');
    return usable(row, now);
  }
}

/** The forecast at a site (its rounded location), or null when there is none to be had. */
export async function forecastAt(deps: ForecastDeps, latitude: number, longitude: number): Promise<ForecastPoint[] | null> {
  if (!deps.config.weather.on) return null;
  const place = locationKey(latitude, longitude);
  const row = deps.db.select().from(weatherForecasts).where(eq(weatherForecasts.location, place.key)).get();
  const now = deps.clock.now().getTime();
  if (row && row.expiresAt.getTime() > now) return row.series;
  const state = weatherState(deps.config);
  if (state.pausedUntil > now || (state.failedUntil.get(place.key) ?? 0) > now) return usable(row, now);
  if (state.failedUntil.size > FORECASTS_MAX) state.failedUntil.clear();
  return state.forecasts.find(place.key, () => ask(deps, place, row));
}
