import { addDays, ukToday } from '../../core/job-booking';
import { parsePostcode } from '../../core/postcode';
import { siteDayFigures, workingWindow, type SiteFigures, type TimeWindow } from '../../core/weather';
import type { AppDeps } from '../deps';
import { forecastAt } from './forecasts';
import { siteLocation } from './site-location';

/**
 * The schedule's weather (docs/operations.md, WEATHER_URL): for each site and day asked, the
 * highest gust and the rain during working hours (core/weather.ts siteDayFigures), from the site's
 * postcode (site-location.ts) and its forecast (forecasts.ts). Never throws and never holds the
 * board up for long: a site whose postcode or forecast cannot be had has no entry, and whatever is
 * not ready within the deadline (WEATHER_TIMEOUT_MS) is left out of this answer, its asks carrying
 * on to fill the cache for the next.
 */

type WeatherDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/** One booking's day at a site: its postcode, the day, and its working hours (08:00 to 17:00 when not given). */
export interface SiteDayAsk {
  postcode: string | null;
  /** "YYYY-MM-DD", a UK calendar day. */
  date: string;
  /** "HH:MM" UK time, the booking's start. */
  startTime?: string;
  /** How long the crew works from the start, in minutes (the crew's day). */
  minutes?: number;
}

/** Days from today the forecast is asked for: Locationforecast reaches about nine days ahead. */
export const FORECAST_DAYS = 10;

/** The key of weatherForSites's answer: the postcode as normalised ("BS8 4AA") and the date. */
export function weatherKey(postcode: string, date: string): string {
  return `${parsePostcode(postcode)?.postcode ?? postcode}|${date}`;
}

/**
 * The figures for each distinct postcode and date asked, keyed by weatherKey. Two asks of one
 * postcode and date (two bookings at one site) are one, over the hours of both. Days before today,
 * or more than FORECAST_DAYS ahead, are not asked (nothing is looked up for them).
 */
export async function weatherForSites(deps: WeatherDeps, asks: readonly SiteDayAsk[]): Promise<Map<string, SiteFigures>> {
  const answer = new Map<string, SiteFigures>();
  if (!deps.config.weather.on) return answer;
  const today = ukToday(deps.clock.now());
  const last = addDays(today, FORECAST_DAYS);
  const wanted = new Map<string, { postcode: string; date: string; window: TimeWindow }>();
  for (const ask of asks) {
    const postcode = ask.postcode ? parsePostcode(ask.postcode)?.postcode : undefined;
    if (!postcode || typeof ask.date !== 'string' || ask.date < today || ask.date > last) continue;
    let window: TimeWindow;
    try {
      window = workingWindow(ask.date, ask.startTime, ask.minutes);
    } catch {
      continue;
    }
    const key = weatherKey(postcode, ask.date);
    const before = wanted.get(key);
    wanted.set(key, before ? { postcode, date: ask.date, window: { start: Math.min(before.window.start, window.start), end: Math.max(before.window.end, window.end) } } : { postcode, date: ask.date, window });
  }
  if (wanted.size === 0) return answer;

  const postcodes = [...new Set([...wanted.values()].map((w) => w.postcode))];
  const work = Promise.all(
    postcodes.map(async (postcode) => {
      const location = await siteLocation(deps, postcode);
      const series = location ? await forecastAt(deps, location.latitude, location.longitude) : null;
      if (!series) return;
      for (const [key, site] of wanted) {
        if (site.postcode !== postcode) continue;
        const figures = siteDayFigures(series, site.window);
        if (figures) answer.set(key, figures);
      }
    }),
  ).catch((err: unknown) => {
    deps.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'weather for the schedule failed');
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deps.config.weather.timeoutMs + 500);
  });
  await Promise.race([work, deadline]);
  clearTimeout(timer);
  // A copy: asks still on their way past the deadline must not change the answer already given.
  return new Map(answer);
}
