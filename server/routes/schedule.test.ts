import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalWindow } from '../../core/arrival-window';
import { cancellationPeriodMessage, cancellationPeriodOf } from '../../core/cancellation-period';
import { jobResponseSchema } from '../../core/jobs';
import { protectionNoticeMessage } from '../../core/protection';
import { myDaysResponseSchema, scheduleResponseSchema, type CrewDay, type Schedule } from '../../core/schedule';
import { crews as crewsTable, jobItems, jobs, treeAnalyses } from '../../db/schema';
import { grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { analysisIdOf } from '../../testing/jobs';
import { addressedTo, decodeQuotedPrintable, mailSettled, outboxMessages } from '../../testing/mail';
import { acceptQuote, BIRCH_PROFILE, sendQuoteTo } from '../../testing/quote-links';
import { inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/*
 * The schedule over HTTP (docs/product.md, Schedule): crews as rows, days as columns, each
 * booking on each of its days ("day 2 of 3"), its estimated minutes from the trees' time ranges
 * against the crew's capacity, the unassigned row, the waiting tray with the holds and deposit
 * states, and the calendar's days (weekends, a day off, Christmas Day); then My days, where a crew
 * member sees their crew's bookings and nothing about money. The clock is the harness's,
 * Monday 1 June 2026.
 */

let server: TestServer;
let owner: TestClient;
let sam: Awaited<ReturnType<typeof inviteAndJoin>>;
let kit: Awaited<ReturnType<typeof inviteAndJoin>>;
let pat: Awaited<ReturnType<typeof inviteAndJoin>>;
let ana: Awaited<ReturnType<typeof inviteAndJoin>>;
let blue: number;
let green: number;
const ids: Record<'long' | 'second' | 'loose' | 'green' | 'heavy' | 'inPeriod' | 'protected', number> = {} as never;

/** A job of trees (new analyses from `descriptions`) and typed lines, sent and accepted; its id. */
async function acceptedJob(name: string, opts: { trees?: string[]; lines?: string[]; startEarly?: boolean; siteAddress?: string }): Promise<number> {
  const analysisIds: number[] = [];
  for (const description of opts.trees ?? []) analysisIds.push(await analysisIdOf(owner, description));
  const made = await owner.post('/api/jobs', { analysisIds, customer: { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com`, siteAddress: opts.siteAddress ?? '3 Elm Road, Leeds LS6 2AB' } });
  expect(made.status, await made.clone().text()).toBe(201);
  const { id } = jobResponseSchema.parse(await made.json()).job;
  for (const line of opts.lines ?? []) expect((await owner.post(`/api/jobs/${id}/lines`, { description: line, price: '200' })).status).toBe(201);
  const { token } = await sendQuoteTo(server, owner, id, `${name.split(' ')[0]!.toLowerCase()}@example.com`);
  expect((await acceptQuote(server, token, [], opts.startEarly ?? true)).status).toBe(200);
  await mailSettled(server);
  return id;
}

async function book(jobId: number, date: string, days = 1, crewId: number | null = null): Promise<void> {
  const res = await owner.post(`/api/jobs/${jobId}/book`, { date, startTime: '08:00', days, ...(crewId !== null && { crewId }) });
  expect(res.status, await res.clone().text()).toBe(200);
  await mailSettled(server);
}

/** A job's estimated minutes as its trees' analyses give them. */
function treeMinutes(jobId: number): { min: number; max: number } {
  const rows = server.db
    .select({ a: treeAnalyses })
    .from(jobItems)
    .innerJoin(treeAnalyses, eq(treeAnalyses.id, jobItems.analysisId))
    .where(eq(jobItems.jobId, jobId))
    .all();
  return rows.reduce(
    (sum, { a }) => ({
      min: sum.min + (a.cuttingTimeMin ?? 0) + (a.prepTimeMin ?? 0) + (a.cleanupTimeMin ?? 0),
      max: sum.max + (a.cuttingTimeMax ?? 0) + (a.prepTimeMax ?? 0) + (a.cleanupTimeMax ?? 0),
    }),
    { min: 0, max: 0 },
  );
}

async function scheduleOf(client: TestClient, query: string): Promise<Schedule> {
  const res = await client.get(`/api/schedule?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return scheduleResponseSchema.strict().parse(await res.json()).schedule;
}

const dayOf = (schedule: Schedule, crewId: number, date: string): CrewDay => schedule.crews.find((c) => c.id === crewId)!.days.find((d) => d.date === date)!;

beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 } }) });
  const registered = await registerClient(server, { firstName: 'Olive', lastName: 'Oakes' });
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
  expect((await owner.request('PATCH', '/api/system-settings', { companyProfile: BIRCH_PROFILE, hourlyRate: '90' })).status).toBe(200);
  sam = await inviteAndJoin(server, owner, 'crew', { name: 'Sam Field' });
  kit = await inviteAndJoin(server, owner, 'crew', { name: 'Kit Moss' });
  pat = await inviteAndJoin(server, owner, 'crew', { name: 'Pat Green' });
  ana = await inviteAndJoin(server, owner, 'office', { name: 'Ana Ruiz' });
  const made = async (body: unknown) => ((await (await owner.post('/api/crews', body)).json()) as { crew: { id: number } }).crew.id;
  blue = await made({ name: 'Blue crew', colour: '#2f7d32', memberIds: [sam.memberId, kit.memberId] });
  green = await made({ name: 'Green crew', memberIds: [pat.memberId], dayHours: 6 });

  ids.long = await acceptedJob('Priya Shah', { trees: ['oak, 16 inch trunk, 40 ft tall, next to the shed, side gate'], lines: ['Take the wood away'] });
  ids.second = await acceptedJob('Tom Reed', { trees: ['birch, 10 inch trunk, 25 ft, over the fence, side gate'] });
  ids.loose = await acceptedJob('Una Lowe', { lines: ['Trim the hedge'] });
  ids.green = await acceptedJob('Gil Hart', { lines: ['Crown lift the sycamore'] });
  ids.heavy = await acceptedJob('Hal Stone', { trees: ['oak, about 30 inch trunk, 60 ft, next to the garage, power line overhead'] });
  ids.inPeriod = await acceptedJob('Ivy Dean', { lines: ['Fell the leylandii'], startEarly: false });
  ids.protected = await acceptedJob('Pip Rowe', { lines: ['Reduce the lime'] });

  // Tue 2 June for 3 days on Blue; a second job on Blue on its second day; one on no crew; one on Green; an overload on Green.
  await book(ids.long, '2026-06-02', 3, blue);
  await book(ids.second, '2026-06-03', 1, blue);
  await book(ids.loose, '2026-06-02', 1);
  await book(ids.green, '2026-06-04', 1, green);
  await book(ids.heavy, '2026-06-05', 1, green);

  // A section 211 notice sent today holds the protected job six weeks.
  expect((await owner.request('PUT', `/api/jobs/${ids.protected}/protection/record`, { outcome: 's211_notice_sent', on: '2026-06-01' })).status).toBe(200);
  // Deposits: the job in its period asked one and it is not paid; the protected one paid it.
  const deposit = async (jobId: number, pay: boolean) => {
    const drafted = (await (await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'deposit', percent: 20 })).json()) as { invoice: { id: number } };
    const issued = await owner.post(`/api/invoices/${drafted.invoice.id}/issue`);
    expect(issued.status, await issued.clone().text()).toBe(200);
    const { invoice } = (await issued.json()) as { invoice: { owed: string } };
    if (pay) expect((await owner.post(`/api/invoices/${drafted.invoice.id}/payments`, { amount: invoice.owed, paidOn: '2026-06-01', method: 'bank_transfer' })).status).toBe(201);
    await mailSettled(server);
  };
  await deposit(ids.inPeriod, false);
  await deposit(ids.protected, true);
  await deposit(ids.long, true);
  // Friday 5 June is not the day off; Wednesday 24 December is.
  expect((await owner.request('PATCH', '/api/system-settings', { daysOff: ['2026-12-24'] })).status).toBe(200);
}, 120_000);
afterAll(() => server.close());

describe('GET /api/schedule', () => {
  it('puts each booking on its crew and each of its days, "day 2 of 3", with the estimate split over the days', async () => {
    const schedule = await scheduleOf(owner, 'from=2026-06-01&days=7');
    expect(schedule.from).toBe('2026-06-01');
    expect(schedule.days).toBe(7);
    expect(schedule.crews.map((c) => [c.name, c.colour])).toEqual([
      ['Blue crew', '#2f7d32'],
      ['Green crew', null],
    ]);
    const total = treeMinutes(ids.long);
    expect(total.min).toBeGreaterThan(0);
    const longDays = ['2026-06-02', '2026-06-03', '2026-06-04'].map((date) => dayOf(schedule, blue, date).bookings.find((b) => b.jobId === ids.long)!);
    expect(longDays.map((b) => [b.date, b.dayNumber, b.days, b.dayLabel, b.firstDay])).toEqual([
      ['2026-06-02', 1, 3, 'day 1 of 3', '2026-06-02'],
      ['2026-06-03', 2, 3, 'day 2 of 3', '2026-06-02'],
      ['2026-06-04', 3, 3, 'day 3 of 3', '2026-06-02'],
    ]);
    // Whole minutes that add up to the job's estimate; the typed line adds nothing.
    expect(longDays.reduce((s, b) => s + b.estimatedMinutes.min, 0)).toBe(total.min);
    expect(longDays.reduce((s, b) => s + b.estimatedMinutes.max, 0)).toBe(total.max);
    for (const b of longDays) expect(Math.abs(b.estimatedMinutes.min - total.min / 3)).toBeLessThan(1);
    const first = longDays[0]!;
    expect(first).toMatchObject({ reference: expect.stringMatching(/^Q-/), customerName: 'Priya Shah', postcode: 'LS6 2AB', siteAddress: '3 Elm Road, Leeds LS6 2AB', crewId: blue, startTime: '08:00', deposit: 'paid', holds: [], arrivalWindow: null });
    expect(dayOf(schedule, blue, '2026-06-05').bookings).toEqual([]);
    expect(dayOf(schedule, blue, '2026-06-05').overrunChance).toBeNull();
  });

  it("gives the second job of a crew's day its arrival window from the first's minutes over the crew's members", async () => {
    const schedule = await scheduleOf(owner, 'from=2026-06-03&days=1');
    const day = dayOf(schedule, blue, '2026-06-03');
    expect(day.bookings.map((b) => b.jobId)).toEqual([ids.long, ids.second]);
    expect(day.bookings[0]!.arrivalWindow).toBeNull();
    expect(day.bookings[1]!.arrivalWindow).toEqual(arrivalWindow('08:00', [day.bookings[0]!.estimatedMinutes], 2));
    expect(day.bookings[1]!.arrivalWindow!.from >= '08:00').toBe(true);
    // Tom Reed's booking e-mail said the same window instead of the crew's start.
    const { from, to } = day.bookings[1]!.arrivalWindow!;
    const mail = outboxMessages(server.dataDir)
      .map((m) => decodeQuotedPrintable(m.raw))
      .find((raw) => addressedTo(raw, 'tom@example.com') && raw.includes('Your tree work is booked'));
    expect(mail).toContain(`arriving between ${from} and ${to}`);
    expect(day.bookings[1]).toMatchObject({ dayLabel: null, deposit: 'none' });
    // The day's planned minutes are its bookings' shares, against two people's eight hours.
    expect(day.plannedMinutes).toEqual({
      min: day.bookings.reduce((s, b) => s + b.estimatedMinutes.min, 0),
      max: day.bookings.reduce((s, b) => s + b.estimatedMinutes.max, 0),
    });
    expect(day.capacityMinutes).toBe(2 * 480);
    expect(day.over).toBe(false);
    expect(day.overrunChance).toBeGreaterThanOrEqual(0);
    expect(day.overrunChance).toBeLessThan(0.5);
  });

  it('marks a crew-day over its capacity when the low end passes it', async () => {
    const schedule = await scheduleOf(owner, 'from=2026-06-04&days=2');
    const light = dayOf(schedule, green, '2026-06-04');
    expect(light).toMatchObject({ capacityMinutes: 360, over: false, plannedMinutes: { min: 0, max: 0 }, overrunChance: 0 });
    const heavy = dayOf(schedule, green, '2026-06-05');
    expect(heavy.bookings.map((b) => b.jobId)).toEqual([ids.heavy]);
    expect(heavy.plannedMinutes).toEqual(treeMinutes(ids.heavy));
    expect(heavy.plannedMinutes.min).toBeGreaterThan(360);
    expect(heavy).toMatchObject({ capacityMinutes: 360, over: true, overrunChance: 1 });
  });

  it('lists the bookings on no crew by day', async () => {
    const schedule = await scheduleOf(owner, 'from=2026-06-01&days=3');
    expect(schedule.unassigned.map((u) => [u.date, u.bookings.map((b) => b.jobId)])).toEqual([
      ['2026-06-01', []],
      ['2026-06-02', [ids.loose]],
      ['2026-06-03', []],
    ]);
    expect(schedule.unassigned[1]!.bookings[0]).toMatchObject({ crewId: null, arrivalWindow: null, estimatedMinutes: { min: 0, max: 0 } });
  });

  it('lists the accepted jobs waiting, with their earliest start, holds in words and deposit state', async () => {
    const schedule = await scheduleOf(owner, 'from=2026-06-01&days=7');
    expect(schedule.waiting.map((w) => w.jobId)).toEqual([ids.inPeriod, ids.protected]);
    const [inPeriod, protectedJob] = schedule.waiting;
    const period = cancellationPeriodOf(server.clock.now());
    expect(period.firstDay).toBe('2026-06-16');
    expect(inPeriod).toMatchObject({
      customerName: 'Ivy Dean',
      earliestStart: '2026-06-16',
      holds: [{ kind: 'cancellation_period', until: '2026-06-16', sentence: cancellationPeriodMessage(period) }],
      deposit: 'unpaid',
      estimatedMinutes: { min: 0, max: 0 },
    });
    expect(protectedJob).toMatchObject({
      customerName: 'Pip Rowe',
      earliestStart: '2026-07-13',
      holds: [{ kind: 'protection', until: '2026-07-13', sentence: protectionNoticeMessage({ earliestStart: '2026-07-13', missing: [] }) }],
      deposit: 'paid',
    });
    expect(protectedJob!.acceptedAt).toBe(server.clock.now().toISOString());
  });

  it("marks each date's kind: weekends, the team's day off, and the bank holidays by name", async () => {
    const week = await scheduleOf(owner, 'from=2026-06-01&days=7');
    expect(week.dates.map((d) => [d.date, d.kind, d.today])).toEqual([
      ['2026-06-01', 'working', true],
      ['2026-06-02', 'working', false],
      ['2026-06-03', 'working', false],
      ['2026-06-04', 'working', false],
      ['2026-06-05', 'working', false],
      ['2026-06-06', 'weekend', false],
      ['2026-06-07', 'weekend', false],
    ]);
    // No capacity on a weekend.
    expect(dayOf(week, blue, '2026-06-06').capacityMinutes).toBe(0);
    const christmas = await scheduleOf(owner, 'from=2026-12-23&days=11');
    expect(christmas.dates.map((d) => [d.date, d.kind, d.name])).toEqual([
      ['2026-12-23', 'working', null],
      ['2026-12-24', 'day_off', null],
      ['2026-12-25', 'bank_holiday', 'Christmas Day'],
      ['2026-12-26', 'weekend', null],
      ['2026-12-27', 'weekend', null],
      ['2026-12-28', 'bank_holiday', expect.stringMatching(/^Boxing Day/)],
      ['2026-12-29', 'working', null],
      ['2026-12-30', 'working', null],
      ['2026-12-31', 'working', null],
      ['2027-01-01', 'bank_holiday', "New Year's Day"],
      ['2027-01-02', 'weekend', null],
    ]);
    expect(christmas.dates.every((d) => !d.today)).toBe(true);
    expect(dayOf(christmas, blue, '2026-12-25').capacityMinutes).toBe(0);
    expect(dayOf(christmas, blue, '2026-12-24').capacityMinutes).toBe(0);
    expect(dayOf(christmas, blue, '2026-12-23').capacityMinutes).toBe(960);
  });

  it("follows the team's bank holiday region: St Andrew's Day in Scotland, a working Monday in England", async () => {
    const day = async () => (await scheduleOf(owner, 'from=2026-11-30&days=1')).dates[0];
    expect(await day()).toMatchObject({ kind: 'working', name: null });
    expect((await owner.request('PATCH', '/api/system-settings', { bankHolidayRegion: 'scotland' })).status).toBe(200);
    try {
      expect(await day()).toMatchObject({ kind: 'bank_holiday', name: expect.stringMatching(/Andrew/) });
    } finally {
      expect((await owner.request('PATCH', '/api/system-settings', { bankHolidayRegion: 'england-and-wales' })).status).toBe(200);
    }
  });

  it('shows a job booked before the window on the days it still runs, and a week with no bookings as empty days', async () => {
    const tail = await scheduleOf(owner, 'from=2026-06-04&days=1');
    expect(dayOf(tail, blue, '2026-06-04').bookings.map((b) => [b.jobId, b.dayLabel])).toEqual([[ids.long, 'day 3 of 3']]);
    const empty = await scheduleOf(owner, 'from=2027-03-01&days=42');
    expect(empty.dates).toHaveLength(42);
    expect(empty.crews.every((c) => c.days.length === 42 && c.days.every((d) => d.bookings.length === 0 && d.overrunChance === null))).toBe(true);
    expect(empty.weatherCredit).toBeNull();
  });

  it('answers the office as the owner; carries no money, only the deposit as a word', async () => {
    const res = await ana.client.get('/api/schedule?from=2026-06-01&days=7');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain('£');
    expect(text).not.toMatch(/pence|price|total|amount|owed/i);
  });

  it("leaves a deleted crew's past bookings on the unassigned row", async () => {
    const gone = ((await (await owner.post('/api/crews', { name: 'Old crew', memberIds: [pat.memberId] })).json()) as { crew: { id: number } }).crew.id;
    server.db.update(jobs).set({ crewId: gone }).where(eq(jobs.id, ids.loose)).run();
    server.db.update(crewsTable).set({ deletedAt: server.clock.now() }).where(eq(crewsTable.id, gone)).run();
    try {
      const schedule = await scheduleOf(owner, 'from=2026-06-02&days=1');
      expect(schedule.crews.map((c) => c.id)).not.toContain(gone);
      expect(schedule.unassigned[0]!.bookings.map((b) => [b.jobId, b.crewId])).toEqual([[ids.loose, null]]);
    } finally {
      server.db.update(jobs).set({ crewId: null }).where(inArray(jobs.id, [ids.loose])).run();
    }
  });
});

describe('GET /api/my-days', () => {
  const myDays = async (client: TestClient, query = '') => {
    const res = await client.get(`/api/my-days${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const text = await res.clone().text();
    expect(text, 'no £ for anyone').not.toContain('£');
    expect(text, 'no money field').not.toMatch(/deposit|price|total|amount|pence|paid|owed/i);
    return myDaysResponseSchema.strict().parse(await res.json()).days;
  };

  it("gives a crew member their crew's bookings by day from today for a week, and never another crew's", async () => {
    const days = await myDays(sam.client);
    expect(days.map((d) => d.date)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05', '2026-06-06', '2026-06-07']);
    expect(days.map((d) => d.bookings.map((b) => [b.jobId, b.dayLabel]))).toEqual([
      [],
      [[ids.long, 'day 1 of 3']],
      [
        [ids.long, 'day 2 of 3'],
        [ids.second, null],
      ],
      [[ids.long, 'day 3 of 3']],
      [],
      [],
      [],
    ]);
    // Kit is in the same crew; Pat only in Green.
    expect(await myDays(kit.client)).toEqual(days);
    const pats = await myDays(pat.client, '?from=2026-06-02&days=4');
    expect(pats.map((d) => d.bookings.map((b) => b.jobId))).toEqual([[], [], [ids.green], [ids.heavy]]);
    const seen = new Set(days.flatMap((d) => d.bookings.map((b) => b.jobId)));
    for (const other of [ids.green, ids.heavy, ids.loose, ids.inPeriod, ids.protected]) expect(seen.has(other)).toBe(false);
  });

  it('gives the second job its arrival window, as the board does', async () => {
    const days = await myDays(sam.client, '?from=2026-06-03&days=1');
    const board = await scheduleOf(owner, 'from=2026-06-03&days=1');
    expect(days[0]!.bookings[1]!.arrivalWindow).toEqual(dayOf(board, blue, '2026-06-03').bookings[1]!.arrivalWindow);
  });

  it('gives an office member and an owner in no crew their days empty', async () => {
    for (const client of [ana.client, owner]) {
      const days = await myDays(client, '?days=3');
      expect(days).toEqual([
        { date: '2026-06-01', bookings: [] },
        { date: '2026-06-02', bookings: [] },
        { date: '2026-06-03', bookings: [] },
      ]);
    }
  });

  it('refuses a bad query with 400', async () => {
    for (const query of ['?days=0', '?days=43', '?days=two', '?from=2026-02-30', '?from=yesterday', `?from=${'9'.repeat(5000)}`]) {
      const res = await sam.client.get(`/api/my-days${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
    }
  });
});
