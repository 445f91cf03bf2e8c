import { z } from 'zod';
import type { ForecastPoint } from '../../core/weather';
import { getJsonAnswer, ServiceAnswer } from '../protection/fetch-json';

/**
 * MET Norway's Locationforecast 2.0, `GET {WEATHER_URL}/complete?lat=&lon=` (api.met.no
 * /doc/locationforecast/HowTO and /datamodel): a GeoJSON Feature whose `properties.timeseries` is
 * `[{ time, data: { instant: { details: { wind_speed, wind_speed_of_gust, ... } }, next_1_hours?:
 * { details: { precipitation_amount } }, next_6_hours?: ... } }]`, hourly for about two and a half
 * days, then six-hourly to about nine days. `/complete` rather than `/compact`: only it carries
 * `wind_speed_of_gust`.
 *
 * What the Terms of Service (api.met.no/doc/TermsOfService) and the status codes page ask, and
 * this does: an identifying User-Agent on every request (the product, the install's address and
 * contact: config.weather.userAgent); coordinates with at most 4 decimals (locationKey); the
 * answer's Expires and Last-Modified handed back so the caller keeps it until it expires and asks
 * again with If-Modified-Since (the Last-Modified string unchanged), a 304 keeping its copy; 203
 * (a deprecated or beta version) still answered but flagged, to be logged; 429 and 403 (throttled,
 * or refused for the User-Agent) thrown as their status, so the caller backs off.
 */

/** The most an answer may be: `/complete` for one place is a few hundred kilobytes. */
export const FORECAST_MAX_BYTES = 2 * 1024 * 1024;

/** The most time steps kept: MET gives about ninety. */
const MAX_STEPS = 300;

const amount = z.number().finite().min(0).max(1_000);
const periodSchema = z.object({ details: z.object({ precipitation_amount: amount.optional() }).optional() }).optional();

/** The parts of the answer read, checked: anything else in it is ignored. */
export const forecastAnswerSchema = z.object({
  type: z.literal('Feature'),
  properties: z.object({
    meta: z.object({ updated_at: z.string() }).optional(),
    timeseries: z
      .array(
        z.object({
          time: z.iso.datetime({ offset: true }),
          data: z.object({
            instant: z.object({
              details: z
                .object({
                  wind_speed: z.number().finite().min(0).max(200).optional(),
                  wind_speed_of_gust: z.number().finite().min(0).max(200).optional(),
                })
                .optional(),
            }),
            next_1_hours: periodSchema,
            next_6_hours: periodSchema,
          }),
        }),
      )
      .max(MAX_STEPS),
  }),
});

/** The figures read from each step (core/weather.ts ForecastPoint). */
export function trimSeries(answer: z.infer<typeof forecastAnswerSchema>): ForecastPoint[] {
  return answer.properties.timeseries.map(({ time, data }) => {
    const point: ForecastPoint = { time: new Date(time).toISOString().replace('.000Z', 'Z') };
    const gust = data.instant.details?.wind_speed_of_gust;
    const wind = data.instant.details?.wind_speed;
    const rain1 = data.next_1_hours?.details?.precipitation_amount;
    const rain6 = data.next_6_hours?.details?.precipitation_amount;
    if (gust !== undefined) point.gustMs = gust;
    if (wind !== undefined) point.windMs = wind;
    if (rain1 !== undefined) point.rain1hMm = rain1;
    if (rain6 !== undefined) point.rain6hMm = rain6;
    return point;
  });
}

/** A coordinate with at most `decimals` decimals, as text without trailing zeros ("51.46", "-2.6"). */
const fixed = (value: number, decimals: number) => String(Number(value.toFixed(decimals)));

/**
 * The decimals a site's location is sent with: two (about a kilometre; MET's finest model is on a
 * 2.5 km grid, so no forecast is lost), within the terms' four, so nearby sites share one forecast
 * and one cached answer, and no more of a customer's whereabouts leaves than the forecast needs.
 */
export const LOCATION_DECIMALS = 2;

/** The rounded location a forecast is asked and kept for: its key ("51.46,-2.62") and its figures. */
export function locationKey(latitude: number, longitude: number): { key: string; lat: string; lon: string } {
  const lat = fixed(latitude, LOCATION_DECIMALS);
  const lon = fixed(longitude, LOCATION_DECIMALS);
  return { key: `${lat},${lon}`, lat, lon };
}

export type ForecastFetch =
  | { status: 'new'; series: ForecastPoint[]; expiresAt: number | null; lastModified: string | null; deprecated: boolean }
  | { status: 'not_modified'; expiresAt: number | null; lastModified: string | null };

/** A date header as epoch ms; null when absent or not a date. */
function headerTime(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  const at = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(at) ? at : null;
}

/** The Last-Modified header as sent, when it is a plain header value of sensible length. */
function lastModifiedOf(headers: Headers): string | null {
  const value = headers.get('last-modified');
  return value && value.length <= 100 && /^[\x20-\x7e]+$/.test(value) ? value : null;
}

/**
 * One ask of the forecast for a rounded location; `ifModifiedSince` is the kept answer's
 * Last-Modified. Throws ServiceAnswer (or the fetch's own error: the deadline, the service down)
 * for anything but 200, 203 and 304, and for an answer not in the documented shape.
 */
export async function fetchForecast(
  baseUrl: string,
  userAgent: string,
  location: { lat: string; lon: string },
  ifModifiedSince: string | null,
  signal: AbortSignal,
): Promise<ForecastFetch> {
  const headers: Record<string, string> = { 'user-agent': userAgent };
  if (ifModifiedSince) headers['if-modified-since'] = ifModifiedSince;
  const url = `${baseUrl}/complete?lat=${encodeURIComponent(location.lat)}&lon=${encodeURIComponent(location.lon)}`;
  const answer = await getJsonAnswer(url, signal, { headers, maxBytes: FORECAST_MAX_BYTES });
  const expiresAt = headerTime(answer.headers, 'expires');
  const lastModified = lastModifiedOf(answer.headers);
  if (answer.status === 304) return { status: 'not_modified', expiresAt, lastModified: lastModified ?? ifModifiedSince };
  if (answer.status !== 200 && answer.status !== 203) throw new ServiceAnswer(answer.status, `forecast answered ${answer.status}`);
  const parsed = forecastAnswerSchema.safeParse(answer.body);
  if (!parsed.success) throw new ServiceAnswer(answer.status, 'forecast not in the documented shape');
  return { status: 'new', series: trimSeries(parsed.data), expiresAt, lastModified, deprecated: answer.status === 203 };
}
