import { addDays, formatBookingDate, ukToday } from '../core/job-booking';
import { EARLY_START_REQUEST_WORDS } from '../core/cancellation-period';
import type { Job } from '../core/jobs';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * The cancellation period kept, on phones (docs/product.md, Jobs and quotes: the cancellation
 * period and early starts): a consumer accepts without asking to start early; the job page says
 * when booking may start, and a date inside the 14 days is refused with the server's sentence;
 * the surgeon asks the customer, whose quote page (390 px) then offers "Start before the 14 days
 * are over" in the Regulations' words; once the customer asks, both get the request by e-mail,
 * the job page says so, and the work books inside the period.
 */
const PHONE = { width: 390, height: 844 };
const origin = () => ({ Origin: e2eEnv('baseURL') });
const quoteLinkIn = (text: string | undefined) => /https?:\/\/\S+\/quote\/[A-Za-z0-9_-]{43}(#early-start)?/.exec(text ?? '')?.[0];

test('booking waits for the cancellation period until the customer asks, from their quote page, to start early', async ({ page, browser }) => {
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  await ok(page.request.patch('/api/system-settings', { data: { companyProfile: { tradingName: 'Birch & Sons Tree Care', phone: '01632 960000', email: 'office@birch.example', address: '1 Yard Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 } }, headers: origin() }));
  const email = `early-${owner.username}@example.test`;
  const { job } = await ok<{ job: Job }>(page.request.post('/api/jobs', { data: { customer: { name: 'Jo Rowan', email, siteAddress: '12 Acacia Avenue, Leeds LS6 2AB' } }, headers: origin() }), 201);
  await ok(page.request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Fell the leylandii by the garage and grind the stump', price: '600' }, headers: origin() }), 201);
  const sentAt = Date.now();
  await ok(page.request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec((await waitForMail(email, { since: sentAt })).mail.text ?? '')?.[1];
  await ok(page.request.post(`/api/quotes/${token}/accept`, { data: { name: 'Jo Rowan', acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: false }, headers: origin() }));

  const today = ukToday(new Date());
  const lastDay = addDays(today, 14);
  const firstDay = addDays(today, 15);
  const soon = addDays(today, 3);

  // The job page says when booking may start; a date inside the period is refused with the server's sentence.
  await page.goto(`/jobs/${job.id}`);
  const booking = page.getByRole('region', { name: 'Book the work' });
  await expect(booking.getByText(`Cancellation period until ${formatBookingDate(lastDay, 'long')}: booking from ${formatBookingDate(firstDay, 'long')}.`)).toBeVisible();
  await booking.getByRole('textbox', { name: 'Date', exact: true }).fill(soon);
  await booking.getByRole('button', { name: 'Book the work' }).click();
  const refused = booking.getByRole('alert').filter({ hasText: "Not booked: the customer's cancellation period" });
  await expect(refused).toContainText(
    `The customer's 14-day cancellation period ends on ${formatBookingDate(lastDay, 'long')}; book from ${formatBookingDate(firstDay, 'long')}, or ask the customer whether they want the work to start sooner.`,
  );
  await expect(refused.getByRole('button', { name: `Use ${formatBookingDate(firstDay)}` })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'early-start-1-refused-390');

  // The surgeon asks; the customer is e-mailed a link to their quote page.
  const askedAt = Date.now();
  await booking.getByRole('button', { name: 'Ask the customer to start early' }).click();
  await expect(booking.getByText(`Early start asked ${formatBookingDate(today, 'long')}, waiting for the customer.`)).toBeVisible();
  const ask = await waitForMail(email, { since: askedAt, subject: /^Start your tree work sooner\?/ });
  expect(ask.mail.text).toContain(`sooner than ${formatBookingDate(firstDay, 'long')}`);
  const link = quoteLinkIn(ask.mail.text);
  expect(link, ask.mail.text).toMatch(/#early-start$/);

  // The customer's page on their phone offers the request in the Regulations' words.
  const customer = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const phone = await customer.newPage();
  await phone.goto(link!);
  const offer = phone.getByRole('group', { name: 'Start before the 14 days are over' });
  await expect(offer).toBeVisible();
  for (const line of EARLY_START_REQUEST_WORDS) await expect(offer).toContainText(line);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectNoSeriousAxeViolations(phone);
  await offer.scrollIntoViewIfNeeded();
  await keepScreenshot(phone, 'early-start-2-customer-offer-390');
  await offer.getByLabel('Your full name').fill('Jo Rowan');
  await offer.getByLabel('I ask for the work to start within my 14-day cancellation period').check();
  const requestedAt = Date.now();
  await offer.getByRole('button', { name: 'Ask for the work to start early' }).click();
  await expect(phone.getByRole('region', { name: 'Accepted' })).toContainText(`You asked for the work to start within your 14-day cancellation period on ${formatBookingDate(today, 'long')}.`);
  await expect(phone.getByRole('group', { name: 'Start before the 14 days are over' })).toHaveCount(0);
  await keepScreenshot(phone, 'early-start-3-customer-asked-390');
  await customer.close();

  // Both have the request by e-mail; the owner's names the evidence.
  const customerCopy = await waitForMail(email, { since: requestedAt, subject: /^Your request to start early/ });
  expect(customerCopy.mail.text).toContain(EARLY_START_REQUEST_WORDS[0]);
  const ownerCopy = await waitForMail(owner.email, { since: requestedAt, subject: /asked to start early/ });
  expect(ownerCopy.mail.text).toContain('Name typed: Jo Rowan');
  expect(ownerCopy.mail.text).toMatch(/Browser: Mozilla\/5\.0/);

  // The job page says so, and the work books inside the period.
  await page.reload();
  await expect(booking.getByText(`The customer asked to start early on ${formatBookingDate(today, 'long')}.`)).toBeVisible();
  await booking.getByRole('textbox', { name: 'Date', exact: true }).fill(soon);
  await booking.getByRole('button', { name: 'Book the work' }).click();
  await expect(page.getByRole('region', { name: 'Booking' }).getByText(`Booked for ${formatBookingDate(soon)}, 08:00`)).toBeVisible();
  await keepScreenshot(page, 'early-start-4-booked-390');
});
