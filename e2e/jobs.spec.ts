import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { JOB_LOCKED_MESSAGE, jobResponseSchema, type Job } from '../core/jobs';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import { keepScreenshot } from './keep-screenshot';

/*
 * Jobs in a real Chromium on a 390 px phone (docs/product.md, Jobs and quotes): two analyses
 * ticked in History become one job; a price set, an optional typed hedge line added, the prices
 * rounded and the totals followed; the job found on the Jobs page by status and by customer; a
 * quote accepted meanwhile refused with the server's words; axe on both pages.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const CUSTOMER = 'Łukasz Wójcik';
const HEDGE = 'Reduce the beech hedge along the drive by 1 m';

const origin = () => ({ Origin: e2eEnv('baseURL') });

async function analyse(page: Page, description: string): Promise<number> {
  const res = await page.request.post('/api/analyze-tree', {
    multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) }, description },
    headers: origin(),
    timeout: 30_000,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { analysis: { id: number } }).analysis.id;
}

async function jobById(page: Page, id: string): Promise<Job> {
  const res = await page.request.get(`/api/jobs/${id}`);
  expect(res.status()).toBe(200);
  return jobResponseSchema.parse(await res.json()).job;
}

const gbp = (text: string) => `£${Number(text).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

test('two analyses ticked in History become a job, priced, with an optional hedge line, rounded, and found on the Jobs page', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const account = await signedInAccount(page);
  grantCredits(account.username, 30);
  // £90 a crew-hour and VAT shown included, so each tree has an estimate and the totals carry VAT.
  const settings = await page.request.patch('/api/system-settings', {
    data: {
      hourlyRate: '90',
      pricing: { crewSize: 2, minimumCharge: '0', travel: '0', wastePerTonne: '0', stumpGrinding: '0', accessPlatform: '0', trafficManagement: '0', vatMode: 'inc' },
    },
    headers: origin(),
  });
  expect(settings.status(), await settings.text()).toBe(200);

  // No jobs yet: the Jobs page says how to make one.
  // A loaded shared box can take a while over a page's first load.
  await page.goto('/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No jobs yet' })).toBeVisible();
  await expect(page.getByText(/Tick analyses in History and choose Make a job/)).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await analyse(page, 'oak, 16 inch trunk, 40 ft tall');
  await analyse(page, 'birch, 8 inch trunk, 25 ft tall');

  // History: tick both, make a job for the customer.
  await page.goto('/history');
  const boxes = page.getByRole('checkbox', { name: /^Tick for a job/ });
  await expect(boxes).toHaveCount(2);
  await boxes.nth(1).check();
  await boxes.nth(0).check();
  await expect(page.getByRole('status').filter({ hasText: '2 analyses ticked' })).toBeVisible();
  await keepScreenshot(page, 'jobs-history-ticked-390');
  await page.getByRole('button', { name: 'Make a job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make a job' });
  await expect(dialog).toContainText('the 2 trees you ticked');
  await expect(dialog.getByLabel('Customer name')).toBeFocused();
  await dialog.getByRole('button', { name: 'Make the job' }).click();
  await expect(dialog.getByText('Customer name is required')).toBeVisible();
  await dialog.getByLabel('Customer name').fill(CUSTOMER);
  await dialog.getByRole('button', { name: 'Make the job' }).click();

  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  const id = page.url().split('/').at(-1)!;
  const made = await jobById(page, id);
  await expect(page.getByRole('heading', { level: 1, name: `${made.reference} for ${CUSTOMER}` })).toBeVisible();
  await expect(page).toHaveTitle('Job · TreeAnalyzer Pro');
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(CUSTOMER);

  // Each tree with its photo, its estimate beside its price, in the order ticked (the oak first).
  const items = page.getByRole('list', { name: /^Items/ }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  const first = items.nth(0);
  await expect(first.getByRole('img', { name: /^Photo of the / })).toBeVisible();
  await expect(first.getByText(/^Estimate: £[\d,]+\.\d{2} - £[\d,]+\.\d{2} inc VAT$/)).toBeVisible();
  await expect(first.getByLabel('Price (£)')).toHaveValue(made.items[0]!.price);
  await expect(first.getByLabel('Price (£)')).toHaveAccessibleDescription(/inc VAT/);
  const totalOf = (text: string) => page.getByRole('complementary', { name: 'Total and save' }).getByText(text, { exact: true });
  await expect(totalOf(`${gbp(made.totals.gross)} inc VAT`)).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // Set a price: the total follows as it is typed, then Save.
  await first.getByLabel('Price (£)').fill('612.34');
  const typedTotal = (61_234 + Math.round(Number(made.items[1]!.price) * 100)) / 100;
  await expect(totalOf(`${gbp(String(typedTotal))} inc VAT`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Total (not saved yet)' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  expect((await jobById(page, id)).items[0]!.price).toBe('612.34');

  // An optional typed hedge line: outside the total, inside the "up to" figure.
  const add = page.getByRole('region', { name: 'Add a line' });
  await add.getByLabel('What will be done').fill(HEDGE);
  await add.getByLabel('Price (£)').fill('175');
  await add.getByLabel('Optional: the customer chooses').check();
  await add.getByRole('button', { name: 'Add the line' }).click();
  await expect(items).toHaveCount(3);
  const hedge = items.nth(2);
  await expect(hedge.getByRole('heading', { name: '3. Typed line' })).toBeVisible();
  await expect(hedge.getByText('Typed line', { exact: true })).toBeVisible();
  await expect(hedge.getByLabel('Description')).toHaveValue(HEDGE);
  await expect(hedge.getByLabel('Optional: the customer chooses')).toBeChecked();
  await expect(add.getByLabel('What will be done')).toHaveValue('');
  await expect(add.getByLabel('What will be done')).toBeFocused();
  const withHedge = await jobById(page, id);
  expect(withHedge.totals.gross).toBe(String(typedTotal.toFixed(2)));
  expect(withHedge.totalsWithOptional.gross).toBe((typedTotal + 175).toFixed(2));
  await expect(totalOf(`${gbp(withHedge.totals.gross)} inc VAT`)).toBeVisible();
  await expect(page.getByText(`Up to ${gbp(withHedge.totalsWithOptional.gross)} inc VAT with every optional item`)).toBeVisible();

  // Round the prices by the rule in Pricing (£5 unless changed): the totals change.
  await page.getByRole('button', { name: /^Round prices/ }).click();
  await expect(first.getByLabel('Price (£)')).toHaveValue('610.00');
  const rounded = await jobById(page, id);
  for (const item of rounded.items) expect(Math.round(Number(item.price) * 100) % 500).toBe(0);
  expect(rounded.totals.gross).not.toBe(withHedge.totals.gross);
  await expect(totalOf(`${gbp(rounded.totals.gross)} inc VAT`)).toBeVisible();
  await expect(page.getByText(`Includes ${gbp(rounded.totals.vat)} VAT`)).toBeVisible();
  await expect(page.getByText(`Up to ${gbp(rounded.totalsWithOptional.gross)} inc VAT with every optional item`)).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'jobs-job-390');
  await page.setViewportSize(DESKTOP);
  await keepScreenshot(page, 'jobs-job-1280');
  await page.setViewportSize(PHONE);

  // Accepted meanwhile: the server's 409 is shown in its own words.
  await page.route(`**/api/jobs/${id}`, (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ message: JOB_LOCKED_MESSAGE, code: 'CONFLICT' }) })
      : route.fallback(),
  );
  await first.getByLabel('Description').fill('Fell the birch and grind the stump.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: JOB_LOCKED_MESSAGE })).toBeVisible();
  await page.unroute(`**/api/jobs/${id}`);

  // The Jobs page, from the phone's menu: by status, by customer, and what the listed jobs are worth.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Jobs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  const rows = page.getByRole('list', { name: 'Jobs' }).getByRole('listitem');
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row.getByRole('link', { name: `${rounded.reference} for ${CUSTOMER}` })).toHaveAttribute('href', `/jobs/${id}`);
  await expect(row).toContainText(CUSTOMER);
  await expect(row).toContainText('Draft');
  await expect(row).toContainText('3 items');
  await expect(row).toContainText(gbp(rounded.totals.gross));
  await expect(page.getByRole('button', { name: 'Draft 1' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '1 job listed: £0.00 still open, £0.00 won. Not counted: 1 draft.' })).toBeVisible();

  // An empty job beside it, from New job.
  await page.getByRole('button', { name: 'New job' }).click();
  await page.getByRole('dialog', { name: 'Make a job' }).getByLabel('Customer name').fill('Sam Birch');
  await page.getByRole('dialog', { name: 'Make a job' }).getByRole('button', { name: 'Make the job' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /for Sam Birch$/ })).toBeVisible();
  await expect(page.getByText('Nothing in this job yet.')).toBeVisible();
  // By the keyboard: the "Job made" toast sits over the link at the top of a phone's screen, and a
  // pointer resting on it keeps it there.
  await page.getByRole('link', { name: 'Back to Jobs' }).press('Enter');
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'All 2' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByLabel('Search by customer').fill('wojcik');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(CUSTOMER);
  await page.getByLabel('Search by customer').fill('nobody at all');
  await expect(page.getByText('No jobs match.')).toBeVisible();
  await page.getByRole('button', { name: 'Show every job' }).click();
  await expect(rows).toHaveCount(2);
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'jobs-list-390');
  await page.setViewportSize(DESKTOP);
  await keepScreenshot(page, 'jobs-list-1280');
  await page.setViewportSize(PHONE);

  // Nothing on either page is wider than the phone.
  for (const path of ['/jobs', `/jobs/${id}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(PHONE.width);
  }
});

test("a website lead's Make a job opens a job with the visitor's tree and details, and the lead then links to it", async ({ page, playwright }) => {
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 20);
  const slug = `jobs-lead-${Date.now().toString(36)}`;
  const created = await page.request.post('/api/businesses', {
    data: { name: `Jobs Lead ${slug}`, slug, hourlyRate: '40.00', aiInstructions: null, allowedOrigins: [], dailyCap: 50, accentColor: null },
    headers: origin(),
  });
  expect(created.status(), await created.text()).toBe(201);

  const visitor = await playwright.request.newContext({ baseURL: e2eEnv('baseURL') });
  const analysed = await visitor.post(`/api/analyze-tree?businessSlug=${slug}`, {
    multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) }, description: 'redbud, 6 inch trunk, 15 ft' },
    timeout: 30_000,
  });
  expect(analysed.status(), await analysed.text()).toBe(201);
  const { analysis, leadToken } = (await analysed.json()) as { analysis: { id: number }; leadToken: string };
  const sent = await visitor.post(`/api/businesses/${slug}/leads`, {
    data: { analysisId: analysis.id, leadToken, name: 'Rowan Visitor', email: 'rowan@example.test', phone: '01632 960 123', postcode: 'LS6 2AB' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  await visitor.dispose();

  await page.goto('/admin/businesses');
  const lead = page.getByRole('listitem').filter({ hasText: 'Rowan Visitor' });
  await expect(lead.getByRole('button', { name: 'Make a job for Rowan Visitor' })).toBeVisible();
  await lead.getByRole('button', { name: 'Make a job for Rowan Visitor' }).click();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: /for Rowan Visitor$/ })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveValue('rowan@example.test');
  await expect(page.getByLabel('Phone')).toHaveValue('01632 960 123');
  await expect(page.getByRole('list', { name: /^Items/ }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'From a quote request' })).toBeVisible();
  const id = page.url().split('/').at(-1)!;

  await page.goto('/admin/businesses');
  await expect(lead.getByRole('link', { name: /^Open job Q-\d{6} for Rowan Visitor$/ })).toHaveAttribute('href', `/jobs/${id}`);
  await expect(lead.getByRole('button', { name: /Make a job/ })).toHaveCount(0);
});
