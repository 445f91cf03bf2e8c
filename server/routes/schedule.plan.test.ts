import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleResponseSchema } from '../../core/schedule';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { seedSchedule } from '../../testing/schedule-seed';
import { accountIdOf } from '../../testing/team';

/*
 * The schedule's one query plan (docs/performance.md, The schedule): GET /api/schedule runs the
 * same number of SQL statements for a team with 10 bookings as for one with 300 (4 crews × 42
 * days), so nothing is asked per booking, per job or per crew-day. Counted at the driver: every
 * statement drizzle runs is prepared on the better-sqlite3 connection first.
 */

let server: TestServer;
const teams: Record<'small' | 'busy', TestClient> = {} as never;
const FROM = '2026-06-01';

beforeAll(async () => {
  server = await startTestServer();
  for (const [name, bookings] of [['small', 10], ['busy', 300]] as const) {
    const { client, account } = await registerClient(server);
    seedSchedule(server.db, { accountId: accountIdOf(server, account.username), crews: 4, bookings, from: FROM, days: 42, waiting: bookings / 10, done: bookings / 5, now: server.clock.now() });
    teams[name] = client;
  }
}, 60_000);
afterAll(() => server.close());

/** The statements prepared while `run` answers, after one call unmeasured (the session's own read is prepared once, on a first request). */
async function statementsOf(run: () => Promise<Response>): Promise<{ count: number; sources: string[]; body: unknown }> {
  expect((await run()).status).toBe(200);
  const client = server.db.$client;
  const prepare = client.prepare.bind(client);
  const sources: string[] = [];
  client.prepare = ((source: string) => {
    sources.push(source);
    return prepare(source);
  }) as typeof client.prepare;
  try {
    const res = await run();
    expect(res.status).toBe(200);
    return { count: sources.length, sources, body: await res.json() };
  } finally {
    client.prepare = prepare;
  }
}

describe('GET /api/schedule', () => {
  it('runs as many statements for 300 bookings as for 10', async () => {
    const small = await statementsOf(() => teams.small.get(`/api/schedule?from=${FROM}&days=42`));
    const busy = await statementsOf(() => teams.busy.get(`/api/schedule?from=${FROM}&days=42`));
    const bookingsOf = (body: unknown) => {
      const { schedule } = scheduleResponseSchema.parse(body);
      return new Set([...schedule.crews.flatMap((c) => c.days.flatMap((d) => d.bookings)), ...schedule.unassigned.flatMap((u) => u.bookings)].map((b) => b.jobId)).size;
    };
    expect(bookingsOf(small.body)).toBe(10);
    expect(bookingsOf(busy.body)).toBe(300);
    expect(busy.sources).toEqual(small.sources);
    // The settings, crews, jobs, acceptances, holds, deposits, estimates (two here: every job is accepted) and pace, and no more.
    expect(busy.count).toBeLessThanOrEqual(12);
  });

  it('and My days likewise', async () => {
    const small = await statementsOf(() => teams.small.get(`/api/my-days?from=${FROM}&days=42`));
    const busy = await statementsOf(() => teams.busy.get(`/api/my-days?from=${FROM}&days=42`));
    expect(busy.sources).toEqual(small.sources);
  });
});
