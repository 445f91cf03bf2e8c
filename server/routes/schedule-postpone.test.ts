import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../core/errors';
import { addDays, BOOKING_MESSAGES } from '../../core/job-booking';
import { keptWords, POSTPONE_REASON_WORDS, postponeResponseSchema, SCHEDULE_MESSAGES } from '../../core/schedule';
import { jobReference } from '../../core/jobs';
import { bookingMoves, jobs, treeAnalyses } from '../../db/schema';
import { grantTo } from '../../testing/analysis';
import { workEvent } from '../../testing/calendar';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { analysisIdOf, jobOf } from '../../testing/jobs';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sendQuoteTo } from '../../testing/quote-links';
import { inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/*
 * A rained-off day over HTTP (docs/product.md, Schedule: postponing a day). The clock reads Monday
 * 23 November 2026, so the days around Christmas are near: in England and Wales, Christmas Day is
 * Friday 25 December 2026, Boxing Day falls on the Saturday and is kept on Monday 28 December, and
 * New Year's Day is Friday 1 January 2027. Each test has a team of its own: an owner, and Sam Field
 * (crew) alone in the Blue crew (8 hours: 480 minutes a day); the owner alone in the Green crew.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(
    {},
    {
      rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 }, quoteLinksPerAddress: { points: 10_000, windowSeconds: 600 } }),
    },
  );
  // From Monday 1 June 2026, 09:00 UTC, to Monday 23 November 2026, 09:00 GMT.
  server.clock.advance(175 * 86_400_000);
});
afterAll(() => server.close());

interface Team {
  owner: TestClient;
  sam: Awaited<ReturnType<typeof inviteAndJoin>>;
  blue: number;
  green: number;
}

async function crewOf(client: TestClient, name: string, memberIds: number[]): Promise<number> {
  const res = await client.post('/api/crews', { name, memberIds });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { crew: { id: number } }).crew.id;
}

async function aTeam(): Promise<Team> {
  const registered = await ownerWithProfile(server);
  grantTo(server, registered.account.username, 50);
  const owner = registered.client;
  const sam = await inviteAndJoin(server, owner, 'crew', { name: 'Sam Field' });
  const team = (await (await owner.get('/api/team')).json()) as { members: { id: number; role: string }[] };
  return { owner, sam, blue: await crewOf(owner, 'Blue crew', [sam.memberId]), green: await crewOf(owner, 'Green crew', [team.members.find((m) => m.role === 'owner')!.id]) };
}

let customers = 0;

interface Booked {
  id: number;
  email: string;
}

/**
 * A job booked for `date`, accepted by its customer (who asked to start within their 14 days). With
 * `minutes`, it is one tree whose estimate is that many minutes at the low end (its analysis's
 * times set for the test); without, a typed line only, which carries no time.
 */
async function bookedJob(team: Team, booking: { date: string; days?: number; startTime?: string; crewId?: number | null; minutes?: number }): Promise<Booked> {
  customers += 1;
  const email = `customer${customers}@example.com`;
  const analysisIds: number[] = [];
  if (booking.minutes !== undefined) {
    const analysisId = await analysisIdOf(team.owner, 'oak, 16 inch trunk, 40 ft tall');
    server.db
      .update(treeAnalyses)
      .set({ cuttingTimeMin: booking.minutes, cuttingTimeMax: booking.minutes + 60, prepTimeMin: 0, prepTimeMax: 0, cleanupTimeMin: 0, cleanupTimeMax: 0 })
      .where(eq(treeAnalyses.id, analysisId))
      .run();
    analysisIds.push(analysisId);
  }
  const job = await jobOf(await team.owner.post('/api/jobs', { analysisIds, customer: { name: `Customer ${customers}`, email, siteAddress: '12 Elm Road, Leeds LS6 2AB' } }), 201);
  expect((await team.owner.post(`/api/jobs/${job.id}/lines`, { description: 'Take the brash away', price: '120' })).status).toBe(201);
  const { token } = await sendQuoteTo(server, team.owner, job.id, email);
  expect((await acceptQuote(server, token, [], true)).status).toBe(200);
  const res = await team.owner.post(`/api/jobs/${job.id}/book`, { date: booking.date, days: booking.days ?? 1, startTime: booking.startTime ?? '08:00', crewId: booking.crewId ?? null });
  expect(res.status, await res.clone().text()).toBe(200);
  await mailSettled(server);
  return { id: job.id, email };
}

async function postpone(client: TestClient, body: unknown): Promise<Response> {
  const res = await client.post('/api/schedule/postpone', body);
  await mailSettled(server);
  return res;
}

async function postponed(client: TestClient, body: unknown) {
  const res = await postpone(client, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return postponeResponseSchema.parse(await res.json()).moved;
}

const row = (jobId: number) => server.db.select().from(jobs).where(eq(jobs.id, jobId)).get()!;
const bookingMails = (email: string) => outboxMessages(server.dataDir).filter((m) => addressedTo(m.text, email) && /^Subject: .*(booked|New date)/m.test(m.text));
const readable = (text: string) => text.replace(/\r?\n[ \t]/g, ' ');

describe('postponing a crew’s day', () => {
  it('moves each booking past Christmas, the weekend and the substitute bank holiday to a day with room, a multi-day job as one block, a held job past its hold', async () => {
    const team = await aTeam();
    // Already there, and staying: Thursday 24 and Tuesday 29 December are 300 of Blue's 480 minutes.
    const thursday = await bookedJob(team, { date: '2026-12-24', crewId: team.blue, minutes: 300 });
    const tuesday = await bookedJob(team, { date: '2026-12-29', crewId: team.blue, minutes: 300 });
    // The rained-off Wednesday 23 December: in the day's order, by start.
    const p1 = await bookedJob(team, { date: '2026-12-23', startTime: '08:00', crewId: team.blue, minutes: 240 });
    const p2 = await bookedJob(team, { date: '2026-12-23', startTime: '09:00', days: 2, crewId: team.blue, minutes: 360 });
    const p3 = await bookedJob(team, { date: '2026-12-23', startTime: '10:00', crewId: team.blue });
    // A section 211 notice sent today, after p3 was booked: its work may start six weeks on, Monday 4 January 2027.
    expect((await team.owner.request('PUT', `/api/jobs/${p3.id}/protection/record`, { outcome: 's211_notice_sent', on: '2026-11-23' })).status).toBe(200);
    // The Green crew's booking that day is not this crew's.
    const green = await bookedJob(team, { date: '2026-12-23', crewId: team.green, minutes: 60 });
    const mailsBefore = new Map([thursday, tuesday, p1, p2, p3, green].map((j) => [j.id, bookingMails(j.email).length]));

    const moved = await postponed(team.owner, { date: '2026-12-23', crewId: team.blue, reason: 'rain', note: 'Sorry for the change; the crew will ring the evening before.' });
    expect(moved).toEqual([
      // 24 December is full (300 + 240 > 480); 25 to 28 are Christmas, the weekend and the substitute day; 29 is full too.
      { jobId: p1.id, from: '2026-12-23', to: '2026-12-30' },
      // 180 minutes a day: Thursday 24 with Friday 25 is not two working days; 29 takes it to exactly 480, 30 to 420.
      { jobId: p2.id, from: '2026-12-23', to: '2026-12-29' },
      // Not before its hold: past New Year's Day to Monday 4 January.
      { jobId: p3.id, from: '2026-12-23', to: '2027-01-04' },
    ]);
    expect(row(p1.id)).toMatchObject({ bookedFor: '2026-12-30', bookedDays: 1, crewId: team.blue, bookingSequence: 1 });
    expect(row(p2.id)).toMatchObject({ bookedFor: '2026-12-29', bookedDays: 2, crewId: team.blue, bookingSequence: 1, bookedStart: '09:00' });
    expect(row(p3.id)).toMatchObject({ bookedFor: '2027-01-04', bookingSequence: 1 });
    for (const stays of [thursday, tuesday, green]) expect(row(stays.id).bookingSequence).toBe(0);
    expect(row(green.id).bookedFor).toBe('2026-12-23');

    // One e-mail to each moved customer, none to the others.
    for (const job of [p1, p2, p3]) expect(bookingMails(job.email)).toHaveLength(mailsBefore.get(job.id)! + 1);
    for (const job of [thursday, tuesday, green]) expect(bookingMails(job.email)).toHaveLength(mailsBefore.get(job.id)!);

    const mail = bookingMails(p2.email).at(-1)!;
    const text = readable(mail.text);
    expect(text).toMatch(/^Subject: New date for your tree work: Tue 29 December 2026/m);
    expect(text).toContain('was Wed 23 December 2026 to Thu 24 December 2026, now Tue 29 December 2026 to Wed 30 December 2026');
    expect(text).toContain(`we have had to move it because ${POSTPONE_REASON_WORDS.rain}.`);
    expect(text).toContain('Sorry for the change; the crew will ring the evening before.');
    const event = workEvent(mail.raw);
    expect(event).toMatchObject({ sequence: 1, start: '2026-12-29T09:00:00', tzid: 'Europe/London', count: 2 });
    expect(event.uid).toBe(workEvent(bookingMails(p2.email).at(-2)!.raw).uid);

    const history = server.db
      .select()
      .from(bookingMoves)
      .where(inArray(bookingMoves.jobId, [p1.id, p2.id, p3.id]))
      .orderBy(asc(bookingMoves.id))
      .all();
    expect(history).toMatchObject([
      { jobId: p1.id, fromDate: '2026-12-23', toDate: '2026-12-30', reason: 'rain', note: 'Sorry for the change; the crew will ring the evening before.', customerNotified: true },
      { jobId: p2.id, toDate: '2026-12-29', fromDays: 2, toDays: 2, reason: 'rain' },
      { jobId: p3.id, toDate: '2027-01-04', reason: 'rain' },
    ]);
  });

  it('answers an empty list for a day with nothing booked, and moves nothing', async () => {
    const team = await aTeam();
    const other = await bookedJob(team, { date: '2026-12-08', crewId: team.blue });
    expect(await postponed(team.owner, { date: '2026-12-09', crewId: team.blue, reason: 'wind' })).toEqual([]);
    expect(await postponed(team.owner, { date: '2026-12-08', crewId: team.green, reason: 'wind' })).toEqual([]);
    expect(row(other.id)).toMatchObject({ bookedFor: '2026-12-08', bookingSequence: 0 });
  });
});

describe('postponing every crew’s day', () => {
  it('moves the crews’ and the unassigned bookings that start that Friday to Monday; a job already under way stays', async () => {
    const team = await aTeam();
    const blue = await bookedJob(team, { date: '2026-12-18', crewId: team.blue, minutes: 120 });
    const green = await bookedJob(team, { date: '2026-12-18', crewId: team.green, minutes: 120 });
    const none = await bookedJob(team, { date: '2026-12-18', startTime: '07:30' });
    const underWay = await bookedJob(team, { date: '2026-12-17', days: 2, crewId: team.blue });
    const monday = await bookedJob(team, { date: '2026-12-21', crewId: team.green, minutes: 60 });

    const res = await postpone(team.owner, { date: '2026-12-18', reason: 'wind' });
    expect(res.status).toBe(200);
    const answer = postponeResponseSchema.parse(await res.json());
    // The job begun on Thursday stays, and the answer says so for the surgeon to move by hand.
    expect(answer.kept).toEqual([{ jobId: underWay.id, reference: jobReference(underWay.id), firstDay: '2026-12-17', sentence: keptWords(jobReference(underWay.id), '2026-12-17', '2026-12-18') }]);
    expect(answer.kept[0]!.sentence).toBe(`${jobReference(underWay.id)} began on 17 December 2026 and runs to 18 December 2026: it stays as booked. Move it by hand if that day's work is lost.`);
    const moved = answer.moved;
    expect(moved).toEqual([
      { jobId: none.id, from: '2026-12-18', to: '2026-12-21' },
      { jobId: blue.id, from: '2026-12-18', to: '2026-12-21' },
      { jobId: green.id, from: '2026-12-18', to: '2026-12-21' },
    ]);
    expect(row(none.id)).toMatchObject({ bookedFor: '2026-12-21', crewId: null });
    expect(row(underWay.id)).toMatchObject({ bookedFor: '2026-12-17', bookingSequence: 0 });
    expect(row(monday.id)).toMatchObject({ bookedFor: '2026-12-21', bookingSequence: 0 });
    const text = readable(bookingMails(green.email).at(-1)!.text);
    expect(text).toContain(`we have had to move it because ${POSTPONE_REASON_WORDS.wind}.`);
    expect(text).toContain('was Fri 18 December 2026, now Mon 21 December 2026');

    // `crewId: null` is every crew too; then one crew's Monday alone.
    expect(await postponed(team.owner, { date: '2026-12-17', crewId: null, reason: 'illness' })).toEqual([{ jobId: underWay.id, from: '2026-12-17', to: '2026-12-21' }]);
    const blueOnly = await postponed(team.owner, { date: '2026-12-21', crewId: team.blue, reason: 'equipment' });
    expect(blueOnly.map((m) => m.jobId).sort()).toEqual([blue.id, underWay.id].sort());
    expect(row(green.id).bookedFor).toBe('2026-12-21');
    expect(row(none.id).bookedFor).toBe('2026-12-21');
  });
});

describe('a postponed day refused', () => {
  it('when one booking finds no day: 409 naming it, and nothing moves, the others included', async () => {
    const team = await aTeam();
    // Every Wednesday off for 60 weeks: never three working days in a row.
    const wednesdays = Array.from({ length: 60 }, (_, i) => addDays('2026-12-09', i * 7));
    expect((await team.owner.request('PATCH', '/api/system-settings', { daysOff: wednesdays })).status).toBe(200);
    const oneDay = await bookedJob(team, { date: '2026-12-07', crewId: team.blue });
    const threeDays = await bookedJob(team, { date: '2026-12-07', startTime: '09:00', days: 3, crewId: team.blue });
    const mailsBefore = bookingMails(oneDay.email).length;
    const refused = await postpone(team.owner, { date: '2026-12-07', crewId: team.blue, reason: 'rain' });
    expect(refused.status).toBe(409);
    expect(errorBodySchema.parse(await refused.json())).toEqual({ code: 'CONFLICT', message: SCHEDULE_MESSAGES.noRoom, details: { jobId: [String(threeDays.id)] } });
    expect(row(oneDay.id)).toMatchObject({ bookedFor: '2026-12-07', bookingSequence: 0 });
    expect(row(threeDays.id)).toMatchObject({ bookedFor: '2026-12-07', bookingSequence: 0 });
    expect(bookingMails(oneDay.email)).toHaveLength(mailsBefore);
    expect(server.db.select().from(bookingMoves).where(inArray(bookingMoves.jobId, [oneDay.id, threeDays.id])).all()).toEqual([]);
  });

  it("for a day past (400), another team's crew (404), a crew member (403), and bodies that are wrong or an attacker's (400)", async () => {
    const team = await aTeam();
    const job = await bookedJob(team, { date: '2026-12-10', crewId: team.blue });
    const past = errorBodySchema.parse(await (await postpone(team.owner, { date: '2026-11-20', reason: 'rain' })).json());
    expect(past).toMatchObject({ code: 'VALIDATION_ERROR', message: BOOKING_MESSAGES.past });

    const stranger = (await registerClient(server)).client;
    const theirs = await crewOf(stranger, 'Their crew', [((await (await stranger.get('/api/team')).json()) as { members: { id: number }[] }).members[0]!.id]);
    const notOurs = await postpone(team.owner, { date: '2026-12-10', crewId: theirs, reason: 'rain' });
    expect(notOurs.status).toBe(404);
    expect(errorBodySchema.parse(await notOurs.json())).toEqual({ code: 'NOT_FOUND', message: SCHEDULE_MESSAGES.crewNotFound });
    // Their owner, our crew: theirs has no such crew either; our day is untouched.
    expect((await postpone(stranger, { date: '2026-12-10', crewId: team.blue, reason: 'rain' })).status).toBe(404);
    expect(await postponed(stranger, { date: '2026-12-10', reason: 'rain' })).toEqual([]);

    const crew = await postpone(team.sam.client, { date: '2026-12-10', crewId: team.blue, reason: 'rain' });
    expect(crew.status).toBe(403);
    expect(await crew.json()).toEqual({ code: 'ROLE_FORBIDDEN', message: 'Only the owner and the office can plan the crews and the schedule.' });

    const cases: [unknown, string][] = [
      [{}, SCHEDULE_MESSAGES.date],
      [{ date: '2026-12-10' }, SCHEDULE_MESSAGES.reason],
      [{ date: '2026-12-10', reason: 'snow' }, SCHEDULE_MESSAGES.reason],
      [{ date: '2026-12-10', reason: ['rain'] }, SCHEDULE_MESSAGES.reason],
      [{ date: '2026-12-32', reason: 'rain' }, SCHEDULE_MESSAGES.date],
      [{ date: 20261210, reason: 'rain' }, SCHEDULE_MESSAGES.date],
      [{ date: `2026-12-10${'x'.repeat(60_000)}`, reason: 'rain' }, SCHEDULE_MESSAGES.date],
      [{ date: '2026-12-10', reason: 'rain', crewId: 'blue' }, SCHEDULE_MESSAGES.crewId],
      [{ date: '2026-12-10', reason: 'rain', crewId: 0 }, SCHEDULE_MESSAGES.crewId],
      [{ date: '2026-12-10', reason: 'rain', crewId: 1.5 }, SCHEDULE_MESSAGES.crewId],
      [{ date: '2026-12-10', reason: 'rain', note: 'x'.repeat(501) }, SCHEDULE_MESSAGES.note],
      [{ date: '2026-12-10', reason: 'rain', note: 42 }, SCHEDULE_MESSAGES.note],
      [{ date: '2026-12-10', reason: 'rain', note: { toString: 'x' } }, SCHEDULE_MESSAGES.note],
    ];
    for (const [body, message] of cases) {
      const res = await postpone(team.owner, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(errorBodySchema.parse(await res.json()).message, JSON.stringify(body).slice(0, 80)).toBe(message);
    }
    for (const raw of ['[]', 'null', '"rain"', '{"date":']) expect((await team.owner.request('POST', '/api/schedule/postpone', raw)).status, raw).toBe(400);
    expect((await postpone(team.owner, { date: '2026-12-10', reason: 'rain', note: 'x'.repeat(70_000) })).status).toBe(413);
    expect(row(job.id)).toMatchObject({ bookedFor: '2026-12-10', bookingSequence: 0 });

    // Fields it does not take are dropped; the office may postpone.
    const office = await inviteAndJoin(server, team.owner, 'office', { name: 'Ana Ruiz' });
    const moved = await postponed(office.client, { date: '2026-12-10', crewId: team.blue, reason: 'other', to: '2027-06-01', jobIds: [1, 2, 3], accountId: 1 });
    expect(moved).toEqual([{ jobId: job.id, from: '2026-12-10', to: '2026-12-11' }]);
    expect(readable(bookingMails(job.email).at(-1)!.text)).toContain(`because ${POSTPONE_REASON_WORDS.other}.`);
  });
});
