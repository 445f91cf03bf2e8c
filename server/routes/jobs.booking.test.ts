import { readdirSync, readFileSync } from 'node:fs';
import { calendarPart } from '../../testing/calendar';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accuracySchema } from '../../core/accuracy';
import { BOOKING_MESSAGES, jobBookResponseSchema } from '../../core/job-booking';
import { jobListSchema, type Job } from '../../core/jobs';
import { calibrationTotals, jobs, treeAnalyses } from '../../db/schema';
import { grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, decodeQuotedPrintable, mailSettled } from '../../testing/mail';
import { analysisIdOf, jobOf } from '../../testing/jobs';

/*
 * Booked and done over HTTP (docs/product.md, Jobs and quotes, Booking and done): an accepted job
 * is booked and the customer e-mailed a calendar file; booking again sends a new SEQUENCE; marking
 * it done stores each tree's actual times in its analysis and the calibration totals.
 */
let server: TestServer;
let owner: TestClient;
const CUSTOMER = 'customer@example.com';

beforeAll(async () => {
  server = await startTestServer();
  const registered = await registerClient(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
  await owner.request('PATCH', '/api/system-settings', { aiInstructions: '', hourlyRate: '90' });
  await owner.request('PATCH', '/api/system-settings', {
    companyProfile: { tradingName: 'Birch Brothers', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 },
  });
});
afterAll(() => server.close());

/** Raw outbox files, oldest first. */
function outboxFiles(): string[] {
  const dir = join(server.dataDir, 'outbox');
  try {
    return readdirSync(dir)
      .sort()
      .map((file) => readFileSync(join(dir, file), 'utf8'));
  } catch {
    return [];
  }
}

const decoded = (raw: string) => Buffer.from(decodeQuotedPrintable(raw), 'latin1').toString('utf8');

/** The calendar's content lines, folding undone. */
const icsLines = (text: string) => text.replace(/\r?\n /g, '').split(/\r?\n/);

/** A job of `analysisIds` as trees and a typed line, sent to the customer; its link's token. */
async function sentJob(analysisIds: number[] = [], email: string | null = CUSTOMER): Promise<{ job: Job; token: string }> {
  const job = await jobOf(await owner.post('/api/jobs', { analysisIds, customer: { name: 'Łukasz Wójcik', email, siteAddress: 'ул. Тверская 12, Łódź; Gdańsk' } }), 201);
  await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Grind the stump, and take the chippings away', price: '150' });
  const before = outboxFiles().length;
  const sent = await jobOf(await owner.post(`/api/jobs/${job.id}/send`, email ? {} : { email: CUSTOMER }));
  await mailSettled(server);
  const mail = outboxFiles().slice(before).map(decoded).find((m) => m.includes(sent.reference));
  const token = mail?.match(/\/quote\/([A-Za-z0-9_-]{43})/)?.[1];
  if (!token) throw new Error('no quote link in the e-mail');
  return { job: sent, token };
}

async function accept(token: string): Promise<void> {
  const res = await fetch(`${server.url}/api/quotes/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin, 'user-agent': 'BookingTest/1.0' },
    body: JSON.stringify({ name: 'Łukasz Wójcik', acceptTerms: true, startWithinCancellationPeriod: true }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function acceptedJob(analysisIds: number[] = []): Promise<Job> {
  const { job, token } = await sentJob(analysisIds);
  await accept(token);
  await mailSettled(server);
  return job;
}

async function book(jobId: number, body: unknown, client = owner) {
  const res = await client.post(`/api/jobs/${jobId}/book`, body);
  await mailSettled(server);
  return res;
}

/** The newest booking e-mail to the customer for a job, raw. */
function bookingMail(reference: string): string {
  const found = outboxFiles()
    .reverse()
    .find((raw) => addressedTo(decoded(raw), CUSTOMER) && /^Subject: .*(booked|New date)/m.test(decoded(raw)) && decoded(raw).includes(reference));
  if (!found) throw new Error(`no booking e-mail for ${reference}`);
  return found;
}

describe('booking a job', () => {
  it('is refused until the customer has accepted (409), for a draft and a sent quote alike', async () => {
    const draft = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Jo Draft', email: CUSTOMER } }), 201);
    const res = await book(draft.id, { date: '2026-12-08' });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: BOOKING_MESSAGES.notAccepted, code: 'CONFLICT' });
    const { job: sent } = await sentJob();
    expect((await book(sent.id, { date: '2026-12-08' })).status).toBe(409);
    expect(server.db.select().from(jobs).where(eq(jobs.id, sent.id)).get()!.bookedFor).toBeNull();
  });

  it('books an accepted job and e-mails the customer a calendar file with the date, the start and the site visit', async () => {
    const job = await acceptedJob();
    const res = await book(job.id, { date: '2026-12-08', startTime: '08:30', days: 2, siteVisit: { date: '2026-12-01', time: '16:00' }, note: 'Please move the car off the drive.' });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = jobBookResponseSchema.parse(await res.json());
    expect(answer.emailed).toBe(true);
    expect(answer.job.status).toBe('booked');
    expect(answer.job.booking).toEqual({
      date: '2026-12-08',
      startTime: '08:30',
      days: 2,
      siteVisit: { date: '2026-12-01', time: '16:00' },
      note: 'Please move the car off the drive.',
      bookedAt: server.clock.now().toISOString(),
      crewId: null,
    });
    expect(answer.job.doneAt).toBeNull();

    const raw = bookingMail(job.reference);
    const text = decoded(raw);
    expect(text).toMatch(new RegExp(`^Subject: Your tree work is booked: Tue 8 December 2026 \\(${job.reference}\\)`, 'm'));
    expect(text).toContain('2 days, from Tuesday 8 December 2026 to Wednesday 9 December 2026, starting at 08:30 each day');
    expect(text).toContain('Site visit first: Tuesday 1 December 2026 at 16:00.');
    expect(text).toContain('Please move the car off the drive.');
    expect(text).toContain('phone 01632 960000 or e-mail office@birch.example');

    const { headers, text: ics } = calendarPart(raw);
    expect(headers).toMatch(/text\/calendar; charset=utf-8; method=PUBLISH/i);
    expect(headers).toContain(`booking-${job.reference}.ics`);
    expect(ics).toContain('\r\n');
    const lines = icsLines(ics);
    const host = new URL(server.config.publicUrl).hostname;
    expect(lines).toContain(`UID:job-${job.id}@${host}`);
    expect(lines).toContain('DTSTART;TZID=Europe/London:20261208T083000');
    expect(lines).toContain('RRULE:FREQ=DAILY;COUNT=2');
    expect(lines).toContain('SEQUENCE:0');
    expect(lines).toContain(`SUMMARY:Tree work: ${job.reference} — Birch Brothers`);
    expect(lines).toContain('LOCATION:ул. Тверская 12\\, Łódź\\; Gdańsk');
    expect(lines.find((l) => l.startsWith('DESCRIPTION:'))).toContain('Grind the stump\\, and take the chippings away');
    // The site visit: an event of its own before the work.
    expect(lines).toContain(`UID:job-${job.id}-visit@${host}`);
    expect(lines).toContain('DTSTART;TZID=Europe/London:20261201T160000');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2);
  });

  it('booked again: the new date with SEQUENCE one higher, the dropped visit cancelled, the e-mail saying it replaces the first', async () => {
    const job = await acceptedJob();
    const first = await book(job.id, { date: '2026-12-08', siteVisit: { date: '2026-12-01', time: '09:00' } });
    expect(first.status).toBe(200);
    server.clock.advance(3600_000);
    const again = await book(job.id, { date: '2026-12-15', startTime: '09:00' });
    expect(again.status, await again.clone().text()).toBe(200);
    const rebooked = jobBookResponseSchema.parse(await again.json()).job;
    expect(rebooked.booking).toMatchObject({ date: '2026-12-15', startTime: '09:00', days: 1, siteVisit: null, note: null });
    const raw = bookingMail(job.reference);
    expect(decoded(raw)).toMatch(/^Subject: New date for your tree work: Tue 15 December 2026/m);
    expect(decoded(raw)).toContain('This replaces the booking sent before.');
    const lines = icsLines(calendarPart(raw).text);
    expect(lines).toContain('DTSTART;TZID=Europe/London:20261215T090000');
    expect(lines.filter((l) => l === 'SEQUENCE:1')).toHaveLength(2);
    expect(lines).toContain('STATUS:CANCELLED');
    // A third time: 2.
    await book(job.id, { date: '2026-12-16' });
    expect(icsLines(calendarPart(bookingMail(job.reference)).text)).toContain('SEQUENCE:2');
  });

  it('sends to the address the quote went to when the job has none of its own', async () => {
    const { job, token } = await sentJob([], null);
    await accept(token);
    const res = await book(job.id, { date: '2026-12-08' });
    expect(jobBookResponseSchema.parse(await res.json()).emailed).toBe(true);
    expect(calendarPart(bookingMail(job.reference)).text).toContain('DTSTART;TZID=Europe/London:20261208T080000');
  });

  it('refuses dates that are not real, a visit after the work, a day already past, with a plain message (400)', async () => {
    const job = await acceptedJob();
    const cases: [unknown, string][] = [
      [{ date: '2026-02-30' }, BOOKING_MESSAGES.date],
      [{ date: '08/12/2026' }, BOOKING_MESSAGES.date],
      [{}, BOOKING_MESSAGES.date],
      [{ date: '2026-12-08', startTime: '24:00' }, BOOKING_MESSAGES.time],
      [{ date: '2026-12-08', startTime: '8am' }, BOOKING_MESSAGES.time],
      [{ date: '2026-12-08', days: 0 }, BOOKING_MESSAGES.days],
      [{ date: '2026-12-08', days: 31 }, BOOKING_MESSAGES.days],
      [{ date: '2026-12-08', note: 'x'.repeat(501) }, BOOKING_MESSAGES.note],
      [{ date: '2026-12-08', siteVisit: { date: '2026-12-08', time: '09:00' } }, BOOKING_MESSAGES.visitBeforeWork],
      [{ date: '2026-12-08', siteVisit: { date: '2026-12-09', time: '07:00' } }, BOOKING_MESSAGES.visitBeforeWork],
      [{ date: '2026-12-08', siteVisit: { date: '2026-11-31', time: '07:00' } }, BOOKING_MESSAGES.date],
      // The clock reads 1 June 2026.
      [{ date: '2026-05-31' }, BOOKING_MESSAGES.past],
      [{ date: '2026-12-08', siteVisit: { date: '2026-05-20', time: '10:00' } }, BOOKING_MESSAGES.past],
    ];
    for (const [body, message] of cases) {
      const res = await book(job.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { message: string }).message, JSON.stringify(body)).toBe(message);
    }
    // 29 February in a leap year is a date; nothing above was stored.
    expect(server.db.select().from(jobs).where(eq(jobs.id, job.id)).get()!.bookedFor).toBeNull();
    expect((await book(job.id, { date: '2028-02-29' })).status).toBe(200);
  });

  it("another account's job is a 404 for book and done, whatever the body", async () => {
    const job = await acceptedJob();
    const { client: other } = await registerClient(server);
    expect((await other.post(`/api/jobs/${job.id}/book`, { date: '2026-12-08' })).status).toBe(404);
    expect((await other.post(`/api/jobs/${job.id}/book`, { date: 'nonsense' })).status).toBe(404);
    expect((await other.post(`/api/jobs/${job.id}/done`, { actuals: [] })).status).toBe(404);
    expect((await other.post('/api/jobs/999999/done', {})).status).toBe(404);
    expect(server.db.select().from(jobs).where(eq(jobs.id, job.id)).get()!.status).toBe('accepted');
  });
});

describe('marking a job done', () => {
  it("stores each tree's actual times in its analysis and the calibration totals, and the job reads done", async () => {
    const oak = await analysisIdOf(owner, 'oak, 16 inch trunk, 40 ft tall');
    const birch = await analysisIdOf(owner, 'birch, 8 inch trunk, 25 ft tall');
    const job = await acceptedJob([oak, birch]);
    const trees = job.items.filter((i) => i.kind === 'tree');
    await book(job.id, { date: '2026-12-08' });
    const userId = server.db.select().from(jobs).where(eq(jobs.id, job.id)).get()!.userId;
    const totalsBefore = server.db.select().from(calibrationTotals).where(eq(calibrationTotals.userId, userId)).get();
    const accuracyBefore = accuracySchema.parse(await (await owner.get('/api/accuracy')).json());

    server.clock.advance(86_400_000);
    const done = await jobOf(
      await owner.post(`/api/jobs/${job.id}/done`, {
        actuals: [
          { itemId: trees[0]!.id, cuttingTime: 95, prepTime: 20, cleanupTime: 40 },
          // Only what the surgeon knows.
          { itemId: trees[1]!.id, cuttingTime: 30 },
        ],
      }),
    );
    expect(done.status).toBe('done');
    expect(done.doneAt).toBe(server.clock.now().toISOString());
    expect(done.booking?.date).toBe('2026-12-08');

    const read = async (id: number) => ((await (await owner.get(`/api/analysis/${id}`)).json()) as { analysis: Record<string, unknown> }).analysis;
    expect(await read(oak)).toMatchObject({ actualCuttingTime: 95, actualPrepTime: 20, actualCleanupTime: 40 });
    expect(await read(birch)).toMatchObject({ actualCuttingTime: 30, actualPrepTime: null, actualCleanupTime: null });

    const totalsAfter = server.db.select().from(calibrationTotals).where(eq(calibrationTotals.userId, userId)).get()!;
    expect(totalsAfter.jobs).toBe((totalsBefore?.jobs ?? 0) + 2);
    expect(totalsAfter.cuttingObservations).toBe((totalsBefore?.cuttingObservations ?? 0) + 2);
    expect(totalsAfter.prepObservations).toBe((totalsBefore?.prepObservations ?? 0) + 1);
    const accuracyAfter = accuracySchema.parse(await (await owner.get('/api/accuracy')).json());
    // Two trees of one job: counted as two trees and one job (the page once read "3 jobs" for one).
    expect(accuracyAfter.trees).toBe(accuracyBefore.trees + 2);
    expect(accuracyAfter.jobs).toBe(accuracyBefore.jobs + 1);

    // Done is the end: neither booked nor done again.
    expect((await owner.post(`/api/jobs/${job.id}/done`, {})).status).toBe(409);
    const rebook = await book(job.id, { date: '2026-12-20' });
    expect(rebook.status).toBe(409);
    expect(((await rebook.json()) as { message: string }).message).toBe(BOOKING_MESSAGES.alreadyDone);
  });

  it('is allowed straight from accepted, with no times at all', async () => {
    const job = await acceptedJob();
    const done = await jobOf(await owner.post(`/api/jobs/${job.id}/done`, {}));
    expect(done).toMatchObject({ status: 'done', booking: null });
  });

  it('refuses a job not accepted (409), an item not of this job (404), a typed line (400), and stores nothing', async () => {
    const { job: sent } = await sentJob();
    const notYet = await owner.post(`/api/jobs/${sent.id}/done`, {});
    expect(notYet.status).toBe(409);
    expect(((await notYet.json()) as { message: string }).message).toBe(BOOKING_MESSAGES.notDoneYet);

    const ash = await analysisIdOf(owner, 'ash, 10 inch trunk, 30 ft tall');
    const job = await acceptedJob([ash]);
    const tree = job.items.find((i) => i.kind === 'tree')!;
    const line = job.items.find((i) => i.kind === 'line')!;
    const elsewhere = sent.items[0]!;

    const stranger = await owner.post(`/api/jobs/${job.id}/done`, { actuals: [{ itemId: tree.id, cuttingTime: 50 }, { itemId: elsewhere.id, cuttingTime: 10 }] });
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({ message: 'Item not found', code: 'NOT_FOUND' });
    const typed = await owner.post(`/api/jobs/${job.id}/done`, { actuals: [{ itemId: tree.id, cuttingTime: 50 }, { itemId: line.id, cuttingTime: 10 }] });
    expect(typed.status).toBe(400);
    expect(((await typed.json()) as { message: string }).message).toBe(BOOKING_MESSAGES.lineItem);
    const twice = await owner.post(`/api/jobs/${job.id}/done`, { actuals: [{ itemId: tree.id, cuttingTime: 50 }, { itemId: tree.id, cuttingTime: 10 }] });
    expect(twice.status).toBe(400);
    for (const bad of [-1, 1.5, 100_001, '60']) {
      const res = await owner.post(`/api/jobs/${job.id}/done`, { actuals: [{ itemId: tree.id, cuttingTime: bad }] });
      expect(res.status, String(bad)).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe(BOOKING_MESSAGES.minutes);
    }

    const analysis = ((await (await owner.get(`/api/analysis/${ash}`)).json()) as { analysis: { actualCuttingTime: number | null } }).analysis;
    expect(analysis.actualCuttingTime).toBeNull();
    expect(server.db.select().from(jobs).where(eq(jobs.id, job.id)).get()!.status).toBe('accepted');
  });

  it('skips a tree whose analysis was deleted', async () => {
    const elm = await analysisIdOf(owner, 'elm, 12 inch trunk, 35 ft tall');
    const job = await acceptedJob([elm]);
    // No route deletes one analysis; the schema lets one go (the item keeps its words, analysisId null).
    server.db.delete(treeAnalyses).where(eq(treeAnalyses.id, elm)).run();
    const tree = job.items.find((i) => i.kind === 'tree')!;
    expect((await jobOf(await owner.get(`/api/jobs/${job.id}`))).items.find((i) => i.id === tree.id)!.analysisId).toBeNull();
    const done = await jobOf(await owner.post(`/api/jobs/${job.id}/done`, { actuals: [{ itemId: tree.id, cuttingTime: 60 }] }));
    expect(done.status).toBe('done');
  });
});

describe('the list of jobs', () => {
  it('answers every job with its versions, answers and booking, as each job alone does', async () => {
    const list = jobListSchema.parse(await (await owner.get('/api/jobs')).json()).jobs;
    expect(list.length).toBeGreaterThan(5);
    for (const listed of list) {
      const alone = await jobOf(await owner.get(`/api/jobs/${listed.id}`));
      expect(listed).toEqual(alone);
    }
    expect(list.some((j) => j.versions.some((v) => v.answers.length > 0))).toBe(true);
    expect(list.some((j) => j.booking !== null)).toBe(true);
  });
});
