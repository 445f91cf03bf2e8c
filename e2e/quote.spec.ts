import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Download, Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { formatQuoteDate, quoteValidUntil } from '../core/quote';
import { testLogoPng } from '../testing/logo';
import { expectNoSeriousAxeViolations } from './axe';
import { openFileChooser } from './file-chooser';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * A quote the customer can receive (docs/analysis.md, Quotes), in a real
 * Chromium against the real server: the contractor fills the company profile and logo in
 * Settings, analyses a photo with the tree's species and sizes in the project details, and
 * downloads the quote. The customer's copy names the company, the quote number and its
 * validity, shows VAT, and carries none of the internal notes; the internal copy does.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/elm-beside-building.jpg', import.meta.url));
const COMPANY = 'Willow & Sons Tree Surgery';
const VALIDITY_DAYS = 21;

async function pdfText(download: Download) {
  const bytes = new Uint8Array(await readFile((await download.path())!));
  const { text, totalPages } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  return { text: text.replace(/\s+/g, ' '), totalPages };
}

async function fillCompanyProfile(page: Page) {
  const profile = page.getByRole('region', { name: 'Company profile' });
  await profile.getByLabel('Trading name').fill(COMPANY);
  await profile.getByLabel('Phone').fill('01632 960 777');
  await profile.getByLabel('E-mail').fill('quotes@willowandsons.example');
  await profile.getByLabel('Address').fill('2 Orchard Row\nLittle Snoring\nNR21 0AA');
  await profile.getByLabel('VAT number (optional)').fill('GB1234');
  await profile.getByLabel('Quote valid for (days)').fill(String(VALIDITY_DAYS));
  await profile.getByRole('button', { name: 'Save Company Profile' }).click();
  // The server's per-field message, under the field.
  await expect(profile.getByText('Enter a UK VAT number: GB followed by 9 or 12 digits, e.g. GB 123 4567 89')).toBeVisible();
  // Typed as it comes, it reads as every quote prints it once the field is left (core/company-profile.ts).
  await profile.getByLabel('VAT number (optional)').fill('gb123456789');
  await profile.getByLabel('Quote valid for (days)').focus();
  await expect(profile.getByLabel('VAT number (optional)')).toHaveValue('GB 123 4567 89');
  await profile.getByRole('button', { name: 'Save Company Profile' }).click();
  await expect(page.getByText('Company Profile Saved', { exact: true })).toBeVisible();
  await expect(profile.getByLabel('VAT number (optional)')).toHaveValue('GB 123 4567 89');

  const choosing = await openFileChooser(page, () => profile.getByRole('button', { name: 'Upload Logo' }).click());
  await choosing.setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await testLogoPng() });
  await expect(page.getByText('Logo Updated', { exact: true })).toBeVisible();
  await expect(profile.getByRole('img', { name: 'Your logo, as it appears on quotes' })).toBeVisible();
  await expect(profile.getByRole('button', { name: 'Replace Logo' })).toBeVisible();
}

test('a contractor fills the company profile, prices a tree and sends the customer a quote without internal notes', async ({ page }, testInfo) => {
  // A whole contractor's path (profile, logo, analysis, two PDFs): 40 s seen on a loaded 2-core box.
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);

  await page.goto('/settings');
  await fillCompanyProfile(page);
  await page.getByRole('region', { name: 'Company profile' }).screenshot({ path: testInfo.outputPath('company-profile-desktop.png') });
  await expectNoSeriousAxeViolations(page);

  // Reset to Default is the AI settings' reset: the company profile stays.
  await page.getByRole('button', { name: 'Reset to Default' }).click();
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByText('Settings Updated', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Trading name')).toHaveValue(COMPANY);
  await page.getByLabel('Hourly Rate').fill('60');
  await page.getByRole('button', { name: 'Save Pricing' }).click();
  await expect(page.getByText('Pricing Saved', { exact: true })).toBeVisible();

  await page.goto('/');
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles(PHOTO);
  await page.getByLabel('Project Details').fill('oak, 16 inch trunk, 40 ft tall');
  await page.getByRole('group', { name: 'What could the tree hit if it fell?' }).getByLabel('Building').check();
  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
  await expect(page.getByRole('heading', { name: 'Analysis Results' })).toBeVisible();

  // Who the quote is for, typed before the download (a dashboard analysis has no lead to start from).
  const preparedFor = page.getByRole('group', { name: 'Quote prepared for (optional)' });
  await expect(preparedFor.getByLabel('Customer name')).toHaveValue('');
  await preparedFor.getByLabel('Customer name').fill('Mrs J. Smith');
  await preparedFor.getByLabel('Site address').fill('12 Acacia Avenue\nLittle Snoring\nNR21 0AB');
  await page.getByRole('button', { name: 'Download Report' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('quote-prepared-for-desktop.png') });
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Report' }).click();
  const download = await downloading;
  await expect(page.getByText('Report Generated', { exact: true })).toBeVisible();
  expect(download.suggestedFilename()).toMatch(/^quote-TA-\d{6}\.pdf$/);
  const quote = await pdfText(download);
  expect(quote.totalPages).toBe(1);
  expect(quote.text).toContain('Prepared for Mrs J. Smith');
  expect(quote.text).toContain('Site address 12 Acacia Avenue, Little Snoring, NR21 0AB');
  expect(quote.text).toContain(COMPANY);
  expect(quote.text).toContain('VAT registration no. GB 123 4567 89');
  expect(quote.text).toMatch(/Quote no\. TA-\d{6}/);
  // The server's clock is the real one: the quote is dated today (in the UK) and holds 21 days.
  expect(quote.text).toContain(`Valid until ${formatQuoteDate(quoteValidUntil(new Date(), VALIDITY_DAYS))}`);
  expect(quote.text).toMatch(/Total ex VAT £[\d,.]+ - £[\d,.]+ VAT at 20% £[\d,.]+ - £[\d,.]+ Total inc VAT £[\d,.]+ - £[\d,.]+/);
  expect(quote.text).toContain('Oak');
  expect(quote.text).toContain('certified arborist');
  for (const internal of ['Internal notes', 'Not answered', 'assumed', 'Calibrat', 'provider', 'Provider', 'onfidence']) {
    expect(quote.text, internal).not.toContain(internal);
  }

  const downloadingInternal = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Internal Copy (with notes)' }).click();
  const internal = await pdfText(await downloadingInternal);
  expect(internal.totalPages).toBe(2);
  expect(internal.text).toContain('Internal notes - not for the customer');
  expect(internal.text).toContain('Not answered, assumed');
  expect(internal.text).toContain('Provider Local estimate');
});

test("a website lead's quote: the business's name on it, the lead's name ready in the field, on a 375 px phone", async ({ page, playwright }, testInfo) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  const businessName = `Birch Brothers ${Date.now().toString(36)}`;
  const slug = businessName.toLowerCase().replace(/ /g, '-');
  const created = await page.request.post('/api/businesses', {
    data: { name: businessName, slug, hourlyRate: '40.00', aiInstructions: null },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(created.status(), await created.text()).toBe(201);

  // The visitor, on the business's own site: no session, their site's Origin.
  const visitor = await playwright.request.newContext({ baseURL: e2eEnv('baseURL'), extraHTTPHeaders: { Origin: 'https://birch-brothers.example' } });
  const estimated = await visitor.post(`/api/analyze-tree?businessSlug=${slug}`, {
    multipart: {
      image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) },
      description: 'redbud, 6 inch trunk, 15 ft tall',
      businessSlug: slug,
    },
  });
  expect(estimated.status(), await estimated.text()).toBe(201);
  const { analysis, leadToken } = (await estimated.json()) as { analysis: { id: number }; leadToken: string };
  const analysisId = analysis.id;
  const lead = await visitor.post(`/api/businesses/${slug}/leads`, { data: { analysisId, leadToken, name: 'Sam Visitor', email: 'sam@example.com', postcode: 'LS6 2AB' } });
  expect(lead.status(), await lead.text()).toBe(201);
  await visitor.dispose();

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/history/${analysisId}`);
  const preparedFor = page.getByRole('group', { name: 'Quote prepared for (optional)' });
  await expect(preparedFor.getByLabel('Customer name')).toHaveValue('Sam Visitor');
  await expect(preparedFor.getByText('From the website enquiry.')).toBeVisible();
  await preparedFor.getByLabel('Site address').fill('4 Chapel Lane, Norwood Green, HX3 8QL');
  await preparedFor.scrollIntoViewIfNeeded();
  await preparedFor.screenshot({ path: testInfo.outputPath('quote-prepared-for-375.png') });
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousAxeViolations(page);

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Report' }).click();
  const quote = await pdfText(await downloading);
  expect(quote.text).toContain(businessName);
  expect(quote.text).toContain('Prepared for Sam Visitor');
  expect(quote.text).toContain('Site address 4 Chapel Lane, Norwood Green, HX3 8QL');
});

test('the company profile fits a 375 px phone, with the logo preview and its buttons', async ({ page }, testInfo) => {
  await signedInAccount(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/settings');
  await fillCompanyProfile(page);
  const profile = page.getByRole('region', { name: 'Company profile' });
  await profile.scrollIntoViewIfNeeded();
  await profile.screenshot({ path: testInfo.outputPath('company-profile-375.png') });
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);

  await profile.getByRole('button', { name: 'Remove Logo' }).click();
  await expect(page.getByText('Logo Removed', { exact: true })).toBeVisible();
  await expect(profile.getByText('No logo yet. Quotes show your trading name alone.')).toBeVisible();
  await expect(profile.getByRole('button', { name: 'Upload Logo' })).toBeVisible();
});
