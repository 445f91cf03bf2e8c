import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { REQUIRED_FIELDS_MESSAGE, SLUG_TAKEN_MESSAGE, type Business } from '../core/business';
import { iframeSnippet, scriptSnippet, slugFromName } from '../core/embed';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import { keepScreenshot } from './keep-screenshot';

/*
 * Business Admin in a real Chromium (the dashboard side of the embed): the create
 * form's rules, Copy Embed and Copy Script Tag, Preview, edit in place, the confirmed
 * delete, ownership, a visitor's quote request reaching its owner, accessibility and a
 * 375 px phone.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));

/** A business name no other test (or earlier run against the same data) has used. */
function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

async function createByApi(page: Page, name: string, hourlyRate = '45.00'): Promise<Business> {
  const res = await page.request.post('/api/businesses', {
    data: { name, slug: slugFromName(name), hourlyRate, aiInstructions: null, allowedOrigins: [], dailyCap: 50, accentColor: null },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { business: Business }).business;
}

const card = (page: Page, name: string) => page.getByRole('article', { name });

test('create a business through the form, copy its embed code, preview, edit the rate and delete it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2eEnv('baseURL') });
  await signedInAccount(page);
  await page.goto('/admin/businesses');

  const nav = page.getByRole('navigation', { name: 'Business Admin' });
  // The page's first load on this shared 2-core box: its chunk, then the businesses.
  await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
  await expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
  await expect(page.getByRole('heading', { name: 'No businesses yet' })).toBeVisible();

  // Required fields first: nothing filled in.
  await page.getByRole('button', { name: 'Add Business' }).click();
  await expect(page.getByLabel('Business Name')).toBeFocused();
  // No vision model on this server: the instructions' hint does not promise they guide anything.
  await expect(page.getByText(/This server has none, so estimates come from the sizes/)).toBeVisible();
  await expect(page.getByText(/They guide your website's estimates/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Create Business' }).click();
  await expect(page.getByRole('alert').filter({ hasText: REQUIRED_FIELDS_MESSAGE })).toBeVisible();

  // The slug follows the name; a bad origin line is named.
  const name = uniqueName('Green Oak Tree Care');
  const slug = slugFromName(name);
  await page.getByLabel('Business Name').fill(name);
  await expect(page.getByLabel('Slug')).toHaveValue(slug);
  await page.getByLabel('Hourly Rate').fill('45');
  await page.getByLabel('Allowed Site Origins (optional)').fill('https://www.example.com\nexample.com/quotes');
  await page.getByRole('button', { name: 'Create Business' }).click();
  await expect(page.getByText('Line 2: "example.com/quotes" is not a website origin: use the exact address')).toBeVisible();
  await page.getByLabel('Allowed Site Origins (optional)').fill('https://www.example.com');
  await expect(page.getByLabel('Daily Analysis Cap')).toHaveValue('50');
  await page.getByRole('button', { name: 'Create Business' }).click();
  await expect(page.getByText('Business configuration created successfully', { exact: true })).toBeVisible();
  // The form closes after a successful create, and opens empty again.
  await expect(page.getByLabel('Business Name')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add Business' })).toBeFocused();

  const business = card(page, name);
  await expect(business).toContainText(slug);
  await expect(business).toContainText('£45.00 an hour');
  await expect(business).toContainText('Today: 0 of 50 analyses');
  await expect(business).toContainText('https://www.example.com');
  await expect(business).toContainText('No quote requests yet');

  // A second business with the same slug is refused on the slug field.
  await page.getByRole('button', { name: 'Add Business' }).click();
  await expect(page.getByLabel('Business Name')).toHaveValue('');
  await page.getByLabel('Business Name').fill(name);
  await page.getByLabel('Hourly Rate').fill('30');
  await page.getByRole('button', { name: 'Create Business' }).click();
  await expect(page.getByText('Failed to create business configuration', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Slug')).toHaveAccessibleDescription(new RegExp(SLUG_TAKEN_MESSAGE.replace(/\./g, '\\.')));
  await expect(page.getByLabel('Slug')).toBeFocused();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('article')).toHaveCount(1);

  // Copy Embed puts the iframe on the clipboard.
  await business.getByRole('button', { name: 'Copy Embed' }).click();
  await expect(page.getByText('Copied!', { exact: true })).toBeVisible();
  await expect(page.getByText('Embed code copied to clipboard')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(iframeSnippet(e2eEnv('baseURL'), slug));
  expect(copied).toContain(`/embed/${slug}" width="100%" height="600"`);
  await expect(business.getByLabel('Embed code (iframe)')).toHaveValue(copied);
  await business.getByRole('button', { name: 'Copy Script Tag' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(scriptSnippet(e2eEnv('baseURL'), slug));
  await expect(business.getByLabel('Script tag')).toHaveValue(scriptSnippet(e2eEnv('baseURL'), slug));

  const preview = business.getByRole('link', { name: /^Preview/ });
  await expect(preview).toHaveAttribute('href', `/embed/${slug}`);
  await expect(preview).toHaveAttribute('target', '_blank');
  await expect(preview).toHaveAttribute('rel', /noopener/);

  // Edit the rate in place; it persists.
  await business.getByRole('button', { name: /^Edit/ }).click();
  await expect(business.getByLabel('Hourly Rate')).toBeFocused();
  await business.getByLabel('Hourly Rate').fill('52.5');
  await business.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Business configuration updated successfully', { exact: true })).toBeVisible();
  await expect(business.getByRole('button', { name: /^Edit/ })).toBeFocused();
  await expect(business).toContainText('£52.50 an hour');
  await page.reload();
  await expect(card(page, name)).toContainText('£52.50 an hour');

  // Delete, confirmed in the words of docs/product.md, Messages.
  await card(page, name).getByRole('button', { name: 'Delete Business' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Business' });
  await expect(dialog).toContainText(`Are you sure you want to delete "${name}"? This action cannot be undone.`);
  await dialog.getByRole('button', { name: 'Keep Business' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card(page, name).getByRole('button', { name: 'Delete Business' })).toBeFocused();
  await card(page, name).getByRole('button', { name: 'Delete Business' }).click();
  await dialog.getByRole('button', { name: 'Delete Business' }).click();
  await expect(page.getByText('Business configuration deleted successfully', { exact: true })).toBeVisible();
  await expect(card(page, name)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'No businesses yet' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'No businesses yet' })).toBeVisible();
});

test("another user sees none of a user's businesses", async ({ page, browser }) => {
  await signedInAccount(page);
  const name = uniqueName('Private Arbor');
  const business = await createByApi(page, name);
  await page.goto('/admin/businesses');
  await expect(card(page, name)).toBeVisible();

  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signedInAccount(other);
  await other.goto('/admin/businesses');
  await expect(other.getByRole('heading', { name: 'No businesses yet' })).toBeVisible();
  await expect(other.getByText(name)).toHaveCount(0);
  const leads = await other.request.get(`/api/businesses/${business.id}/leads`);
  expect(leads.status()).toBe(404);
  await otherContext.close();
});

test("a visitor's quote request reaches the owner, who marks it contacted; History marks the analysis", async ({ page, playwright }) => {
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 10);
  const name = uniqueName('Birch and Beech');
  const business = await createByApi(page, name, '40.00');

  // The visitor: no cookie, only the public API the widget uses.
  const visitor = await playwright.request.newContext({ baseURL: e2eEnv('baseURL') });
  const analysed = await visitor.post(`/api/analyze-tree?businessSlug=${business.slug}`, {
    multipart: {
      image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) },
      description: 'redbud, 6 inch trunk, 15 ft, open lawn',
    },
    timeout: 30_000,
  });
  expect(analysed.status(), await analysed.text()).toBe(201);
  const { analysis, leadToken } = (await analysed.json()) as { analysis: { id: number }; leadToken: string };
  const sent = await visitor.post(`/api/businesses/${business.slug}/leads`, {
    data: {
      analysisId: analysis.id,
      leadToken,
      name: 'Rowan Visitor',
      email: 'rowan@example.test',
      phone: '01632 960 123',
      postcode: 'ls6 2ab',
      note: 'Can you come on a Saturday?',
    },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  await visitor.dispose();

  await page.goto('/admin/businesses');
  const requests = card(page, name).getByRole('region', { name: /Quote Requests/ });
  // Each card reads its funnel, leads and jobs once the businesses are in.
  await expect(requests.getByRole('heading', { name: 'Quote Requests (1)' })).toBeVisible();
  const lead = requests.getByRole('listitem').filter({ hasText: 'Rowan Visitor' });
  await expect(lead.getByRole('link', { name: 'rowan@example.test' })).toHaveAttribute('href', 'mailto:rowan@example.test');
  await expect(lead.getByRole('link', { name: '01632 960 123' })).toHaveAttribute('href', 'tel:01632960123');
  await expect(lead).toContainText('Can you come on a Saturday?');
  await expect(lead).toContainText('LS6 2AB');
  await expect(lead).toContainText(/£\d+\.\d{2}/);
  await expect(lead.getByRole('img', { name: 'Tree photo sent by Rowan Visitor' })).toBeVisible();
  await expect(lead.getByRole('link', { name: /View analysis/ })).toHaveAttribute('href', `/history/${analysis.id}`);
  await expect(card(page, name)).toContainText('Today: 1 of 50 analyses');
  // The funnel counts what the visitor did today: one estimate and one quote request.
  const funnel = card(page, name).getByRole('region', { name: 'Last 30 days' });
  await expect(funnel.getByRole('definition').nth(2)).toHaveText('1');
  await expect(funnel.getByRole('definition').nth(4)).toHaveText('1');
  await expect(funnel).toContainText('of estimates asked for a quote');
  await keepScreenshot(page, 'business-admin-desktop');
  await page.setViewportSize({ width: 375, height: 800 });
  await keepScreenshot(page, 'business-admin-375');
  await page.setViewportSize({ width: 1280, height: 720 });

  await lead.getByRole('button', { name: /^Mark as contacted/ }).click();
  await expect(lead).toContainText(/Contacted on \d{1,2} \w{3} \d{4}/);
  await expect(lead.getByRole('button', { name: /^Mark as not contacted/ })).toBeFocused();
  await page.reload();
  await expect(card(page, name).getByText(/Contacted on/)).toBeVisible();

  await lead.getByRole('link', { name: /View analysis/ }).click();
  await expect(page).toHaveURL(`/history/${analysis.id}`);
  await expect(page.getByText(`Web estimate · ${name}`)).toBeVisible();
  await page.goto('/history');
  await expect(page.getByText(`Web estimate · ${name} · for Rowan Visitor`)).toBeVisible();
});

test('Business Admin has no serious or critical axe violations and fits a 375 px phone', async ({ page }) => {
  await signedInAccount(page);
  const name = uniqueName('Accessible Arborists');
  await createByApi(page, name);
  await page.goto('/admin/businesses');
  await expect(card(page, name)).toBeVisible();
  await expect(card(page, name)).toContainText('No quote requests yet');
  await page.getByRole('button', { name: 'Add Business' }).click();
  await page.getByRole('button', { name: 'Create Business' }).click();
  await expect(page.getByRole('alert').filter({ hasText: REQUIRED_FIELDS_MESSAGE })).toBeVisible();

  await expectNoSeriousAxeViolations(page);

  await page.setViewportSize({ width: 375, height: 740 });
  await keepScreenshot(page, 'business-admin-form-375');
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);
  await card(page, name).getByRole('button', { name: /^Edit/ }).click();
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);
});
