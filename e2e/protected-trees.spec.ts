import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { addDays, formatBookingDate } from '../core/job-booking';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { waitForMail } from './mailbox';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import { keepScreenshot } from './keep-screenshot';
import { pdfText } from '../testing/quote';

/*
 * Protected trees, from a homeowner's postcode to a booked job (docs/product.md, Protected trees),
 * the surgeon at 1280 px and the homeowner and customer on a 390 px phone. The app asks a fake
 * postcodes.io and planning data (e2e/global-setup.ts): BS8 4AA is in the Clifton conservation
 * area, Bristol City Council. The request screen says so under the postcode; the job's panel shows
 * the area and council; the section 211 notice is drafted from the estimate; "notice sent" gives
 * the earliest start six weeks on, which the customer's quote carries; booking five weeks on is
 * refused with that date, and at six weeks it is booked with the nesting line (the account's
 * nesting season set in Settings to cover that day).
 */
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const VISITOR = 'Imogen Clifton';

/** "YYYY-MM-DD" today in the UK. */
const ukToday = () => new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('a conservation-area lead: the panel, the notice PDF, notice sent, booking refused before six weeks and booked at six with the nesting line; the customer told', async ({ page, browser }) => {
  await page.setViewportSize(DESKTOP);
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 20);
  const profile = await page.request.patch('/api/system-settings', {
    data: { hourlyRate: '60', companyProfile: { tradingName: 'Downs Arboriculture', phone: '0117 496 0000', email: 'office@downs.example', address: '3 Gully Lane\nBristol BS8 1AA', vatNumber: '', quoteValidityDays: 30 } },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(profile.status(), await profile.text()).toBe(200);
  const slug = `downs-${Date.now().toString(36)}`;
  const created = await page.request.post('/api/businesses', { data: { name: 'Downs Arboriculture', slug, hourlyRate: '60.00', aiInstructions: null }, headers: { Origin: e2eEnv('baseURL') } });
  expect(created.status(), await created.text()).toBe(201);

  // The homeowner on a phone: a price, then the request; the postcode brings the council's note.
  const homeowner = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const visitor = await homeowner.newPage();
  await visitor.goto(`/embed/${slug}`);
  const widget = visitor.locator('tree-estimator');
  await widget.locator('input[type="file"]').setInputFiles(PHOTO);
  await widget.getByLabel('Anything else we should know?').fill('redbud, 6 inch trunk, 15 ft tall, in the front garden');
  await widget.getByRole('button', { name: 'Get my price' }).click();
  await expect(widget.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  const email = `imogen-${owner.username}@example.test`;
  await widget.getByLabel('Name').fill(VISITOR);
  await widget.getByLabel('E-mail').fill(email);
  await widget.getByLabel('Phone').fill('0117 496 0123');
  await widget.getByLabel('Postcode').fill('bs8 4aa');
  await expect(widget.getByRole('status').filter({ hasText: 'This address is in a conservation area' })).toHaveText(
    "This address is in a conservation area: the council must be given six weeks' notice before most tree work, so the work may need to wait.",
  );
  expect(await noSideScroll(visitor)).toBe(true);
  await keepScreenshot(visitor, 'protected-1-request-note-390');
  await widget.getByRole('button', { name: 'Request a quote' }).click();
  await expect(widget.getByText('Thank you! Your request has been sent.')).toBeVisible();
  await homeowner.close();

  // The surgeon makes a job of the lead: the Protected trees panel names the area and the council.
  await page.goto('/admin/businesses');
  await page.getByRole('listitem').filter({ hasText: VISITOR }).getByRole('button', { name: `Make a job for ${VISITOR}` }).click();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  const jobId = page.url().split('/').at(-1)!;
  const panel = page.getByRole('region', { name: 'Protected trees' });
  await expect(panel.getByText('In the Clifton conservation area (Bristol City Council)')).toBeVisible();
  await expect(panel.getByRole('link', { name: /Bristol City Council/ })).toHaveAttribute('href', 'https://www.bristol.gov.uk/');
  await expect(panel).toContainText('Postcode BS8 4AA.');
  await expect(panel).toContainText('Waiting for: A section 211 notice to the council, six weeks before the work.');

  // The notice drafted from the estimate (the redbud's species, the trunk as the homeowner wrote
  // it against 7.5 cm), corrected in the panel with where the tree stands and the trunk measured
  // at 1.5 m, saved, and downloaded as corrected.
  const tree = panel.getByRole('group', { name: 'Tree 1: Redbud' });
  await expect(tree.getByLabel('Species', { exact: true })).toHaveValue('Redbud');
  await expect(tree).toContainText("Empty: the estimate's 6 in (15.2 cm)");
  await tree.getByLabel('Where it stands on the site').fill('Front garden, 2 m from the road');
  await tree.getByLabel('Trunk, 1.5 m above the ground').fill('16');
  await panel.getByRole('button', { name: 'Save the notice' }).click();
  await expect(panel.getByText('Saved.', { exact: true })).toBeVisible();
  await expect(tree.getByLabel('Where it stands on the site')).toHaveValue('Front garden, 2 m from the road');
  await keepScreenshot(page, 'protected-2a-notice-editor-1280');
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('link', { name: 'Download the notice (PDF)' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^section-211-Q-\d{6}\.pdf$/);
  const notice = (await pdfText(await readFile((await download.path())!))).text.replace(/\s+/g, ' ');
  expect(notice).toContain('Notice of intent to carry out works to trees in a conservation area');
  expect(notice).toContain('To: Bristol City Council');
  expect(notice).toContain('Tree 1: Redbud');
  expect(notice).toContain('Where it stands: Front garden, 2 m from the road');
  expect(notice).toContain('Tree 1, as photographed for the estimate');
  expect(notice).toContain('Trunk 16 cm across at 1.5 m: over the 7.5 cm threshold, so notice is needed');
  expect(notice).toContain('Downs Arboriculture');

  // Sent today: the earliest start is six weeks on.
  const today = ukToday();
  const earliest = addDays(today, 42);
  await panel.getByRole('radio', { name: 'Section 211 notice sent to the council' }).check();
  await expect(panel.getByLabel('On', { exact: true })).toHaveValue(today);
  await panel.getByLabel("Council's reference (optional)").fill('Emailed to trees@bristol.gov.uk');
  await panel.getByRole('button', { name: 'Record' }).click();
  await expect(panel.getByText(`Earliest start: ${formatBookingDate(earliest, 'none')}`)).toBeVisible();
  await expect(panel).toContainText(`Section 211 notice sent to the council on ${formatBookingDate(today, 'none')} (reference Emailed to trees@bristol.gov.uk).`);
  await keepScreenshot(page, 'protected-2-panel-1280');

  // The Jobs page finds it waiting on the council.
  await page.goto('/jobs');
  await page.getByRole('button', { name: 'Waiting on the council' }).click();
  await expect(page.getByRole('list', { name: 'Jobs' }).getByRole('listitem').filter({ hasText: VISITOR })).toBeVisible();

  // The quote goes out; the customer's copy says when the work can start.
  await page.goto(`/jobs/${jobId}`);
  const sentAt = Date.now();
  await expect(page.getByLabel('Send the quote to')).toHaveValue(email);
  await page.getByRole('button', { name: 'Send quote' }).click();
  await expect(page.getByText(`Version 1 sent to ${email}`)).toBeVisible();
  const { mail } = await waitForMail(email, { since: sentAt, subject: /^Your quote from/ });
  const link = /https?:\/\/\S+\/quote\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeTruthy();
  const customer = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  const phone = await customer.newPage();
  await phone.goto(link!);
  const line = `The site is in a conservation area: we give the council six weeks' notice before the work, so the earliest start is ${formatBookingDate(earliest, 'none')}.`;
  await expect(phone.getByText(line)).toBeVisible();
  expect(await noSideScroll(phone)).toBe(true);
  await keepScreenshot(phone, 'protected-3-customer-quote-390');
  const accept = phone.getByRole('group', { name: 'Accept the quote' });
  await accept.getByLabel('Your full name').fill(VISITOR);
  await accept.getByLabel('I accept the terms of this quote').check();
  await accept.getByRole('button', { name: 'Accept the quote' }).click();
  await expect(phone.getByRole('region', { name: 'Accepted' })).toContainText(`Accepted by ${VISITOR} on`);
  await customer.close();

  // The nesting season, in Settings, covers the week of the earliest start.
  await page.goto('/settings');
  const season = page.getByRole('form', { name: 'Nesting season' });
  await season.getByLabel('Nesting season from').fill(earliest.slice(5));
  await season.getByLabel('Nesting season to').fill(addDays(earliest, 7).slice(5));
  await season.getByRole('button', { name: 'Save Nesting Season' }).click();
  await expect(page.getByText('Nesting Season Saved', { exact: true })).toBeVisible();

  // Five weeks on: refused with the earliest start; six weeks on: booked, with the nesting line.
  await page.goto(`/jobs/${jobId}`);
  const booking = page.getByRole('region', { name: 'Book the work' });
  await booking.getByRole('textbox', { name: 'Date', exact: true }).fill(addDays(today, 35));
  await booking.getByRole('button', { name: 'Book the work' }).click();
  const refused = booking.getByRole('alert').filter({ hasText: 'Not booked: a protected tree' });
  await expect(refused).toContainText(`The earliest start after the council's notice is ${formatBookingDate(earliest, 'none')}. Choose that day or later, or book anyway with a reason.`);
  await keepScreenshot(page, 'protected-4-refused-1280');
  await booking.getByRole('textbox', { name: 'Date', exact: true }).fill(earliest);
  await booking.getByRole('button', { name: 'Book the work' }).click();
  await expect(page.getByRole('region', { name: 'Booking' }).getByText(`Booked for ${formatBookingDate(earliest)}`)).toBeVisible();
  await expect(panel.getByText('Check for nesting birds before starting.')).toBeVisible();
  const booked = await page.request.get(`/api/jobs/${jobId}/protection`);
  expect(((await booked.json()) as { protection: { nestingCheck: string | null } }).protection.nestingCheck).toBe('Check for nesting birds before starting');
  await keepScreenshot(page, 'protected-5-booked-1280');

  // The same job page on a phone: the panel fits.
  await page.setViewportSize(PHONE);
  await expect(panel.getByText('In the Clifton conservation area (Bristol City Council)')).toBeVisible();
  expect(await noSideScroll(page)).toBe(true);
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'protected-6-panel-390');
  // The notice's editor opened on the phone: its saved corrections, and it fits.
  await panel.getByText('Check and download the section 211 notice').click();
  await expect(panel.getByRole('group', { name: 'Tree 1: Redbud' }).getByLabel('Where it stands on the site')).toHaveValue('Front garden, 2 m from the road');
  expect(await noSideScroll(page)).toBe(true);
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'protected-7-notice-editor-390');
});
