import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext } from '@playwright/test';
import { formatBookingDate } from '../core/job-booking';
import { jobResponseSchema, type Job } from '../core/jobs';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { waitForMail } from './mailbox';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import { keepScreenshot } from './keep-screenshot';
import { ok } from './api-answer';

/*
 * Booked and done on a 390 px phone (docs/product.md, Jobs and quotes: Booking and done): an
 * accepted quote is booked with a site visit first, and the customer's e-mail carries the
 * calendar file; marking the job done asks each tree's actual times, which reach the tree's
 * analysis (the feedback that calibrates later estimates).
 */
const PHONE = { width: 390, height: 844 };
const PHOTO = fileURLToPath(new URL('./fixtures/photos/elm-open-ground.jpg', import.meta.url));
const origin = () => ({ Origin: e2eEnv('baseURL') });

/** "YYYY-MM-DD" `days` from now, in UK dates (the booking's calendar). */
function ukDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

/** A one-tree job sent to `email` and accepted by the customer through the link's API. */
async function acceptedJob(request: APIRequestContext, email: string): Promise<Job> {
  const { analysis } = await ok<{ analysis: { id: number } }>(
    request.post('/api/analyze-tree', {
      multipart: { image: { name: 'elm.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) }, description: 'elm, 20 inch trunk, 50 ft tall' },
      headers: origin(),
      timeout: 30_000,
    }),
    201,
  );
  const { job } = await ok<{ job: Job }>(request.post('/api/jobs', { data: { analysisIds: [analysis.id], customer: { name: 'Mrs Jo Rowan', email, siteAddress: '12 Acacia Avenue, Little Snoring' } }, headers: origin() }), 201);
  const since = Date.now();
  await ok(request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const { mail } = await waitForMail(email, { since });
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  await ok(request.post(`/api/quotes/${token}/accept`, { data: { name: 'Jo Rowan', acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: false }, headers: origin() }));
  return job;
}

test('an accepted job is booked with a site visit (the customer gets the calendar file), then marked done with the actual times', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 20);
  await ok(page.request.patch('/api/system-settings', { data: { hourlyRate: '90' }, headers: origin() }));
  const email = `booking-${owner.username}@example.test`;
  const job = await acceptedJob(page.request, email);

  await page.goto(`/jobs/${job.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${job.reference} for Mrs Jo Rowan` })).toBeVisible();
  const booking = page.getByRole('region', { name: 'Book the work' });
  await expect(booking).toBeVisible();

  // Book: the work in a fortnight, a site visit a week before.
  // The first day after the customer's 14-day cancellation period (they did not ask to start early); the visit may be sooner.
  const workDate = ukDate(15);
  const visitDate = ukDate(7);
  await booking.getByRole('textbox', { name: 'Date', exact: true }).fill(workDate);
  await booking.getByLabel('Start time').fill('08:30');
  await booking.getByLabel('A site visit first').check();
  await booking.getByLabel('Site visit date').fill(visitDate);
  await booking.getByLabel('Site visit time').fill('10:00');
  await booking.getByLabel('Note for the customer').fill('Please leave the side gate open.');
  await keepScreenshot(page, 'booking-form-390');
  const bookedAt = Date.now();
  await booking.getByRole('button', { name: 'Book the work' }).click();

  const booked = page.getByRole('region', { name: 'Booking' });
  await expect(booked.getByText(`Booked for ${formatBookingDate(workDate)}, 08:30`)).toBeVisible();
  await expect(booked.getByText(`Site visit first: ${formatBookingDate(visitDate)}, 10:00`)).toBeVisible();
  await expect(page.getByText('Booked', { exact: true }).first()).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'booking-booked-390');

  // The customer's e-mail: the date, and a calendar file with both events.
  const { mail } = await waitForMail(email, { since: bookedAt });
  expect(mail.subject).toBe(`Your tree work is booked: ${formatBookingDate(workDate)} (${job.reference})`);
  const calendar = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  expect(calendar, 'a calendar file is attached').toBeTruthy();
  const ics = calendar!.content.toString('utf8');
  expect(ics).toContain(`DTSTART;TZID=Europe/London:${workDate.replace(/-/g, '')}T083000`);
  expect(ics).toContain(`DTSTART;TZID=Europe/London:${visitDate.replace(/-/g, '')}T100000`);

  // Done a fortnight early: asked first, with the booked date, and "Not yet" leaves it booked.
  await booked.getByRole('button', { name: 'Mark as done' }).click();
  const early = page.getByRole('dialog', { name: 'Mark as done before the booked date?' });
  await expect(early).toContainText(`This job is booked for ${formatBookingDate(workDate, 'long')}, 08:30, and that day has not come yet.`);
  await keepScreenshot(page, 'booking-done-early-390');
  await early.getByRole('button', { name: 'Not yet' }).click();
  await expect(early).toBeHidden();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await booked.getByRole('button', { name: 'Mark as done' }).click();
  await early.getByRole('button', { name: 'It is done' }).click();

  // Done: each tree's actual times, in the surgeon's words for time.
  const dialog = page.getByRole('dialog', { name: 'Mark as done', exact: true });
  await dialog.getByLabel('Cutting').fill('1h 30m');
  await dialog.getByLabel('Prep & setup').fill('45');
  await dialog.getByLabel('Cleanup').fill('40m');
  await keepScreenshot(page, 'booking-done-dialog-390');
  await dialog.getByRole('button', { name: 'Mark as done' }).click();
  await expect(page.getByText(/^Marked done/)).toBeVisible();
  await expect(page.getByText('Done', { exact: true }).first()).toBeVisible();
  await keepScreenshot(page, 'booking-done-390');

  const done = jobResponseSchema.parse(await ok(page.request.get(`/api/jobs/${job.id}`))).job;
  expect(done.status).toBe('done');
  const { analysis } = await ok<{ analysis: { actualCuttingTime: number; actualPrepTime: number; actualCleanupTime: number } }>(page.request.get(`/api/analysis/${done.items[0]!.analysisId}`));
  expect(analysis).toMatchObject({ actualCuttingTime: 90, actualPrepTime: 45, actualCleanupTime: 40 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});
