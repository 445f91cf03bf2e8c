import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * MET Norway's Locationforecast 2.0 on a loopback port, in its documented shape
 * (server/weather/locationforecast.ts says where it came from): `GET /complete?lat=&lon=` answers a
 * GeoJSON Feature with `properties.meta.updated_at` and `properties.timeseries`, hourly from the
 * hour of `now()` for 60 hours (with next_1_hours and next_6_hours), then six-hourly to nine days
 * ahead (next_6_hours only), the last step with no period. Like the real service it sends Expires
 * (half an hour after `now()`) and Last-Modified (the forecast's update time), answers 304 to an
 * If-Modified-Since equal to that Last-Modified, and 403 to a request without an identifying
 * User-Agent (none, or a library's default such as Node's "node"). Point WEATHER_URL at `url`.
 *
 * Each location (the `lat,lon` as asked) has its gusts, wind and rain a hour (setPlace; otherwise
 * the defaults: 6 m/s gusts, 3 m/s wind, no rain). `setMode` makes it fail as the real one can:
 * down (500), slow (never answers), huge (3 MB streamed without a length), not_json, wrong_shape,
 * throttled (429), deprecated (203 with the forecast). `hold` keeps answers back until `release`.
 */

export type FakeWeatherMode = 'ok' | 'down' | 'slow' | 'huge' | 'not_json' | 'wrong_shape' | 'throttled' | 'deprecated';

export interface FakePlace {
  /** wind_speed_of_gust at every step, m/s; or per step's time. */
  gustMs: number | ((time: Date) => number);
  windMs?: number;
  /** precipitation_amount of each hour (next_1_hours; next_6_hours is six of them). */
  rainPerHourMm?: number;
}

export interface FakeWeatherRequest {
  path: string;
  lat: string | null;
  lon: string | null;
  userAgent: string | undefined;
  ifModifiedSince: string | undefined;
  /** The status answered (0 while held or slow). */
  status: number;
}

export interface FakeWeather {
  url: string;
  requests: FakeWeatherRequest[];
  setMode(mode: FakeWeatherMode): void;
  setPlace(location: string, place: FakePlace): void;
  /** A new run of the model: Last-Modified moves on, so the next If-Modified-Since gets a 200. */
  update(): void;
  /** How long after now() each answer's Expires is (default 30 minutes). */
  setExpiresInMs(ms: number): void;
  hold(): void;
  release(): void;
  /** Back to the start between tests: mode ok, no places, Expires in 30 minutes, no requests. */
  reset(): void;
  close(): Promise<void>;
}

const HOUR = 3_600_000;
const DEFAULT_PLACE: FakePlace = { gustMs: 6, windMs: 3, rainPerHourMm: 0 };
const GENERIC_AGENTS = /^(node|undici|curl|wget|python|axios|got|java|okhttp|go-http-client|dalvik)\b/i;

const iso = (at: number) => new Date(at).toISOString().replace('.000Z', 'Z');

function step(at: number, place: FakePlace, periods: { one: boolean; six: boolean }) {
  const gust = typeof place.gustMs === 'function' ? place.gustMs(new Date(at)) : place.gustMs;
  const rain = place.rainPerHourMm ?? 0;
  const data: Record<string, unknown> = {
    instant: {
      details: {
        air_pressure_at_sea_level: 1012.3,
        air_temperature: 14.2,
        relative_humidity: 71.5,
        wind_from_direction: 231.4,
        wind_speed: place.windMs ?? Math.round(gust * 5) / 10,
        wind_speed_of_gust: gust,
      },
    },
  };
  if (periods.one) data.next_1_hours = { summary: { symbol_code: rain > 0 ? 'rain' : 'cloudy' }, details: { precipitation_amount: rain } };
  if (periods.six) data.next_6_hours = { summary: { symbol_code: rain > 0 ? 'rain' : 'cloudy' }, details: { precipitation_amount: Math.round(rain * 6 * 10) / 10, air_temperature_max: 16, air_temperature_min: 11 } };
  return { time: iso(at), data };
}

/** The forecast as the real service shapes it, from the hour of `now`. */
export function fakeForecast(now: Date, place: FakePlace, lat: number, lon: number, updatedAt: Date) {
  const first = Math.floor(now.getTime() / HOUR) * HOUR;
  const timeseries = [];
  for (let i = 0; i < 60; i++) timeseries.push(step(first + i * HOUR, place, { one: true, six: true }));
  const end = first + 9 * 24 * HOUR;
  let at = first + 60 * HOUR;
  at = Math.ceil(at / (6 * HOUR)) * 6 * HOUR;
  for (; at < end; at += 6 * HOUR) timeseries.push(step(at, place, { one: false, six: true }));
  timeseries.push(step(at, place, { one: false, six: false }));
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [lon, lat, 40] },
    properties: {
      meta: {
        updated_at: iso(updatedAt.getTime()),
        units: { air_temperature: 'celsius', precipitation_amount: 'mm', wind_speed: 'm/s', wind_speed_of_gust: 'm/s' },
      },
      timeseries,
    },
  };
}

export async function startFakeWeather(options: { now?: () => Date } = {}): Promise<FakeWeather> {
  const now = options.now ?? (() => new Date());
  let mode: FakeWeatherMode = 'ok';
  let expiresInMs = 30 * 60_000;
  let updatedAt = new Date(Math.floor(now().getTime() / 1000) * 1000 - 10 * 60_000);
  const places = new Map<string, FakePlace>();
  const requests: FakeWeatherRequest[] = [];
  let held: (() => void)[] | null = null;
  const open = new Set<ServerResponse>();

  function answer(req: IncomingMessage, res: ServerResponse, record: FakeWeatherRequest): void {
    const send = (status: number, headers: Record<string, string>, body?: string) => {
      record.status = status;
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, headers);
      res.end(body);
    };
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname !== '/complete') return send(404, { 'content-type': 'text/plain' }, 'Not found');
    if (!record.userAgent || GENERIC_AGENTS.test(record.userAgent)) return send(403, { 'content-type': 'text/plain' }, 'Forbidden: identify yourself in the User-Agent (see api.met.no/doc/TermsOfService)');
    const lat = Number(record.lat);
    const lon = Number(record.lon);
    if (!record.lat || !record.lon || !Number.isFinite(lat) || !Number.isFinite(lon)) return send(400, { 'content-type': 'text/plain' }, 'lat and lon are required');
    if (mode === 'down') return send(500, { 'content-type': 'text/plain' }, 'Internal Server Error');
    if (mode === 'slow') return;
    if (mode === 'throttled') return send(429, { 'content-type': 'text/html' }, '<html><body>429 Too Many Requests</body></html>');
    if (mode === 'not_json') return send(200, { 'content-type': 'text/html' }, '<html><body>Maintenance</body></html>');
    if (mode === 'wrong_shape') return send(200, { 'content-type': 'application/json' }, JSON.stringify({ type: 'Feature', properties: { timeseries: 'none' } }));
    if (mode === 'huge') {
      record.status = 200;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"Feature","padding":"');
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 3 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end('"}');
      };
      more();
      return;
    }
    const lastModified = updatedAt.toUTCString();
    const headers = { 'content-type': 'application/json', expires: new Date(now().getTime() + expiresInMs).toUTCString(), 'last-modified': lastModified };
    if (record.ifModifiedSince === lastModified) return send(304, { expires: headers.expires, 'last-modified': lastModified });
    const place = places.get(`${record.lat},${record.lon}`) ?? DEFAULT_PLACE;
    send(mode === 'deprecated' ? 203 : 200, headers, JSON.stringify(fakeForecast(now(), place, lat, lon, updatedAt)));
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const record: FakeWeatherRequest = {
      path: url.pathname + url.search,
      lat: url.searchParams.get('lat'),
      lon: url.searchParams.get('lon'),
      userAgent: req.headers['user-agent'],
      ifModifiedSince: req.headers['if-modified-since'],
      status: 0,
    };
    requests.push(record);
    open.add(res);
    res.on('close', () => open.delete(res));
    if (held) return void held.push(() => answer(req, res, record));
    answer(req, res, record);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setMode(next) {
      mode = next;
    },
    setPlace(location, place) {
      places.set(location, place);
    },
    update() {
      updatedAt = new Date(Math.max(updatedAt.getTime() + 1000, Math.floor(now().getTime() / 1000) * 1000));
    },
    setExpiresInMs(ms) {
      expiresInMs = ms;
    },
    hold() {
      held = [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const go of waiting) go();
    },
    reset() {
      mode = 'ok';
      expiresInMs = 30 * 60_000;
      places.clear();
      requests.length = 0;
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
