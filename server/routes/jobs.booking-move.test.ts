import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../core/errors';
import { BOOKING_MESSAGES, jobBookResponseSchema } from '../../core/job-booking';
import { SCHEDULE_MESSAGES } from '../../core/schedule';
import { bookingMoves, jobs } from '../../db/schema';
import { calendarAttachment, calendarEvents, workEvent } from '../../testing/calendar';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';
import { inviteAndJoin } from '../../testing/team';
import { RateLimits } from '../http/rate-limit';

/*
 * Bookings on crews and their moves over HTTP (docs/product.md, Schedule: bookings on crews, moving
 * a booking): a booking names one of the team's crews; PATCH /api/jobs/{id}/booking moves it as one
 * block through booking's own refusals, and the customer gets one e-mail with the old and new dates
 * and the calendar file (same UID, SEQUENCE one higher), read back here with ical.js. The test
 * clock reads Monday 1 June 2026.
 */
let server: TestServer;
let owner: TestClient;
let crewMember: Awaited<ReturnType<typeof inviteAndJoin>>;
let office: Awaited<ReturnType<typeof inviteAndJoin>>;
let stranger: TestClient;
let blue: number;
let green: number;
let strangersCrew: number;
let host: string;

async function crewOf(client: TestClient, name: string, memberIds: number[]): Promise<number> {
  const res = await client.post('/api/crews', { name, memberIds });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { crew: { id: number } }).crew.id;
}

const ownerMemberId = async (client: TestClient) => ((await (await client.get('/api/team')).json()) as { members: { id: number; role: string }[] }).members.find((m) => m.role === 'owner')!.id;

beforeAll(async () => {
  server = await startTestServer(
    {},
    {
      rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 }, quoteLinksPerAddress: { points: 10_000, windowSeconds: 600 } }),
    },
  );
  owner = (await ownerWithProfile(server)).client;
  crewMember = await inviteAndJoin(server, owner, 'crew', { name: 'Sam Field' });
  office = await inviteAndJoin(server, owner, 'office', { name: 'Ana Ruiz' });
  blue = await crewOf(owner, 'Blue crew', [crewMember.memberId]);
  green = await crewOf(owner, 'Green crew', [await ownerMemberId(owner)]);
  stranger = (await registerClient(server)).client;
  strangersCrew = await crewOf(stranger, 'Their crew', [await ownerMemberId(stranger)]);
  host = new URL(server.config.publicUrl).hostname;
});
afterAll(() => server.close());

let customers = 0;

/**
 * A consumer's one-line job, sent and accepted by its link: by default they ask to start within
 * their 14 days, so only the tests of the cancellation period meet it.
 */
async function acceptedJob(startEarly = true): Promise<{ id: number; reference: string; email: string }> {
  customers += 1;
  const email = `priya${customers}@example.com`;
  const { job, token } = await sentLinesJob(server, owner, { name: 'Priya Shah', email, siteAddress: '12 Elm Road, Leeds LS6 2AB' }, [{ description: 'Reduce the oak crown by 2 m', price: '600' }]);
  const res = await acceptQuote(server, token, [], startEarly);
  expect(res.status, await res.clone().text()).toBe(200);
  await mailSettled(server);
  return { id: job.id, reference: job.reference, email };
}

async function book(jobId: number, body: unknown, client = owner): Promise<Response> {
  const res = await client.post(`/api/jobs/${jobId}/book`, body);
  await mailSettled(server);
  return res;
}

async function move(jobId: number, body: unknown, client = owner): Promise<Response> {
  const res = await client.request('PATCH', `/api/jobs/${jobId}/booking`, body);
  await mailSettled(server);
  return res;
}

async function moved(jobId: number, body: unknown) {
  const res = await move(jobId, body);
  expect(res.status, await res.clone().text()).toBe(200);
  return jobBookResponseSchema.parse(await res.json());
}

/** The customer's booking e-mails, oldest first (raw for the attachment, text to read). */
const bookingMails = (email: string) => outboxMessages(server.dataDir).filter((m) => addressedTo(m.text, email) && /^Subject: .*(booked|New date)/m.test(m.text));
/** The body read as one line per paragraph (the encoder's soft breaks and header folds undone). */
const readable = (text: string) => text.replace(/\r?\n[ \t]/g, ' ');

const row = (jobId: number) => server.db.select().from(jobs).where(eq(jobs.id, jobId)).get()!;
const movesOf = (jobId: number) => server.db.select().from(bookingMoves).where(eq(bookingMoves.jobId, jobId)).orderBy(asc(bookingMoves.id)).all();

async function errorOf(res: Response, status: number) {
  expect(res.status, await res.clone().text()).toBe(status);
  return errorBodySchema.parse(await res.json());
}

describe('a booking on a crew', () => {
  it("is made with one of the team's crews; left out it keeps the crew it had; null takes it off", async () => {
    const job = await acceptedJob();
    const res = await book(job.id, { date: '2026-12-04', crewId: blue });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(jobBookResponseSchema.parse(await res.json()).job.booking).toMatchObject({ date: '2026-12-04', crewId: blue });
    expect(row(job.id).crewId).toBe(blue);

    // Booked again from the job page, which knows nothing of crews: the crew stays.
    const again = jobBookResponseSchema.parse(await (await book(job.id, { date: '2026-12-05' })).json());
    expect(again.job.booking).toMatchObject({ date: '2026-12-05', crewId: blue });
    const off = jobBookResponseSchema.parse(await (await book(job.id, { date: '2026-12-05', crewId: null })).json());
    expect(off.job.booking?.crewId).toBeNull();

    // Optional always: a booking with no crew (the board's Unassigned row).
    const solo = await acceptedJob();
    expect(jobBookResponseSchema.parse(await (await book(solo.id, { date: '2026-12-04' })).json()).job.booking?.crewId).toBeNull();
  });

  it("refuses another team's crew, a deleted crew and an id nobody has with the same 404, and books nothing", async () => {
    const job = await acceptedJob();
    const gone = await crewOf(owner, 'Old crew', [crewMember.memberId]);
    expect((await owner.request('DELETE', `/api/crews/${gone}`)).status).toBe(204);
    for (const crewId of [strangersCrew, gone, 999_999]) {
      const refused = await errorOf(await book(job.id, { date: '2026-12-04', crewId }), 404);
      expect(refused).toEqual({ code: 'NOT_FOUND', message: SCHEDULE_MESSAGES.crewNotFound });
    }
    expect(row(job.id).bookedFor).toBeNull();
    for (const crewId of ['1', 0, -3, 1.5, [blue], { id: blue }]) {
      const bad = await errorOf(await book(job.id, { date: '2026-12-04', crewId }), 400);
      expect(bad.message, JSON.stringify(crewId)).toBe(BOOKING_MESSAGES.crewId);
    }
    expect(bookingMails(job.email)).toHaveLength(0);
  });
});

describe('moving a booking', () => {
  it('e-mails the customer once with the old and new dates and the calendar file: the same UID, SEQUENCE one higher, the new start in Europe/London', async () => {
    const job = await acceptedJob();
    await book(job.id, { date: '2026-12-04', crewId: blue });
    const first = workEvent(bookingMails(job.email).at(-1)!.raw);
    expect(first).toMatchObject({ uid: `job-${job.id}@${host}`, sequence: 0, start: '2026-12-04T08:00:00', tzid: 'Europe/London' });
    const mailsBefore = bookingMails(job.email).length;

    server.clock.advance(3600_000);
    const answer = await moved(job.id, { date: '2026-12-07' });
    expect(answer.emailed).toBe(true);
    expect(answer.nestingCheck).toBeNull();
    expect(answer.job.status).toBe('booked');
    expect(answer.job.booking).toMatchObject({ date: '2026-12-07', startTime: '08:00', days: 1, crewId: blue, bookedAt: server.clock.now().toISOString() });

    const mails = bookingMails(job.email);
    expect(mails).toHaveLength(mailsBefore + 1);
    const text = readable(mails.at(-1)!.text);
    expect(text).toMatch(new RegExp(`^Subject: New date for your tree work: Mon 7 December 2026 \\(${job.reference}\\)`, 'm'));
    expect(text).toContain('was Fri 4 December 2026, now Mon 7 December 2026');
    expect(text).toContain('This replaces the booking sent before.');
    expect(text).toContain('When: Monday 7 December 2026 at 08:00.');

    const event = workEvent(mails.at(-1)!.raw);
    expect(event.uid).toBe(first.uid);
    expect(event.sequence).toBe(first.sequence + 1);
    expect(event.start).toBe('2026-12-07T08:00:00');
    expect(event.tzid).toBe('Europe/London');
    expect(calendarAttachment(mails.at(-1)!.raw)).toContain('TZID:Europe/London');

    expect(movesOf(job.id)).toMatchObject([
      { fromDate: '2026-12-04', toDate: '2026-12-07', fromCrewId: blue, toCrewId: blue, reason: null, note: null, customerNotified: true, accountId: row(job.id).userId },
    ]);
    // The job page still reads the job.
    expect((await owner.get(`/api/jobs/${job.id}`)).status).toBe(200);
  });

  it('with notifyCustomer false sends nothing, but the SEQUENCE still goes up so the next calendar sent replaces the old', async () => {
    const job = await acceptedJob();
    await book(job.id, { date: '2026-12-04' });
    const mailsBefore = bookingMails(job.email).length;
    const quiet = await moved(job.id, { date: '2026-12-08', notifyCustomer: false });
    expect(quiet.emailed).toBe(false);
    expect(quiet.job.booking?.date).toBe('2026-12-08');
    expect(bookingMails(job.email)).toHaveLength(mailsBefore);
    expect(row(job.id).bookingSequence).toBe(1);
    expect(movesOf(job.id).at(-1)).toMatchObject({ fromDate: '2026-12-04', toDate: '2026-12-08', customerNotified: false });

    await moved(job.id, { date: '2026-12-09' });
    const mail = bookingMails(job.email).at(-1)!;
    expect(readable(mail.text)).toContain('was Tue 8 December 2026, now Wed 9 December 2026');
    expect(workEvent(mail.raw).sequence).toBe(2);
  });

  it("to another crew alone tells the customer nothing and keeps the SEQUENCE; it is kept in the job's moves", async () => {
    const job = await acceptedJob();
    await book(job.id, { date: '2026-12-04', crewId: blue });
    const before = row(job.id);
    const mailsBefore = bookingMails(job.email).length;
    server.clock.advance(60_000);
    const answer = await moved(job.id, { crewId: green });
    expect(answer.emailed).toBe(false);
    expect(answer.job.booking).toMatchObject({ date: '2026-12-04', crewId: green, bookedAt: before.bookedAt!.toISOString() });
    expect(bookingMails(job.email)).toHaveLength(mailsBefore);
    expect(row(job.id).bookingSequence).toBe(before.bookingSequence);
    expect(movesOf(job.id)).toMatchObject([{ fromDate: '2026-12-04', toDate: '2026-12-04', fromCrewId: blue, toCrewId: green, customerNotified: false }]);

    // The same date given with the crew is still no change for the customer; null takes it off its crew.
    expect((await moved(job.id, { date: '2026-12-04', crewId: null })).job.booking?.crewId).toBeNull();
    expect(bookingMails(job.email)).toHaveLength(mailsBefore);
    expect(row(job.id).bookingSequence).toBe(before.bookingSequence);
    // Nothing at all changed: no move kept.
    await moved(job.id, { crewId: null });
    expect(movesOf(job.id)).toHaveLength(2);
  });

  it('moves a multi-day job as one block: its days kept, the e-mail naming both spans, the calendar repeating as many days', async () => {
    const job = await acceptedJob();
    await book(job.id, { date: '2026-12-02', days: 3, startTime: '08:30' });
    const answer = await moved(job.id, { date: '2026-12-08' });
    expect(answer.job.booking).toMatchObject({ date: '2026-12-08', startTime: '08:30', days: 3 });
    const mail = bookingMails(job.email).at(-1)!;
    expect(readable(mail.text)).toContain('was Wed 2 December 2026 to Fri 4 December 2026, now Tue 8 December 2026 to Thu 10 December 2026');
    expect(workEvent(mail.raw)).toMatchObject({ start: '2026-12-08T08:30:00', count: 3, sequence: 1 });

    // The start and the length too: the start is named when it changes.
    await moved(job.id, { startTime: '10:00', days: 2 });
    const later = bookingMails(job.email).at(-1)!;
    expect(readable(later.text)).toContain('was Tue 8 December 2026 to Thu 10 December 2026, from 08:30, now Tue 8 December 2026 to Wed 9 December 2026, from 10:00');
    expect(workEvent(later.raw)).toMatchObject({ start: '2026-12-08T10:00:00', count: 2, sequence: 2 });
  });

  it('keeps the site visit: the work cannot move to or before it (400); the visit stays in the calendar', async () => {
    const job = await acceptedJob();
    await book(job.id, { date: '2026-12-04', siteVisit: { date: '2026-12-01', time: '16:00' } });
    const refused = await errorOf(await move(job.id, { date: '2026-12-01', startTime: '09:00' }), 400);
    expect(refused.message).toBe(BOOKING_MESSAGES.visitBeforeWork);
    expect(row(job.id).bookedFor).toBe('2026-12-04');
    await moved(job.id, { date: '2026-12-10' });
    const events = calendarEvents(calendarAttachment(bookingMails(job.email).at(-1)!.raw));
    expect(events.find((e) => e.uid === `job-${job.id}-visit@${host}`)).toMatchObject({ start: '2026-12-01T16:00:00', sequence: 1, status: 'CONFIRMED' });
  });
});

describe('a move refused', () => {
  it('for a day past (400), a job never booked (409), a done job (409): nothing changes and nothing is sent', async () => {
    const job = await acceptedJob();
    await book(job.id, { date: '2026-12-04' });
    const mailsBefore = bookingMails(job.email).length;
    const pastDay = await errorOf(await move(job.id, { date: '2026-05-31' }), 400);
    expect(pastDay).toMatchObject({ code: 'VALIDATION_ERROR', message: BOOKING_MESSAGES.past, details: { date: [BOOKING_MESSAGES.past] } });

    const unbooked = await acceptedJob();
    expect(await errorOf(await move(unbooked.id, { date: '2026-12-04' }), 409)).toEqual({ code: 'CONFLICT', message: SCHEDULE_MESSAGES.notBooked });
    expect(await errorOf(await move(unbooked.id, { crewId: blue }), 409)).toEqual({ code: 'CONFLICT', message: SCHEDULE_MESSAGES.notBooked });
    expect(row(unbooked.id)).toMatchObject({ bookedFor: null, crewId: null, status: 'accepted' });
    const draft = ((await (await owner.post('/api/jobs', { customer: { name: 'Jo Draft' } })).json()) as { job: { id: number } }).job;
    expect((await errorOf(await move(draft.id, { date: '2026-12-04' }), 409)).message).toBe(SCHEDULE_MESSAGES.notBooked);

    expect((await owner.post(`/api/jobs/${job.id}/done`, {})).status).toBe(200);
    expect(await errorOf(await move(job.id, { date: '2026-12-08' }), 409)).toEqual({ code: 'CONFLICT', message: BOOKING_MESSAGES.alreadyDone });
    expect(row(job.id)).toMatchObject({ bookedFor: '2026-12-04', bookingSequence: 0, status: 'done' });
    expect(bookingMails(job.email)).toHaveLength(mailsBefore);
    expect(movesOf(job.id)).toEqual([]);
  });

  it('inside the cancellation period: 409 CANCELLATION_PERIOD with its first day; the date it had stays', async () => {
    const job = await acceptedJob(false);
    await book(job.id, { date: '2026-06-20' });
    const refused = await errorOf(await move(job.id, { date: '2026-06-10' }), 409);
    expect(refused).toMatchObject({ code: 'CANCELLATION_PERIOD', details: { firstDay: ['2026-06-16'] } });
    expect(refused.message).toContain('book from Tuesday 16 June 2026');
    expect(row(job.id)).toMatchObject({ bookedFor: '2026-06-20', bookingSequence: 0 });
    // A crew-only move of that booking is not a date: it goes ahead.
    expect((await moved(job.id, { crewId: blue })).job.booking?.crewId).toBe(blue);
    expect((await moved(job.id, { date: '2026-06-16' })).job.booking?.date).toBe('2026-06-16');
  });

  it("before a protected tree's earliest start: 409 PROTECTION_NOTICE, unless confirmed with a reason", async () => {
    const job = await acceptedJob();
    // A section 211 notice sent today: the work may start six weeks on, 13 July 2026.
    expect((await owner.request('PUT', `/api/jobs/${job.id}/protection/record`, { outcome: 's211_notice_sent', on: '2026-06-01' })).status).toBe(200);
    expect((await book(job.id, { date: '2026-07-20' })).status).toBe(200);
    const held = await errorOf(await move(job.id, { date: '2026-07-06' }), 409);
    expect(held).toMatchObject({ code: 'PROTECTION_NOTICE', details: { earliestStart: ['2026-07-13'], missing: [] } });
    expect(row(job.id).bookedFor).toBe('2026-07-20');
    const confirmed = await moved(job.id, { date: '2026-07-06', confirmProtection: { reason: 'The council agreed by phone to an earlier start' } });
    expect(confirmed.job.booking?.date).toBe('2026-07-06');
    expect(confirmed.emailed).toBe(true);
  });

  it('for bodies that are wrong, empty or an attacker’s, with the field’s message (400); extra fields change nothing', async () => {
    const job = await acceptedJob();
    await book(job.id, { date: '2026-12-04' });
    const cases: [unknown, string][] = [
      [{}, SCHEDULE_MESSAGES.nothingToMove],
      [{ notifyCustomer: false }, SCHEDULE_MESSAGES.nothingToMove],
      [{ status: 'booked', bookedFor: '2026-12-08' }, SCHEDULE_MESSAGES.nothingToMove],
      [{ date: '2026-02-30' }, SCHEDULE_MESSAGES.date],
      [{ date: '07/12/2026' }, SCHEDULE_MESSAGES.date],
      [{ date: 20261207 }, SCHEDULE_MESSAGES.date],
      [{ date: ['2026-12-07'] }, SCHEDULE_MESSAGES.date],
      [{ date: null }, SCHEDULE_MESSAGES.date],
      [{ date: `2026-12-07${'x'.repeat(60_000)}` }, SCHEDULE_MESSAGES.date],
      [{ startTime: '24:00' }, SCHEDULE_MESSAGES.time],
      [{ startTime: { $gt: '' } }, SCHEDULE_MESSAGES.time],
      [{ days: 0 }, SCHEDULE_MESSAGES.bookingDays],
      [{ days: 31 }, SCHEDULE_MESSAGES.bookingDays],
      [{ days: '2' }, SCHEDULE_MESSAGES.bookingDays],
      [{ days: 1.5 }, SCHEDULE_MESSAGES.bookingDays],
      [{ days: 1e308 }, SCHEDULE_MESSAGES.bookingDays],
      [{ crewId: 'blue' }, SCHEDULE_MESSAGES.crewId],
      [{ crewId: -1 }, SCHEDULE_MESSAGES.crewId],
      [{ date: '2026-12-07', notifyCustomer: 'no' }, 'Invalid input: expected boolean, received string'],
      [{ date: '2026-12-07', confirmProtection: { reason: '' } }, 'Say why the work goes ahead (at most 500 characters)'],
      [{ date: '2026-12-07', confirmProtection: { reason: 'x'.repeat(501) } }, 'Say why the work goes ahead (at most 500 characters)'],
    ];
    for (const [body, message] of cases) {
      const res = await errorOf(await move(job.id, body), 400);
      expect(res.message, JSON.stringify(body).slice(0, 80)).toBe(message);
    }
    for (const raw of ['[]', '"2026-12-07"', 'null', '{"date":']) {
      // A string is sent as it is: JSON that is not an object, or not JSON at all.
      expect((await owner.request('PATCH', `/api/jobs/${job.id}/booking`, raw)).status, raw).toBe(400);
    }
    // Past the JSON limit: 413, read no further.
    expect((await move(job.id, { date: '2026-12-07', pad: 'x'.repeat(70_000) })).status).toBe(413);
    expect(row(job.id)).toMatchObject({ bookedFor: '2026-12-04', bookingSequence: 0 });

    // Fields the move does not take are dropped: the job's status, its sequence and its account stay its own.
    const answer = await moved(job.id, `{"date":"2026-12-07","status":"done","bookingSequence":99,"userId":1,"bookedFor":"2020-01-01","__proto__":{"crewId":${strangersCrew}}}`);
    expect(answer.job.booking).toMatchObject({ date: '2026-12-07', crewId: null });
    expect(row(job.id)).toMatchObject({ status: 'booked', bookingSequence: 1, bookedFor: '2026-12-07' });
  });

  it("another team's job is a 404 whatever the body; a crew member is refused (403); the office may move", async () => {
    const job = await acceptedJob();
    await book(job.id, { date: '2026-12-04', crewId: blue });
    for (const body of [{ date: '2026-12-07' }, { date: 'nonsense' }, {}]) {
      expect((await errorOf(await move(job.id, body, stranger), 404)).code).toBe('NOT_FOUND');
    }
    // Their own crew on our job: still the job's 404 first.
    expect((await move(job.id, { crewId: strangersCrew }, stranger)).status).toBe(404);
    // Our move onto their crew: the crew's 404.
    expect(await errorOf(await move(job.id, { crewId: strangersCrew }), 404)).toEqual({ code: 'NOT_FOUND', message: SCHEDULE_MESSAGES.crewNotFound });

    const refused = await errorOf(await move(job.id, { date: '2026-12-07' }, crewMember.client), 403);
    expect(refused).toEqual({ code: 'ROLE_FORBIDDEN', message: 'Only the owner and the office can open jobs and quotes. Your work is in My days.' });
    expect(row(job.id)).toMatchObject({ bookedFor: '2026-12-04', crewId: blue, bookingSequence: 0 });

    const byOffice = await move(job.id, { date: '2026-12-07' }, office.client);
    expect(byOffice.status, await byOffice.clone().text()).toBe(200);
    expect(movesOf(job.id).at(-1)!.movedBy).toBe(row(job.id).bookedBy);
  });
});

describe('two moves at once', () => {
  it('leave one consistent booking: each SEQUENCE taken once, the moves chained from one to the next', async () => {
    const job = await acceptedJob();
    await book(job.id, { date: '2026-12-04', crewId: blue });
    const [a, b] = await Promise.all([
      owner.request('PATCH', `/api/jobs/${job.id}/booking`, { date: '2026-12-08', crewId: green }),
      owner.request('PATCH', `/api/jobs/${job.id}/booking`, { date: '2026-12-09' }),
    ]);
    await mailSettled(server);
    expect([a.status, b.status]).toEqual([200, 200]);
    const now = row(job.id);
    expect(now.bookingSequence).toBe(2);
    expect(['2026-12-08', '2026-12-09']).toContain(now.bookedFor);
    const history = movesOf(job.id);
    expect(history).toHaveLength(2);
    expect(history[0]!.fromDate).toBe('2026-12-04');
    expect(history[1]!.fromDate).toBe(history[0]!.toDate);
    expect(history[1]!.fromCrewId).toBe(history[0]!.toCrewId);
    expect(history[1]!.toDate).toBe(now.bookedFor);
    // Each customer e-mail carried its own SEQUENCE, the last the job's.
    const sequences = bookingMails(job.email)
      .slice(-2)
      .map((m) => workEvent(m.raw).sequence);
    expect(sequences.sort()).toEqual([1, 2]);
  });
});
