import { percentile, timeInTurns, writeSection } from './lib';
import { registerClient, startTestServer } from '../testing/harness';
import { seedSchedule } from '../testing/schedule-seed';
import { accountIdOf } from '../testing/team';

/**
 * The schedule's read (docs/performance.md, The schedule): GET /api/schedule for 4 crews × 42
 * days with 300 bookings, against GET /api/jobs?status=booked of the same 300 jobs, in turns in
 * the same run (so the box's load falls on both alike), with the SQL statements each request
 * runs, counted at the driver. Goal: the schedule within GOAL_RATIO of the jobs list's median, and
 * its statements the same for 10 bookings as for 300 (the one query plan;
 * server/routes/schedule.plan.test.ts asserts it on every test run).
 *
 * Run: npm run bench -- schedule. Writes bench/results/schedule.md.
 */
const CREWS = 4;
const DAYS = 42;
const BOOKINGS = 300;
const FROM = '2026-06-01';
const WARMUP = 20;
const RUNS = Number(process.env.BENCH_SCHEDULE_RUNS ?? 200);
const GOAL_RATIO = 2;

const server = await startTestServer();
try {
  const teams = [];
  for (const bookings of [10, BOOKINGS]) {
    const { client, account } = await registerClient(server);
    seedSchedule(server.db, { accountId: accountIdOf(server, account.username), crews: CREWS, bookings, from: FROM, days: DAYS, waiting: 30, done: 60, now: server.clock.now() });
    teams.push({ bookings, client });
  }
  const busy = teams[1]!.client;
  const paths = { schedule: `/api/schedule?from=${FROM}&days=${DAYS}`, jobs: '/api/jobs?status=booked' } as const;

  /** The statements prepared while one request answers (after a first, unmeasured, that prepares the session's own). */
  async function statements(client: typeof busy, path: string): Promise<{ count: number; bytes: number }> {
    await client.get(path);
    const sqlite = server.db.$client;
    const prepare = sqlite.prepare.bind(sqlite);
    let count = 0;
    sqlite.prepare = ((source: string) => {
      count += 1;
      return prepare(source);
    }) as typeof sqlite.prepare;
    try {
      const res = await client.get(path);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return { count, bytes: (await res.arrayBuffer()).byteLength };
    } finally {
      sqlite.prepare = prepare;
    }
  }

  const counts = {
    schedule10: await statements(teams[0]!.client, paths.schedule),
    schedule300: await statements(busy, paths.schedule),
    jobs10: await statements(teams[0]!.client, paths.jobs),
    jobs300: await statements(busy, paths.jobs),
  };
  const times = await timeInTurns(WARMUP, RUNS, {
    schedule: async () => void (await (await busy.get(paths.schedule)).arrayBuffer()),
    jobs: async () => void (await (await busy.get(paths.jobs)).arrayBuffer()),
  });
  const median = (name: keyof typeof times) => percentile(times[name], 50);
  const p95 = (name: keyof typeof times) => percentile(times[name], 95);
  const ratio = median('schedule') / median('jobs');
  const onePlan = counts.schedule10.count === counts.schedule300.count;
  const met = ratio <= GOAL_RATIO && onePlan;
  const ms = (v: number) => v.toFixed(1);
  const body = `
${CREWS} crews × ${DAYS} days, ${BOOKINGS} bookings of one to three days (each with a tree and a typed line, an
accepted version, a deposit invoice on every third, a protected tree's record on every fifth), 30 accepted jobs
waiting and 60 done jobs behind the crews' pace; the requests in turns, ${WARMUP} warm-up then ${RUNS} each,
in process over HTTP on loopback (the harness's app on a SQLite file).

| Request | Median | p95 | Answer | Statements at 10 bookings | at 300 |
|---|---|---|---|---|---|
| \`GET ${paths.schedule}\` | ${ms(median('schedule'))} ms | ${ms(p95('schedule'))} ms | ${Math.round(counts.schedule300.bytes / 1024)} KiB | ${counts.schedule10.count} | ${counts.schedule300.count} |
| \`GET ${paths.jobs}\` (the same 300 jobs) | ${ms(median('jobs'))} ms | ${ms(p95('jobs'))} ms | ${Math.round(counts.jobs300.bytes / 1024)} KiB | ${counts.jobs10.count} | ${counts.jobs300.count} |

Schedule / jobs list, medians: **${ratio.toFixed(2)}x** (goal: at most ${GOAL_RATIO}x). One query plan: **${onePlan ? 'yes' : 'no'}**
(${counts.schedule10.count} statements for 10 bookings, ${counts.schedule300.count} for 300). ${met ? 'Within its goals.' : 'MISSED a goal.'}
`;
  writeSection('schedule', 'The schedule: GET /api/schedule against GET /api/jobs', body);
  console.log(body);
  process.exitCode = met ? 0 : 1;
} finally {
  await server.close();
}
