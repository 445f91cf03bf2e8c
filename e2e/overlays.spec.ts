import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * docs/product.md, Screens: nothing floats over the header or the end of a page. At 375 px a
 * toast shows below the header, off the username and the menu button; scrolled to the bottom of
 * Estimate Accuracy, the chat button covers no table cell.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const ORIGIN = { Origin: e2eEnv('baseURL') };
const PHONE = { width: 375, height: 740 };

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

/** The toast showing; one being dismissed stays in the DOM, marked removed, while it fades. */
const toast = (page: Page) => page.locator('[data-sonner-toast]:not([data-removed="true"])');

/** Sonner keeps the toast it replaced in the DOM for a moment, hidden behind the new one. */
const shownToast = (page: Page, title: string) => toast(page).filter({ hasText: title });

async function expectToastClearOfHeader(page: Page, title: string, username: string) {
  const shown = await box(shownToast(page, title));
  const header = page.getByRole('banner');
  for (const [what, target] of [
    ['the username', header.getByText(username, { exact: true })],
    ['the menu button', header.getByRole('button', { name: 'Menu' })],
    ['the header', header],
  ] as const) {
    expect(overlaps(shown, await box(target)), `the toast covers ${what}`).toBe(false);
  }
}

test('at 375 px a toast shows below the header, never over the username or the menu', async ({ page }) => {
  const account = await signedInAccount(page);
  await page.setViewportSize(PHONE);
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(shownToast(page, 'Settings Updated')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  // The toast follows the header's edge as the page scrolls back to the top.
  await expect(async () => expectToastClearOfHeader(page, 'Settings Updated', account.username)).toPass();
  await page.screenshot({ path: test.info().outputPath('toast-below-header-375.png') });

  // Saved further down the page (Pricing, with the hourly rate): still clear of the header.
  const pricing = page.getByRole('region', { name: 'Pricing', exact: true });
  await pricing.getByLabel('Hourly Rate').fill('55');
  await pricing.getByRole('button', { name: 'Save Pricing' }).click();
  await expect(shownToast(page, 'Pricing Saved')).toBeVisible();
  await expectToastClearOfHeader(page, 'Pricing Saved', account.username);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(async () => expectToastClearOfHeader(page, 'Pricing Saved', account.username)).toPass();
  await pricing.getByLabel('Hourly Rate').scrollIntoViewIfNeeded();
  await pricing.screenshot({ path: test.info().outputPath('settings-pricing-hourly-rate-375.png') });
});

async function reportedJob(page: Page, description: string, actual: [number, number, number]) {
  const res = await page.request.post('/api/analyze-tree', {
    multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) }, description },
    headers: ORIGIN,
    timeout: 30_000,
  });
  expect(res.status(), await res.text()).toBe(201);
  const { analysis } = (await res.json()) as { analysis: { id: number } };
  const [actualCuttingTime, actualPrepTime, actualCleanupTime] = actual;
  const sent = await page.request.patch(`/api/analysis/${analysis.id}/feedback`, {
    data: { actualCuttingTime, actualPrepTime, actualCleanupTime },
    headers: ORIGIN,
  });
  expect(sent.status(), await sent.text()).toBe(200);
}

test('at 375 px, scrolled to the bottom of Estimate Accuracy, the chat button covers no table cell', async ({ page }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 40);
  await reportedJob(page, 'birch, 10 inch trunk, 30 ft tall, open field', [14, 21, 28]);
  await reportedJob(page, 'oak, 30 inch trunk, 70 ft tall, right over the house roof', [950, 158, 814]);
  await reportedJob(page, 'birch, 10 inch trunk, 30 ft tall, open field', [15, 20, 30]);

  await page.setViewportSize(PHONE);
  await page.goto('/accuracy');
  await page.getByText('The figures for each tree').click();
  const perJob = page.getByRole('table', { name: "Each reported tree's error, oldest report first" });
  await expect(perJob.getByRole('row')).toHaveCount(4);
  await page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
  await expect.poll(() => page.evaluate(() => Math.ceil(window.scrollY + window.innerHeight) >= document.scrollingElement!.scrollHeight)).toBe(true);

  const chat = await box(page.getByRole('button', { name: 'Chat with TreeAnalyzer Assistant' }));
  const cells = page.locator('main table :is(td, th)');
  expect(await cells.count()).toBeGreaterThan(0);
  for (const cell of await cells.all()) {
    const found = await cell.boundingBox();
    if (found) expect(overlaps(chat, found), `the chat button covers "${await cell.textContent()}"`).toBe(false);
  }
  await page.screenshot({ path: test.info().outputPath('accuracy-bottom-chat-375.png') });
});
