import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishResponseSchema, jobPhotoSchema, jobPhotosResponseSchema, SITE_CHECK_MESSAGES, SITE_HAZARD_KEYS, WORK_MESSAGES, workSummarySchema } from '../../core/crew-day';
import type { Job } from '../../core/jobs';
import { calibrationTotals, jobPhotos, jobs, workEvents } from '../../db/schema';
import { grantTo } from '../../testing/analysis';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { pixelFlood, sampleImage } from '../../testing/images';
import { analysisIdOf, jobOf } from '../../testing/jobs';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sendQuoteTo } from '../../testing/quote-links';
import { inviteAndJoin } from '../../testing/team';
import { FINISH_MESSAGES } from '../crew-day/finish';
import { JOB_PHOTO_LIMITS, JOB_PHOTO_MESSAGES } from '../crew-day/photos';
import { RateLimits } from '../http/rate-limit';

/*
 * The crew's work on a job over HTTP (docs/product.md, The crew's day, Timers and the finish;
 * Photos): the timer's taps (sent twice, out of order, from a phone whose clock is ahead, before
 * the booking), the start refused without the day's site check and allowed with a reason the owner
 * reads, the finish teaching the next estimate as "Mark as done" does, the owner's correction, the
 * photos with an attacker's shapes, and the "Work finished" e-mail.
 */

let server: TestServer;
let owner: TestClient;
let sam: Awaited<ReturnType<typeof inviteAndJoin>>;
let kim: Awaited<ReturnType<typeof inviteAndJoin>>;
let lee: Awaited<ReturnType<typeof inviteAndJoin>>;
let stranger: TestClient;
let blueCrew: number;
const CUSTOMER = 'alex@example.com';
/** The test clock starts at 2026-06-01 09:00 UTC (10:00 in London): the jobs are booked for that day. */
const TODAY = '2026-06-01';

beforeAll(async () => {
  server = await startTestServer({}, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 } }) });
  const registered = await ownerWithProfile(server);
  owner = registered.client;
  grantTo(server, registered.account.username, 100);
  sam = await inviteAndJoin(server, owner, 'crew', { name: 'Sam Field' });
  kim = await inviteAndJoin(server, owner, 'crew', { name: 'Kim Bough' });
  lee = await inviteAndJoin(server, owner, 'crew', { name: 'Lee Stump' });
  const blue = await owner.post('/api/crews', { name: 'Blue crew', memberIds: [sam.memberId, kim.memberId] });
  expect(blue.status, await blue.clone().text()).toBe(201);
  blueCrew = ((await blue.json()) as { crew: { id: number } }).crew.id;
  expect((await owner.post('/api/crews', { name: 'Red crew', memberIds: [lee.memberId] })).status).toBe(201);
  stranger = (await ownerWithProfile(server)).client;
});
afterAll(() => server.close());

/** A job of `analysisIds`, accepted (asking to start early) and booked today on the blue crew. */
async function bookedJob(analysisIds: number[] = []): Promise<Job> {
  const job = await jobOf(await owner.post('/api/jobs', { analysisIds, customer: { name: 'Alex Customer', email: CUSTOMER, siteAddress: '3 Ash Row, Leeds LS6 2AB' } }), 201);
  if (analysisIds.length === 0) await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Fell the ash', price: '500' });
  const { token } = await sendQuoteTo(server, owner, job.id, CUSTOMER);
  expect((await acceptQuote(server, token, [], true)).status).toBe(200);
  const booked = await owner.post(`/api/jobs/${job.id}/book`, { date: TODAY, crewId: blueCrew });
  expect(booked.status, await booked.clone().text()).toBe(200);
  await mailSettled(server);
  return job;
}

let tapCount = 0;
const clientId = () => `tap-${process.pid}-${(tapCount += 1)}`;

/** A tap of the timer as the phone sends it; `at` as UTC text. */
function tap(client: TestClient, jobId: number, event: string, at: string, extra: Record<string, unknown> = {}) {
  return client.post(`/api/jobs/${jobId}/work`, { event, at, clientId: clientId(), ...extra });
}

async function workOf(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  return workSummarySchema.parse(((await res.json()) as { work: unknown }).work);
}

/** The day's site check filled in and signed by Sam and Kim, each with their own sign-in. */
async function checkAndSign(jobId: number): Promise<void> {
  const put = await sam.client.request('PUT', `/api/jobs/${jobId}/site-check`, {
    hazards: SITE_HAZARD_KEYS.map((key) => ({ key, present: key === 'buildings', ...(key === 'buildings' && { controls: 'Sections lowered on a rope, away from the house' }) })),
    emergency: { meetingPoint: 'The front gate', vehicleAccess: 'From Ash Row, the drive is clear', aerialRescuerId: kim.memberId },
  });
  expect(put.status, await put.clone().text()).toBe(200);
  for (const person of [sam, kim]) expect((await person.client.post(`/api/jobs/${jobId}/site-check/sign`, {})).status).toBe(200);
}

async function ownersView(jobId: number): Promise<Job> {
  return jobOf(await owner.get(`/api/jobs/${jobId}`));
}

describe('the timer', () => {
  it('refuses a start without the day\u2019s site check (409 SITE_CHECK_MISSING), and takes it with a reason the owner reads', async () => {
    const job = await bookedJob();
    const refused = await tap(sam.client, job.id, 'start', '2026-06-01T07:00:00Z');
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { code: string; message: string; details: { missing: string[] } };
    expect(body).toMatchObject({ code: 'SITE_CHECK_MISSING', message: SITE_CHECK_MESSAGES.missing });
    expect(body.details.missing.length).toBeGreaterThan(0);
    expect(server.db.select().from(workEvents).where(eq(workEvents.jobId, job.id)).all()).toEqual([]);

    const started = await workOf(await tap(sam.client, job.id, 'start', '2026-06-01T07:00:00Z', { reason: 'Storm damage: the limb is hanging over the road' }));
    expect(started).toMatchObject({ state: 'running', minutesOnSite: 120, startedWithoutCheck: { reason: 'Storm damage: the limb is hanging over the road', by: 'Sam Field' } });
    const view = await ownersView(job.id);
    expect(view.work?.startedWithoutCheck).toEqual({ reason: 'Storm damage: the limb is hanging over the road', by: 'Sam Field', at: '2026-06-01T07:00:00.000Z' });
  });

  it('counts a tap sent twice once, and answers the same both times', async () => {
    const job = await bookedJob();
    await checkAndSign(job.id);
    const start = { event: 'start', at: '2026-06-01T07:00:00Z', clientId: clientId() };
    const first = await workOf(await sam.client.post(`/api/jobs/${job.id}/work`, start));
    const again = await workOf(await sam.client.post(`/api/jobs/${job.id}/work`, start));
    expect(again).toEqual(first);
    const pause = { event: 'pause', at: '2026-06-01T08:00:00Z', clientId: clientId() };
    await workOf(await kim.client.post(`/api/jobs/${job.id}/work`, pause));
    const pausedAgain = await workOf(await kim.client.post(`/api/jobs/${job.id}/work`, pause));
    expect(pausedAgain).toMatchObject({ state: 'paused', minutesOnSite: 60, startedWithoutCheck: null });
    expect(server.db.select().from(workEvents).where(eq(workEvents.jobId, job.id)).all()).toHaveLength(2);
  });

  it('works the timer out from the phones\u2019 times, whatever order the taps arrive in; a tap that makes no sense is kept and ignored', async () => {
    const job = await bookedJob();
    await checkAndSign(job.id);
    // A phone without signal sends its stop first; the other phone's start, pause and resume follow.
    await workOf(await tap(kim.client, job.id, 'stop', '2026-06-01T08:50:00Z'));
    await workOf(await tap(sam.client, job.id, 'pause', '2026-06-01T07:30:00Z'));
    await workOf(await tap(sam.client, job.id, 'pause', '2026-06-01T07:35:00Z'));
    await workOf(await tap(sam.client, job.id, 'resume', '2026-06-01T07:50:00Z'));
    const work = await workOf(await tap(sam.client, job.id, 'start', '2026-06-01T07:00:00Z'));
    // 07:00-07:30 and 07:50-08:50: 90 minutes; the second pause changes nothing.
    expect(work).toEqual({ minutesOnSite: 90, state: 'stopped', days: [{ date: TODAY, minutesOnSite: 90 }], startedWithoutCheck: null });
    expect(server.db.select().from(workEvents).where(eq(workEvents.jobId, job.id)).all()).toHaveLength(5);
    expect((await ownersView(job.id)).work).toEqual(work);
  });

  it('refuses a time in the future beyond the clock skew, a time before the booking, and a job not booked', async () => {
    const job = await bookedJob();
    // The server's clock reads 09:00 UTC: 09:04 is within the skew, 09:06 is not.
    const future = await tap(sam.client, job.id, 'start', '2026-06-01T09:06:00Z', { reason: 'Testing the clock' });
    expect(future.status).toBe(400);
    expect(await future.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: WORK_MESSAGES.future, details: { at: [WORK_MESSAGES.future] } });
    const before = await tap(sam.client, job.id, 'start', '2026-05-31T12:00:00Z', { reason: 'Testing the clock' });
    expect(before.status).toBe(400);
    expect(await before.json()).toMatchObject({ message: WORK_MESSAGES.beforeBooking });
    expect((await tap(sam.client, job.id, 'start', '2026-06-01T10:04:00+01:00', { reason: 'Within the skew' })).status).toBe(200);

    const draft = await jobOf(await owner.post('/api/jobs', { customer: { name: 'Jo Draft', email: CUSTOMER } }), 201);
    const notBooked = await tap(owner, draft.id, 'start', '2026-06-01T08:00:00Z', { reason: 'x' });
    expect(notBooked.status).toBe(409);
    expect(await notBooked.json()).toMatchObject({ code: 'CONFLICT', message: WORK_MESSAGES.notBooked });

    const bad = await sam.client.post(`/api/jobs/${job.id}/work`, { event: 'lunch', at: 'noon', clientId: 'x' });
    expect(bad.status).toBe(400);
  });

  it('is 404 for a crew member of another crew and for another team, as a job that does not exist', async () => {
    const job = await bookedJob();
    for (const client of [lee.client, stranger]) {
      const res = await tap(client, job.id, 'start', '2026-06-01T08:00:00Z', { reason: 'x' });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});

describe('the finish', () => {
  it('refuses a job whose timer never started unless each tree\u2019s minutes are given', async () => {
    const job = await bookedJob();
    const res = await sam.client.post(`/api/jobs/${job.id}/finish`, {});
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'CONFLICT', message: FINISH_MESSAGES.neverStarted });
  });

  it('turns the minutes on site into the trees\u2019 actual times, teaches the next estimate as "Mark as done" does, and e-mails the customer with the after photo', async () => {
    const description = 'oak, 16 inch trunk, 40 ft tall';
    const before = await analysisIdOf(owner, description);
    const beforeTimes = ((await (await owner.get(`/api/analysis/${before}`)).json()) as { analysis: { cuttingTimeMin: number } }).analysis;
    const oak = await analysisIdOf(owner, description);
    const birch = await analysisIdOf(owner, 'birch, 8 inch trunk, 25 ft tall');
    const job = await bookedJob([oak, birch]);
    const userId = server.db.select().from(jobs).where(eq(jobs.id, job.id)).get()!.userId;
    const totalsBefore = server.db.select().from(calibrationTotals).where(eq(calibrationTotals.userId, userId)).get();
    await checkAndSign(job.id);

    // Fifteen hours on site with a half-hour break: far slower than the estimate (about ten hours for the two).
    await workOf(await tap(sam.client, job.id, 'start', '2026-05-31T23:30:00Z'));
    await workOf(await tap(sam.client, job.id, 'pause', '2026-06-01T04:00:00Z'));
    await workOf(await tap(sam.client, job.id, 'resume', '2026-06-01T04:30:00Z'));
    const shot = await sam.client.upload(`/api/jobs/${job.id}/photos`, photoForm(await sampleImage('jpeg', 800, 600), 'after'));
    expect(shot.status, await shot.clone().text()).toBe(201);
    server.clock.advance(6 * 3_600_000);
    const finished = await sam.client.post(`/api/jobs/${job.id}/finish`, { note: 'Stump left low as agreed' });
    expect(finished.status, await finished.clone().text()).toBe(200);
    const answer = finishResponseSchema.parse(await finished.json());
    // 23:30 UTC is 00:30 in London on the 1st; to 15:00 UTC less the break: 900 minutes.
    expect(answer).toMatchObject({ status: 'done', emailed: true, work: { minutesOnSite: 900, state: 'stopped' } });

    const read = async (id: number) => ((await (await owner.get(`/api/analysis/${id}`)).json()) as { analysis: Record<string, unknown> }).analysis;
    const view = await ownersView(job.id);
    expect(view.status).toBe('done');
    expect(view.doneAt).toBe(server.clock.now().toISOString());
    expect(view.doneBy).toBe('Sam Field');
    expect(view.finish).toMatchObject({ minutesOnSite: 900, givenPerTree: false, note: 'Stump left low as agreed', finishedBy: 'Sam Field', correctedBy: null });
    const actuals = view.actuals!;
    expect(actuals).toHaveLength(2);
    const sum = actuals.reduce((s, a) => s + a.cuttingTime! + a.prepTime! + a.cleanupTime!, 0);
    expect(sum).toBe(900);
    expect(await read(oak)).toMatchObject({ actualCuttingTime: actuals[0]!.cuttingTime, actualPrepTime: actuals[0]!.prepTime, actualCleanupTime: actuals[0]!.cleanupTime });

    const totalsAfter = server.db.select().from(calibrationTotals).where(eq(calibrationTotals.userId, userId)).get()!;
    expect(totalsAfter.jobs).toBe((totalsBefore?.jobs ?? 0) + 2);
    expect(totalsAfter.cuttingObservations).toBe((totalsBefore?.cuttingObservations ?? 0) + 2);
    // The next estimate of the same tree is longer: the crew was slower than the estimate.
    const after = await analysisIdOf(owner, description);
    const afterTimes = ((await (await owner.get(`/api/analysis/${after}`)).json()) as { analysis: { cuttingTimeMin: number } }).analysis;
    expect(afterTimes.cuttingTimeMin).toBeGreaterThan(beforeTimes.cuttingTimeMin);

    // Done is the end of the timer: no more taps, no second finish.
    expect((await tap(sam.client, job.id, 'stop', '2026-06-01T14:59:00Z')).status).toBe(409);
    expect((await sam.client.post(`/api/jobs/${job.id}/finish`, {})).status).toBe(409);

    await mailSettled(server);
    const mail = outboxMessages(server.dataDir).find((m) => addressedTo(m.text, CUSTOMER) && m.text.includes('finished your tree work') && m.text.includes(job.reference));
    expect(mail, 'the "Work finished" e-mail').toBeDefined();
    expect(mail!.text).toMatch(/^Subject: Your tree work is finished/m);
    expect(mail!.text).toContain('Birch Brothers will send you the invoice for the work separately');
    expect(mail!.text).toContain('A photo of the finished work is attached.');
    expect(mail!.raw).toMatch(/Content-Type: image\/jpeg/i);
    expect(mail!.raw).toContain('after-1.jpg');
    expect(mail!.text).not.toContain('£');
  });

  it('takes each tree\u2019s minutes when given, with the timer never started; the owner corrects them afterwards, named', async () => {
    const oak = await analysisIdOf(owner, 'oak, 16 inch trunk, 40 ft tall');
    const job = await bookedJob([oak]);
    const tree = job.items.find((i) => i.kind === 'tree')!;
    const finished = await sam.client.post(`/api/jobs/${job.id}/finish`, { actuals: [{ itemId: tree.id, minutes: 200 }] });
    expect(finished.status, await finished.clone().text()).toBe(200);
    expect(finishResponseSchema.parse(await finished.json()).status).toBe('done');
    const view = await ownersView(job.id);
    const [actual] = view.actuals!;
    expect(actual!.cuttingTime! + actual!.prepTime! + actual!.cleanupTime!).toBe(200);

    expect((await sam.client.request('PATCH', `/api/jobs/${job.id}/actuals`, { actuals: [{ itemId: tree.id, cuttingTime: 1 }] })).status).toBe(403);
    server.clock.advance(60_000);
    const corrected = await jobOf(await owner.request('PATCH', `/api/jobs/${job.id}/actuals`, { actuals: [{ itemId: tree.id, cuttingTime: 150, prepTime: 30, cleanupTime: 45 }] }));
    expect(corrected.actuals).toEqual([{ itemId: tree.id, cuttingTime: 150, prepTime: 30, cleanupTime: 45 }]);
    expect(corrected.finish).toMatchObject({ givenPerTree: true, finishedBy: 'Sam Field', correctedAt: server.clock.now().toISOString() });
    expect(corrected.finish?.correctedBy).toMatch(/\S/);

    const notDone = await bookedJob();
    expect((await owner.request('PATCH', `/api/jobs/${notDone.id}/actuals`, { actuals: [] })).status).toBe(409);
  });
});

function photoForm(bytes: Buffer, kind: string, type = 'image/jpeg', filename = 'photo.jpg'): FormData {
  const form = new FormData();
  form.append('kind', kind);
  form.append('photo', new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

/** A small JPEG whose header claims `width` x `height` (its SOF0 rewritten): an image bomb's shape. */
async function jpegClaiming(width: number, height: number): Promise<Buffer> {
  const bytes = Buffer.from(await sampleImage('jpeg', 64, 48));
  const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
  bytes.writeUInt16BE(height, sof + 5);
  bytes.writeUInt16BE(width, sof + 7);
  return bytes;
}

describe('photos', () => {
  it('takes a JPEG from the crew, lists it for the crew and the owner, and serves it clean', async () => {
    const job = await bookedJob();
    const withGps = await sharp(await sampleImage('jpeg', 1200, 900)).withExif({ IFD0: { Copyright: 'Sam Field' } }).jpeg().toBuffer();
    const res = await sam.client.upload(`/api/jobs/${job.id}/photos`, photoForm(withGps, 'before'));
    expect(res.status, await res.clone().text()).toBe(201);
    const photo = jobPhotoSchema.parse(((await res.json()) as { photo: unknown }).photo);
    expect(photo).toMatchObject({ kind: 'before', takenBy: 'Sam Field', url: `/api/jobs/${job.id}/photos/${photo.id}` });

    const listed = jobPhotosResponseSchema.parse(await (await kim.client.get(`/api/jobs/${job.id}/photos`)).json());
    expect(listed.photos).toEqual([photo]);
    expect((await ownersView(job.id)).photos).toEqual([photo]);
    const served = await kim.client.get(photo.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta.exif).toBeUndefined();

    // Another crew's member, another team: the job, its list and its photo are 404.
    for (const client of [lee.client, stranger]) {
      expect((await client.get(`/api/jobs/${job.id}/photos`)).status).toBe(404);
      expect((await client.get(photo.url)).status).toBe(404);
      expect((await client.upload(`/api/jobs/${job.id}/photos`, photoForm(withGps, 'after'))).status).toBe(404);
    }
    // A photo of another job named under this one is 404 too.
    const other = await bookedJob();
    expect((await owner.get(`/api/jobs/${other.id}/photos/${photo.id}`)).status).toBe(404);
  });

  it("refuses an attacker's shapes: not an image, a PNG, GIF, SVG or HTML named as a JPEG, an image bomb, too large, no kind, too many", async () => {
    const job = await bookedJob();
    const url = `/api/jobs/${job.id}/photos`;
    const disguised: [string, Buffer][] = [
      ['text', Buffer.from('just some words, not a photo at all')],
      ['png', await sampleImage('png', 64, 48)],
      ['gif', await sampleImage('gif', 64, 48)],
      ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>')],
      ['html', Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>')],
      ['png bomb', pixelFlood()],
    ];
    for (const [name, bytes] of disguised) {
      const res = await sam.client.upload(url, photoForm(bytes, 'after', 'image/jpeg', 'photo.jpg'));
      expect(res.status, name).toBe(415);
      expect(await res.json(), name).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: JOB_PHOTO_MESSAGES.notJpeg });
    }
    const bomb = await sam.client.upload(url, photoForm(await jpegClaiming(60_000, 60_000), 'after'));
    expect(bomb.status).toBe(413);
    const huge = Buffer.concat([await sampleImage('jpeg', 64, 48), Buffer.alloc(JOB_PHOTO_LIMITS.bytes + 1)]);
    expect((await sam.client.upload(url, photoForm(huge, 'after'))).status).toBe(413);
    const noKind = await sam.client.upload(url, photoForm(await sampleImage('jpeg', 64, 48), 'during'));
    expect(noKind.status).toBe(400);
    expect(await noKind.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { kind: [JOB_PHOTO_MESSAGES.kind] } });
    expect(server.db.select().from(jobPhotos).where(eq(jobPhotos.jobId, job.id)).all()).toEqual([]);

    // A job full of photos takes no more.
    const accountId = server.db.select().from(jobs).where(eq(jobs.id, job.id)).get()!.userId;
    for (let i = 0; i < JOB_PHOTO_LIMITS.perJob; i += 1) {
      server.db.insert(jobPhotos).values({ jobId: job.id, accountId, kind: 'after', imageName: `${crypto.randomUUID()}.jpg`, width: 10, height: 10, createdAt: server.clock.now() }).run();
    }
    const full = await sam.client.upload(url, photoForm(await sampleImage('jpeg', 64, 48), 'after'));
    expect(full.status).toBe(409);
    expect(await full.json()).toMatchObject({ message: JOB_PHOTO_MESSAGES.tooMany });
  });
});
