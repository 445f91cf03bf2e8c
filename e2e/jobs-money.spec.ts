import type { APIRequestContext, Page } from '@playwright/test';
import { invoiceListSchema } from '../core/invoices';
import { formatBookingDate, ukToday } from '../core/job-booking';
import { jobResponseSchema, type Job } from '../core/jobs';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * Each job's money on the Jobs pages, on a 390 px phone (docs/product.md, Getting paid, Each job's
 * money): a deposit rule of 10% on jobs over £500 and two accepted jobs, £400 and £1,200. The
 * £1,200 one's acceptance issues its £120.00 deposit invoice, and it waits for the deposit: its row
 * says so, its page says so, and Book the work asks first ("Not yet" leaves it unbooked). Once the
 * deposit is paid it reads "Deposit paid" and books at once; the month's cards add up what was
 * invoiced and paid.
 */
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const origin = () => ({ Origin: e2eEnv('baseURL') });

/** "YYYY-MM-DD" `days` from now, in UK dates (the booking's calendar). */
function ukDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
}

/** A one-line job (no VAT: a new account has no VAT number), sent and accepted through its link. */
async function acceptedJob(request: APIRequestContext, name: string, email: string, price: string): Promise<Job> {
  const { job } = await ok<{ job: Job }>(request.post('/api/jobs', { data: { customer: { name, email } }, headers: origin() }), 201);
  await ok(request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Reduce the oak crown by 2 m', price }, headers: origin() }), 201);
  const since = Date.now();
  await ok(request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const { mail } = await waitForMail(email, { since });
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  await ok(request.post(`/api/quotes/${token}/accept`, { data: { name, acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: false }, headers: origin() }));
  return job;
}

/** The job's status as the server has it now. */
async function statusOf(page: Page, job: Job): Promise<string> {
  return jobResponseSchema.parse(await ok(page.request.get(`/api/jobs/${job.id}`))).job.status;
}

test("each job's money on the Jobs page; a job waiting for its deposit asks before it is booked", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  await ok(page.request.patch('/api/system-settings', { data: { depositRule: { percent: 10, overAmount: '500' } }, headers: origin() }));
  const small = await acceptedJob(page.request, 'Ivy Larch', `ivy-${owner.username}@example.test`, '400');
  const large = await acceptedJob(page.request, 'Owen Hazel', `owen-${owner.username}@example.test`, '1200');

  await page.goto('/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  const rows = page.getByRole('list', { name: 'Jobs' }).getByRole('listitem');
  const row = (job: Job) => rows.filter({ has: page.getByRole('link', { name: new RegExp(`^${job.reference} for `) }) });
  await expect(row(large)).toContainText('Waiting for deposit');
  await expect(row(small)).toContainText('Not invoiced');
  await expect(row(small)).not.toContainText('Waiting for deposit');
  const month = page.getByRole('region', { name: /^This month: / });
  const figure = (label: string) => month.getByRole('term').filter({ hasText: label }).locator('xpath=..');
  await expect(figure('Accepted')).toContainText('£1,600.00');
  // Accepting the £1,200 job issued the rule's deposit invoice (docs/product.md, Card payments: deposits).
  await expect(figure('Invoiced')).toContainText('£120.00');
  await expect(figure('Owed')).toContainText('£120.00');
  await expect(figure('Paid').getByRole('link', { name: /^Paid/ })).toHaveAttribute('href', '/invoices');
  await expectNoSeriousAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await keepScreenshot(page, 'jobs-money-waiting-390');

  // The £1,200 job's page says it waits, and booking asks first: "Not yet" leaves it unbooked.
  await row(large).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: `${large.reference} for Owen Hazel` })).toBeVisible();
  await expect(page.getByText('Waiting for deposit: the deposit rule in Settings asks a deposit on this job, and none is paid yet.')).toBeVisible();
  const booking = page.getByRole('region', { name: 'Book the work' });
  // The first day after the customer's 14-day cancellation period (they did not ask to start early).
  const workDate = ukDate(15);
  await booking.getByRole('textbox', { name: 'Date', exact: true }).fill(workDate);
  await booking.getByRole('button', { name: 'Book the work' }).click();
  const ask = page.getByRole('dialog', { name: 'Book before the deposit is paid?' });
  await expect(ask.getByRole('button', { name: 'Book anyway' })).toBeVisible();
  await keepScreenshot(page, 'jobs-money-book-ask-390');
  await ask.getByRole('button', { name: 'Not yet' }).click();
  await expect(ask).toBeHidden();
  await expect(booking.getByRole('button', { name: 'Book the work' })).toBeFocused();
  expect(await statusOf(page, large)).toBe('accepted');

  // The 10% deposit (the rule's, £120.00), issued on acceptance, then paid through the API.
  const [draft, ...others] = invoiceListSchema.parse(await ok(page.request.get(`/api/jobs/${large.id}/invoices`))).invoices;
  expect(others).toEqual([]);
  expect([draft!.kind, draft!.number, draft!.totals.gross]).toEqual(['deposit', 'INV-0001', '120.00']);
  // Issued and not yet paid: still waiting, and what it asks is owed.
  await page.goto('/jobs');
  await expect(row(large)).toContainText('Waiting for deposit');
  await expect(row(large)).toContainText('£120.00 owed');
  await expect(figure('Owed')).toContainText('£120.00');
  await page.setViewportSize(WIDE);
  await keepScreenshot(page, 'jobs-money-deposit-due-1280');
  await page.setViewportSize(PHONE);
  await ok(page.request.post(`/api/invoices/${draft!.id}/payments`, { data: { amount: '120.00', paidOn: ukToday(new Date()), method: 'bank_transfer' }, headers: origin() }), 201);

  await page.goto('/jobs');
  await expect(row(large)).toContainText('Deposit paid');
  await expect(row(large)).not.toContainText('Waiting for deposit');
  await expect(row(small)).toContainText('Not invoiced');
  await expect(figure('Invoiced')).toContainText('£120.00');
  await expect(figure('Paid')).toContainText('£120.00');
  await expect(figure('Owed')).toContainText('£0.00');
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'jobs-money-paid-390');
  await page.setViewportSize(WIDE);
  await expect(row(large)).toContainText('Deposit paid');
  await keepScreenshot(page, 'jobs-money-paid-1280');
  await page.setViewportSize(PHONE);

  // Paid, the job books at once.
  await row(large).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: `${large.reference} for Owen Hazel` })).toBeVisible();
  await expect(page.getByText(/^Waiting for deposit:/)).toBeHidden();
  await booking.getByRole('textbox', { name: 'Date', exact: true }).fill(workDate);
  await booking.getByRole('button', { name: 'Book the work' }).click();
  await expect(page.getByRole('region', { name: 'Booking' }).getByText(`Booked for ${formatBookingDate(workDate)}, 08:00`)).toBeVisible();
  await expect(ask).toBeHidden();
  expect(await statusOf(page, large)).toBe('booked');

  // The month's cards open the Invoices page.
  await page.goto('/jobs');
  await figure('Invoiced').getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
});
