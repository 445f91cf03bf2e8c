import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../core/job-booking';
import { crewDayWeather } from '../../core/weather';
import { migrateDatabase, openDatabase, type Db } from '../../db/client';
import { postcodeLocations, weatherForecasts } from '../../db/schema';
import { startFakePlanning, type FakePlanning } from '../../testing/fake-planning';
import { startFakeWeather, type FakeWeather, type FakeWeatherMode } from '../../testing/fake-weather';
import { TestClock } from '../../testing/harness';
import { loadConfig, type Config } from '../config';
import { createLogger, type Logger } from '../log';
import { FORECASTS_MAX, STALE_MS } from './forecasts';
import { LOCATION_FRESH_DAYS, siteLocation } from './site-location';
import { weatherForSites, weatherKey } from './weather';

/*
 * The schedule's weather against the fake Locationforecast and the fake postcode service, on a real
 * SQLite file with the real migrations: the forecasts, MET Norway's terms (User-Agent, decimals,
 * Expires, If-Modified-Since, one ask per location), and each failure leaving no weather.
 */

let planning: FakePlanning;
let weather: FakeWeather;
let clock = new TestClock(new Date('2026-06-01T05:00:00Z'));

beforeAll(async () => {
  planning = await startFakePlanning();
  weather = await startFakeWeather({ now: () => clock.now() });
});

afterAll(async () => {
  await weather.close();
  await planning.close();
});

interface Deps {
  db: Db;
  config: Config;
  clock: TestClock;
  logger: Logger;
  logs: Record<string, unknown>[];
  dataDir: string;
}

const opened: Deps[] = [];

/** Deps of one install: a fresh data folder, or `dataDir` again (a restart: the same database, nothing kept in memory). */
function install(env: Record<string, string> = {}, dataDir = mkdtempSync(join(tmpdir(), 'treeanalyzer-weather-'))): Deps {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'https://trees.example.com',
    WEATHER_CONTACT: 'ops@trees.example.com',
    WEATHER_URL: weather.url,
    POSTCODE_LOOKUP_URL: planning.url,
    WEATHER_TIMEOUT_MS: '2000',
    ...env,
  });
  const db = openDatabase(config.databaseFile);
  migrateDatabase(db, config.migrationsDir);
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) } });
  const deps = { db, config, clock, logger, logs, dataDir };
  opened.push(deps);
  return deps;
}

afterEach(() => {
  const dirs = new Set<string>();
  for (const deps of opened.splice(0)) {
    deps.db.$client.close();
    dirs.add(deps.dataDir);
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  weather.reset();
  planning.requests.length = 0;
  clock = new TestClock(new Date('2026-06-01T05:00:00Z'));
});

const tomorrow = () => addDays(ukToday(clock.now()), 1);
const postcodeAsks = () => planning.requests.filter((path) => path.startsWith('/postcodes/'));
const warnings = (deps: Deps, msg: string) => deps.logs.filter((line) => line.msg === msg);

describe('weatherForSites', () => {
  it("gives each site's highest gust and its rain over the day's working hours, asking as MET Norway's terms say", async () => {
    const deps = install();
    // BS8 4AA's centre (51.455913, -2.620437) goes out as 51.46,-2.62.
    weather.setPlace('51.46,-2.62', { gustMs: (time) => (time.getUTCHours() === 12 ? 15 : 8), rainPerHourMm: 0.5 });
    const date = tomorrow();
    const figures = await weatherForSites(deps, [{ postcode: 'bs84aa', date }, { postcode: 'LS6 2AB', date, startTime: '10:00', minutes: 120 }]);
    expect(figures.get(weatherKey('BS8 4AA', date))).toEqual({ gustMs: 15, rainMm: 4.5 });
    expect(figures.get(weatherKey('LS6 2AB', date))).toEqual({ gustMs: 6, rainMm: 0 });
    expect(weather.requests).toHaveLength(2);
    for (const request of weather.requests) {
      expect(request.path).toMatch(/^\/complete\?lat=-?\d+(\.\d{1,4})?&lon=-?\d+(\.\d{1,4})?$/);
      expect(request.userAgent).toBe('TreeAnalyzerPro/0.1.0 https://trees.example.com ops@trees.example.com');
      expect(request.ifModifiedSince).toBeUndefined();
    }
    expect(weather.requests.map((r) => `${r.lat},${r.lon}`).sort()).toEqual(['51.46,-2.62', '53.82,-1.57']);
  });

  it('warns in the words of the board against a MEWP and the climbing limit', async () => {
    const deps = install();
    weather.setPlace('51.46,-2.62', { gustMs: 15 });
    const date = tomorrow();
    const figures = await weatherForSites(deps, [{ postcode: 'BS8 4AA', date }]);
    const day = crewDayWeather([figures.get(weatherKey('BS8 4AA', date))], [{ name: 'Niftylift', kind: 'mewp' }], 10.7);
    expect(day?.warning).toBe("Gusts to 15 m/s (34 mph) forecast; your MEWP's limit is 12.5 m/s; the climbing limit is 10.7 m/s");
  });

  it('keeps the forecast until its Expires, across a restart, then asks with If-Modified-Since and keeps it on a 304', async () => {
    const deps = install();
    const date = tomorrow();
    const first = await weatherForSites(deps, [{ postcode: 'GL50 1QA', date }]);
    expect(weather.requests).toHaveLength(1);
    expect(postcodeAsks()).toHaveLength(1);

    // Again, and again after a restart on the same database: nothing asked.
    expect(await weatherForSites(deps, [{ postcode: 'GL50 1QA', date }])).toEqual(first);
    const restarted = install({}, deps.dataDir);
    expect(await weatherForSites(restarted, [{ postcode: 'GL50 1QA', date }])).toEqual(first);
    expect(weather.requests).toHaveLength(1);
    expect(postcodeAsks()).toHaveLength(1);

    // Past its Expires: asked again with the Last-Modified as sent; the 304 keeps the series.
    clock.advance(31 * 60_000);
    expect(await weatherForSites(restarted, [{ postcode: 'GL50 1QA', date }])).toEqual(first);
    expect(weather.requests).toHaveLength(2);
    expect(weather.requests[1]!.ifModifiedSince).toMatch(/GMT$/);
    expect(weather.requests[1]!.status).toBe(304);
    // The 304's Expires holds: not asked again.
    await weatherForSites(restarted, [{ postcode: 'GL50 1QA', date }]);
    expect(weather.requests).toHaveLength(2);

    // A new run of the model: the next ask gets it.
    weather.update();
    weather.setPlace('51.89,-2.08', { gustMs: 19 });
    clock.advance(31 * 60_000);
    expect((await weatherForSites(restarted, [{ postcode: 'GL50 1QA', date }])).get(weatherKey('GL50 1QA', date))?.gustMs).toBe(19);
    expect(weather.requests.map((r) => r.status)).toEqual([200, 304, 200]);
    const row = restarted.db.select().from(weatherForecasts).get()!;
    expect(row).toMatchObject({ location: '51.89,-2.08', latitude: 51.89, longitude: -2.08 });
    expect(row.expiresAt.getTime()).toBe(clock.now().getTime() + 30 * 60_000 - (clock.now().getTime() % 1000));
    expect(Object.keys(row.series[0]!).sort()).toEqual(['gustMs', 'rain1hMm', 'rain6hMm', 'time', 'windMs']);
  });

  it('asks once per location and once per postcode however many ask at once', async () => {
    const deps = install();
    const date = tomorrow();
    weather.hold();
    const asks = Array.from({ length: 6 }, (_, i) => weatherForSites(deps, [{ postcode: 'BS8 4AA', date: addDays(date, i % 3) }, { postcode: 'bs8 4aa', date }]));
    await new Promise((resolve) => setTimeout(resolve, 100));
    weather.release();
    const answers = await Promise.all(asks);
    for (const answer of answers) expect(answer.get(weatherKey('BS8 4AA', date))).toBeDefined();
    expect(weather.requests).toHaveLength(1);
    expect(postcodeAsks()).toHaveLength(1);
  });

  it('asks nothing for days before today or beyond the forecast, and has no weather for them', async () => {
    const deps = install();
    const today = ukToday(clock.now());
    const answer = await weatherForSites(deps, [
      { postcode: 'BS8 4AA', date: addDays(today, -1) },
      { postcode: 'BS8 4AA', date: addDays(today, 14) },
      { postcode: null, date: today },
      { postcode: 'not a postcode', date: today },
    ]);
    expect(answer.size).toBe(0);
    expect(weather.requests).toHaveLength(0);
    expect(postcodeAsks()).toHaveLength(0);
    // Nine days ahead the steps are six hours apart; the tenth is past the forecast's end.
    const far = await weatherForSites(deps, [{ postcode: 'BS8 4AA', date: addDays(today, 8) }, { postcode: 'BS8 4AA', date: addDays(today, 10) }]);
    expect(far.get(weatherKey('BS8 4AA', addDays(today, 8)))).toEqual({ gustMs: 6, rainMm: 0 });
    expect(far.has(weatherKey('BS8 4AA', addDays(today, 10)))).toBe(false);
  });

  it.each<FakeWeatherMode>(['down', 'slow', 'huge', 'not_json', 'wrong_shape', 'throttled'])('leaves no weather and throws nothing when the service is %s', async (mode) => {
    // A short deadline, so the slow service is given up on soon.
    const deps = install({ WEATHER_TIMEOUT_MS: '1000' });
    weather.setMode(mode);
    const date = tomorrow();
    // It answers at all: the slow service never does, so without the deadline this would hang
    // until the test's own time ran out (no verdict on the wall clock: the box may be loaded).
    const answer = await weatherForSites(deps, [{ postcode: 'BS8 4AA', date }, { postcode: 'LS6 2AB', date }]);
    expect(answer.size).toBe(0);
    expect(deps.db.select({ n: count() }).from(weatherForecasts).get()?.n).toBe(0);
    const logged = warnings(deps, 'weather forecast unavailable');
    expect(logged.length).toBeGreaterThanOrEqual(1);
    expect(logged.length).toBeLessThanOrEqual(2);
    // Not asked again at once: a failed location waits, and a 429 pauses every ask.
    const asked = weather.requests.length;
    weather.setMode('ok');
    expect((await weatherForSites(deps, [{ postcode: 'BS8 4AA', date }, { postcode: 'GL50 1QA', date }])).size).toBe(mode === 'throttled' ? 0 : 1);
    expect(weather.requests.length).toBe(asked + (mode === 'throttled' ? 0 : 1));
    expect(warnings(deps, 'weather forecast unavailable')).toHaveLength(logged.length);
  });

  it('keeps using a forecast a few hours old when the service fails, and not one older', async () => {
    const deps = install();
    const date = tomorrow();
    const first = await weatherForSites(deps, [{ postcode: 'BS8 4AA', date }]);
    weather.setMode('down');
    clock.advance(60 * 60_000);
    expect(await weatherForSites(deps, [{ postcode: 'BS8 4AA', date }])).toEqual(first);
    clock.advance(STALE_MS);
    expect((await weatherForSites(deps, [{ postcode: 'BS8 4AA', date }])).size).toBe(0);
  });

  it('takes a 203 (a deprecated version) and logs it once', async () => {
    const deps = install();
    weather.setMode('deprecated');
    const date = tomorrow();
    expect((await weatherForSites(deps, [{ postcode: 'BS8 4AA', date }, { postcode: 'LS6 2AB', date }])).size).toBe(2);
    expect(deps.logs.filter((line) => String(line.msg).includes('203'))).toHaveLength(1);
  });

  it('is off with WEATHER=off, and under NODE_ENV=test without the fakes', async () => {
    const date = tomorrow();
    for (const env of [{ WEATHER: 'off' }, { WEATHER_URL: '' }, { POSTCODE_LOOKUP_URL: '' }] as Record<string, string>[]) {
      const deps = install(env);
      expect(deps.config.weather.on).toBe(false);
      expect((await weatherForSites(deps, [{ postcode: 'BS8 4AA', date }])).size).toBe(0);
    }
    expect(weather.requests).toHaveLength(0);
    expect(postcodeAsks()).toHaveLength(0);
  });

  it('keeps at most FORECASTS_MAX locations, and drops those not fetched for two days', async () => {
    const deps = install();
    const old = new Date(clock.now().getTime() - 3 * 86_400_000);
    const rows = Array.from({ length: FORECASTS_MAX + 10 }, (_, i) => ({ location: `1.${i},1`, latitude: 1, longitude: 1, series: [], expiresAt: clock.now(), lastModified: null, fetchedAt: i < 5 ? old : new Date(clock.now().getTime() - 60_000 - i) }));
    for (let i = 0; i < rows.length; i += 200) deps.db.insert(weatherForecasts).values(rows.slice(i, i + 200)).run();
    await weatherForSites(deps, [{ postcode: 'BS8 4AA', date: tomorrow() }]);
    const kept = deps.db.select({ location: weatherForecasts.location }).from(weatherForecasts).all().map((r) => r.location);
    expect(kept).toHaveLength(FORECASTS_MAX);
    expect(kept).toContain('51.46,-2.62');
    expect(kept).not.toContain('1.0,1');
    expect(kept).not.toContain(`1.${FORECASTS_MAX + 9},1`);
  });
});

describe('siteLocation', () => {
  it("keeps a postcode's centre for 90 days, and an unknown postcode for a day", async () => {
    const deps = install();
    expect(await siteLocation(deps, 'ls62ab')).toEqual({ latitude: 53.819012, longitude: -1.571223 });
    expect(await siteLocation(deps, 'LS6 2AB')).toEqual({ latitude: 53.819012, longitude: -1.571223 });
    expect(postcodeAsks()).toHaveLength(1);
    expect(deps.db.select().from(postcodeLocations).all()).toEqual([{ postcode: 'LS6 2AB', latitude: 53.819012, longitude: -1.571223, lookedUpAt: clock.now() }]);
    clock.advance(LOCATION_FRESH_DAYS * 86_400_000);
    await siteLocation(deps, 'LS6 2AB');
    expect(postcodeAsks()).toHaveLength(2);

    expect(await siteLocation(deps, 'SW1A 1AA')).toBeNull();
    expect(await siteLocation(deps, 'SW1A 1AA')).toBeNull();
    expect(postcodeAsks()).toHaveLength(3);
    clock.advance(86_400_000);
    await siteLocation(deps, 'SW1A 1AA');
    expect(postcodeAsks()).toHaveLength(4);
  });

  it('keeps the centre it had when the postcode service is down, and asks nothing for text that is not a postcode', async () => {
    const deps = install();
    await siteLocation(deps, 'GL50 1QA');
    clock.advance(LOCATION_FRESH_DAYS * 86_400_000);
    planning.setMode('postcodes', 'down');
    try {
      expect(await siteLocation(deps, 'GL50 1QA')).toEqual({ latitude: 51.894671, longitude: -2.083201 });
    } finally {
      planning.setMode('postcodes', 'ok');
    }
    expect(await siteLocation(deps, 'x'.repeat(5000))).toBeNull();
    expect(postcodeAsks()).toHaveLength(2);
  });
});

describe('the fake', () => {
  it('refuses a request without an identifying User-Agent, as MET Norway does', async () => {
    const res = await fetch(`${weather.url}/complete?lat=51.46&lon=-2.62`);
    expect(res.status).toBe(403);
  });
});
