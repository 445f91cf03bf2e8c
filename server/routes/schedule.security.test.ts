import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../core/permissions';
import { scheduleResponseSchema, type Schedule } from '../../core/schedule';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { seedSchedule } from '../../testing/schedule-seed';
import { accountIdOf, inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/*
 * The schedule's and My days' refusals (docs/product.md, Schedule; docs/security.md, Roles):
 * signed out 401, a crew member 403 on the schedule with who can, bad and hostile queries 400
 * with the field named, and one team's bookings never in another's answers.
 */
let server: TestServer;
let mine: TestClient;
let theirs: TestClient;
let crew: Awaited<ReturnType<typeof inviteAndJoin>>;
let myJobs: number[];
let theirJobs: number[];
const FROM = '2026-06-01';

beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 } }) });
  const a = await registerClient(server);
  const b = await registerClient(server);
  mine = a.client;
  theirs = b.client;
  crew = await inviteAndJoin(server, mine, 'crew', { name: 'Sam Field' });
  myJobs = seedSchedule(server.db, { accountId: accountIdOf(server, a.account.username), crews: 2, bookings: 12, from: FROM, days: 14, waiting: 3, done: 2, now: server.clock.now() }).jobIds;
  theirJobs = seedSchedule(server.db, { accountId: accountIdOf(server, b.account.username), crews: 2, bookings: 12, from: FROM, days: 14, waiting: 3, done: 2, now: server.clock.now() }).jobIds;
}, 60_000);
afterAll(() => server.close());

const jobIdsOf = (schedule: Schedule) =>
  new Set([...schedule.crews.flatMap((c) => c.days.flatMap((d) => d.bookings)), ...schedule.unassigned.flatMap((u) => u.bookings), ...schedule.waiting].map((b) => b.jobId));

describe('GET /api/schedule', () => {
  it('is 401 signed out', async () => {
    const res = await new TestClient(server).get(`/api/schedule?from=${FROM}&days=7`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('UNAUTHORIZED');
  });

  it('is 403 for a crew member, with who can plan', async () => {
    const res = await crew.client.get(`/api/schedule?from=${FROM}&days=7`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 'ROLE_FORBIDDEN', message: AREAS.schedule.refusal });
  });

  it("shows each team only its own crews, bookings and waiting jobs", async () => {
    for (const [client, own, other] of [
      [mine, myJobs, theirJobs],
      [theirs, theirJobs, myJobs],
    ] as const) {
      const res = await client.get(`/api/schedule?from=${FROM}&days=42`);
      expect(res.status).toBe(200);
      const schedule = scheduleResponseSchema.strict().parse(await res.json()).schedule;
      const seen = jobIdsOf(schedule);
      expect(seen.size).toBe(15);
      for (const id of seen) expect(own).toContain(id);
      for (const id of other) expect(seen.has(id)).toBe(false);
    }
  });

  it.each([
    ['days=7', 'from'],
    ['from=2026-06-01&days=0', 'days'],
    ['from=2026-06-01&days=43', 'days'],
    ['from=2026-06-01&days=-1', 'days'],
    ['from=2026-06-01&days=1.5', 'days'],
    ['from=2026-06-01&days=seven', 'days'],
    ['from=2026-06-01&days=1e400', 'days'],
    ['from=2026-6-1&days=7', 'from'],
    ['from=2026-02-29&days=7', 'from'],
    ['from=1999-12-31&days=7', 'from'],
    ['from=01/06/2026&days=7', 'from'],
    ['from=2026-06-01T00:00&days=7', 'from'],
    ['from=%00&days=7', 'from'],
  ])('refuses ?%s with 400 naming %s', async (query, field) => {
    const res = await mine.get(`/api/schedule?${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; details: Record<string, string[]> };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.details)).toEqual([field]);
  });

  it('refuses a from of 10,000 characters with 400', async () => {
    const res = await mine.get(`/api/schedule?from=${'2'.repeat(10_000)}&days=7`);
    expect(res.status).toBe(400);
    expect(Object.keys(((await res.json()) as { details: Record<string, string[]> }).details)).toEqual(['from']);
  });

  it('takes the first of a repeated parameter, and ignores ones it does not know', async () => {
    const res = await mine.get(`/api/schedule?from=${FROM}&from=2099-01-01&days=2&days=40&crewId=1&accountId=2`);
    expect(res.status).toBe(200);
    const schedule = scheduleResponseSchema.parse(await res.json()).schedule;
    expect([schedule.from, schedule.days]).toEqual([FROM, 2]);
  });
});

describe('GET /api/my-days', () => {
  it('is 401 signed out', async () => {
    expect((await new TestClient(server).get('/api/my-days')).status).toBe(401);
  });

  it("never gives another team's bookings, whoever asks, and no money", async () => {
    // The seeded crews are each team's owner's; Sam is in none.
    for (const [client, own, other] of [
      [mine, myJobs, theirJobs],
      [theirs, theirJobs, myJobs],
      [crew.client, [], [...myJobs, ...theirJobs]],
    ] as const) {
      const res = await client.get(`/api/my-days?from=${FROM}&days=42`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toContain('£');
      expect(text).not.toMatch(/deposit|price|total|amount|pence|paid|owed/i);
      const seen = new Set((JSON.parse(text) as { days: { bookings: { jobId: number }[] }[] }).days.flatMap((d) => d.bookings.map((b) => b.jobId)));
      expect(seen.size).toBe(own.length === 0 ? 0 : 11);
      for (const id of seen) expect(own).toContain(id);
      for (const id of other) expect(seen.has(id)).toBe(false);
    }
  });

  it('refuses days out of 1 to 42 and a date that is not one', async () => {
    for (const query of ['days=0', 'days=43', 'from=2026-13-01', 'from=tomorrow']) {
      expect((await crew.client.get(`/api/my-days?${query}`)).status, query).toBe(400);
    }
  });
});
