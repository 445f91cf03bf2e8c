import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobResponseSchema } from '../../core/jobs';
import { scheduleResponseSchema, type Schedule } from '../../core/schedule';
import { weatherCredit } from '../../core/weather';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { mailSettled } from '../../testing/mail';
import { acceptQuote, sendQuoteTo } from '../../testing/quote-links';
import { startFakePlanning, type FakePlanning } from '../../testing/fake-planning';
import { startFakeWeather, type FakeWeather, type FakeWeatherMode } from '../../testing/fake-weather';
import { inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/*
 * Wind against the kit on the schedule (docs/product.md, Schedule; docs/operations.md,
 * WEATHER_URL), over HTTP with the fake Locationforecast and the fake postcodes.io: a crew-day's
 * highest gust and rain at its sites, the warning naming the lowest limit passed, the credit; and
 * every way the service can fail leaves the board answering, without weather. The harness's clock
 * is Monday 1 June 2026, 10:00 in London.
 */

let server: TestServer;
let weather: FakeWeather;
let planning: FakePlanning;
let owner: TestClient;
let blue: number;

const TOMORROW = '2026-06-02';
/** LS6 2AB in the fake postcodes.io (53.819012, -1.571223), as the client asks MET: two decimals. */
const LEEDS = '53.82,-1.57';

beforeAll(async () => {
  planning = await startFakePlanning();
  // The fake's forecasts start at the app's clock (read once the server is up).
  weather = await startFakeWeather({ now: () => (server ? server.clock.now() : new Date('2026-06-01T09:00:00Z')) });
  server = await startTestServer(
    { WEATHER_URL: weather.url, POSTCODE_LOOKUP_URL: planning.url, PUBLIC_URL: 'https://trees.example.com', WEATHER_CONTACT: 'ops@trees.example.com', WEATHER_TIMEOUT_MS: '1000' },
    { rateLimits: new RateLimits({ registrationsPerAddress: { points: 100, windowSeconds: 3600 } }) },
  );
  ({ client: owner } = await registerClient(server, { firstName: 'Olive', lastName: 'Oakes' }));
  const sam = await inviteAndJoin(server, owner, 'crew', { name: 'Sam Field' });
  const made = await owner.post('/api/crews', { name: 'Blue crew', memberIds: [sam.memberId], equipment: [{ name: 'Tracked platform', kind: 'mewp' }] });
  expect(made.status).toBe(201);
  blue = ((await made.json()) as { crew: { id: number } }).crew.id;

  const job = await owner.post('/api/jobs', { customer: { name: 'Priya Shah', email: 'priya@example.com', siteAddress: '3 Elm Road, Leeds LS6 2AB' } });
  const { id } = jobResponseSchema.parse(await job.json()).job;
  expect((await owner.post(`/api/jobs/${id}/lines`, { description: 'Reduce the sycamore by a third', price: '400' })).status).toBe(201);
  const { token } = await sendQuoteTo(server, owner, id, 'priya@example.com');
  expect((await acceptQuote(server, token, [], true)).status).toBe(200);
  const booked = await owner.post(`/api/jobs/${id}/book`, { date: TOMORROW, crewId: blue });
  expect(booked.status, await booked.clone().text()).toBe(200);
  await mailSettled(server);
});

afterAll(async () => {
  await server.close();
  await weather.close();
  await planning.close();
});

async function blueTomorrow(): Promise<{ schedule: Schedule; weather: Schedule['crews'][number]['days'][number]['weather'] }> {
  const res = await owner.get(`/api/schedule?from=${TOMORROW}&days=7`);
  expect(res.status).toBe(200);
  const schedule = scheduleResponseSchema.strict().parse(await res.json()).schedule;
  const day = schedule.crews.find((c) => c.id === blue)!.days.find((d) => d.date === TOMORROW)!;
  expect(day.bookings).toHaveLength(1);
  return { schedule, weather: day.weather };
}

describe('wind against the kit', () => {
  it('answers without weather, and quickly, whichever way the forecast service fails', async () => {
    const modes: FakeWeatherMode[] = ['down', 'not_json', 'wrong_shape', 'huge', 'slow', 'throttled'];
    for (const mode of modes) {
      weather.setMode(mode);
      const { schedule, weather: found } = await blueTomorrow();
      expect(found, mode).toBeUndefined();
      expect(schedule.weatherCredit, mode).toBeNull();
      // It was asked, and failed as asked (no answer at all while slow).
      expect(weather.requests.length, mode).toBeGreaterThanOrEqual(1);
      // A failure keeps that place (a 429 every place) alone for a while: the next mode is asked after it.
      server.clock.advance(16 * 60_000);
      weather.reset();
    }
  });

  it("gives the crew-day's gusts and rain, warns past the MEWP's and the climbing limit, and credits MET Norway", async () => {
    weather.setPlace(LEEDS, { gustMs: 15, windMs: 8, rainPerHourMm: 0.5 });
    const { schedule, weather: found } = await blueTomorrow();
    expect(found).toMatchObject({ gustMs: 15, warning: "Gusts to 15 m/s (34 mph) forecast; your MEWP's limit is 12.5 m/s; the climbing limit is 10.7 m/s" });
    expect(found!.rainMm).toBeGreaterThan(0);
    expect(schedule.weatherCredit).toBe(weatherCredit);
    // Days with no bookings are not asked for, and the days past the forecast's reach carry none.
    expect(schedule.crews[0]!.days.filter((d) => d.weather).map((d) => d.date)).toEqual([TOMORROW]);
    const agent = weather.requests.at(-1)!;
    expect(agent.userAgent).toContain('ops@trees.example.com');
  });

  it('gives a calm day its figures and no warning, from the next run of the model', async () => {
    server.clock.advance(2 * 3_600_000);
    weather.update();
    weather.setPlace(LEEDS, { gustMs: 9, windMs: 4, rainPerHourMm: 0 });
    const { weather: found } = await blueTomorrow();
    expect(found).toEqual({ gustMs: 9, rainMm: 0 });
  });
});
