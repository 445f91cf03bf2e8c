import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { e2eEnv } from './rig/env';

/*
 * The Estimate Accuracy page, reached from History. With no feedback it says
 * what to do; with one reported tree it shows it and says the calibrated figure needs a second;
 * with several, the medians before and after calibration, the gain in words and a chart, at
 * 375 px and axe clean. Times are reported per tree: three trees of one job are three trees and
 * one job (the page once read "Over your 3 jobs").
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const ORIGIN = { Origin: e2eEnv('baseURL') };

/**
 * A crew quick at straight fells and slow at dismantles: fixed actual times, about 0.7x and 1.5x
 * of the time model's own estimate for these two trees (20, 30 and 40 minutes for the fell;
 * 632.5, 105 and 542.5 for the dismantle), whatever calibration the page showed at the time.
 */
const FELL = { description: 'birch, 10 inch trunk, 30 ft tall, open field', actual: { cutting: 14, prep: 21, cleanup: 28 } };
const DISMANTLE = { description: 'oak, 30 inch trunk, 70 ft tall, right over the house roof', actual: { cutting: 950, prep: 158, cleanup: 814 } };

async function estimate(page: Page, description: string): Promise<number> {
  const res = await page.request.post('/api/analyze-tree', {
    multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) }, description },
    headers: ORIGIN,
    timeout: 30_000,
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { analysis: { id: number } }).analysis.id;
}

async function reportedJob(page: Page, job: typeof FELL): Promise<void> {
  const id = await estimate(page, job.description);
  const { cutting, prep, cleanup } = job.actual;
  const res = await page.request.patch(`/api/analysis/${id}/feedback`, {
    data: { actualCuttingTime: cutting, actualPrepTime: prep, actualCleanupTime: cleanup },
    headers: ORIGIN,
  });
  expect(res.status(), await res.text()).toBe(200);
}

async function noWiderThan(page: Page, width: number) {
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(width);
}

test('with no feedback, the page says how to get figures', async ({ page }) => {
  await signedInAccount(page);
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/history');
  await page.getByRole('link', { name: 'How accurate are my estimates?' }).click();
  await expect(page).toHaveURL('/accuracy');
  await expect(page.getByRole('heading', { level: 1, name: 'Estimate Accuracy' })).toBeVisible();
  await expect(page).toHaveTitle(/^Estimate Accuracy/);
  await expect(page.getByRole('heading', { name: 'No trees with actual times yet' })).toBeVisible();
  await expect(page.getByText("Send actual times from an analysis's Feedback to see how close your estimates are")).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await noWiderThan(page, 375);
  await page.screenshot({ path: test.info().outputPath('accuracy-empty-375.png'), fullPage: true });
  await page.getByRole('link', { name: 'Go to History' }).click();
  await expect(page.getByRole('heading', { name: 'Analysis History' })).toBeVisible();
});

test('with reported jobs, the medians before and after calibration, the gain in words and a chart', async ({ page }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 100);
  await page.setViewportSize({ width: 375, height: 740 });

  // One job: shown, and the calibrated figure waits for a second.
  await reportedJob(page, FELL);
  await page.goto('/accuracy');
  const summary = page.getByRole('region', { name: 'Your reported trees' });
  await expect(summary.getByText('Trees with actual times')).toBeVisible();
  await expect(summary.getByRole('definition').first()).toHaveText('1');
  await expect(summary).toContainText("On your one tree so far, the model's estimate was");
  await expect(summary).toContainText('The calibrated figure needs a second tree');
  await expect(page.getByText('The chart starts with your second reported tree.')).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // Then dismantles and fells in turn, and one job not reported yet.
  for (let i = 0; i < 3; i++) {
    await reportedJob(page, DISMANTLE);
    await reportedJob(page, FELL);
  }
  await estimate(page, FELL.description);

  await page.goto('/history');
  await page.getByRole('link', { name: 'How accurate are my estimates?' }).click();
  // Each reported from History on its own: seven trees, seven jobs.
  await expect(summary.getByRole('definition')).toHaveText(['7', '7', /^\d+%$/]);
  await expect(summary).toContainText("Over your 7 trees from 7 jobs, the model's estimates were off the actual times by a median of");
  await expect(summary).toContainText(/On your 6 trees after the first, calibrating each from only the trees reported before it brought the median error from \d+% to \d+%: \d+% less error\./);

  const parts = page.getByRole('table', { name: /On your 6 trees after the first/ });
  await expect(parts.getByRole('columnheader')).toHaveText(['Part of the work', "Model's estimate", 'Calibrated']);
  await expect(parts.getByRole('rowheader')).toHaveText(['Cutting', 'Prep & Setup', 'Cleanup', 'Whole tree']);
  await expect(parts.getByRole('row', { name: /Whole tree/ }).getByRole('cell')).toHaveText([/^\d+%$/, /^\d+%$/]);

  const chart = page.getByRole('img', { name: "Error of each tree's estimate, oldest report first", exact: true });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleDescription(/7 reported trees from .* the model estimated it .* calibrated from the trees reported before it/);

  await page.getByText('The figures for each tree').click();
  const perJob = page.getByRole('table', { name: "Each reported tree's error, oldest report first" });
  await expect(perJob.getByRole('row')).toHaveCount(8);
  await expect(perJob.getByRole('row').nth(1)).toContainText('First tree');
  await expect(perJob.getByRole('row').nth(2)).toContainText('Climb and dismantle');

  await expectNoSeriousAxeViolations(page);
  await noWiderThan(page, 375);
  await page.screenshot({ path: test.info().outputPath('accuracy-reported-375.png'), fullPage: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath('accuracy-reported-1280.png'), fullPage: true });
});

test('three trees of one job marked done read as three trees of one job', async ({ page }) => {
  const account = await signedInAccount(page);
  // Three analyses at 10 credits each.
  grantCredits(account.username, 40);
  await page.setViewportSize({ width: 390, height: 844 });
  const email = `accuracy-job-${account.username}@example.test`;
  const analysisIds = [await estimate(page, FELL.description), await estimate(page, FELL.description), await estimate(page, DISMANTLE.description)];
  const made = await page.request.post('/api/jobs', { data: { analysisIds, customer: { name: 'Jo Rowan', email } }, headers: ORIGIN });
  expect(made.status(), await made.text()).toBe(201);
  const { job } = (await made.json()) as { job: { id: number; items: { id: number }[] } };
  const since = Date.now();
  expect((await page.request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: ORIGIN })).status()).toBe(200);
  const { mail } = await waitForMail(email, { since });
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  const accepted = await page.request.post(`/api/quotes/${token}/accept`, { data: { name: 'Jo Rowan', acceptTerms: true }, headers: ORIGIN });
  expect(accepted.status(), await accepted.text()).toBe(200);
  const actuals = job.items.map((item, i) => ({ itemId: item.id, cuttingTime: [14, 15, 950][i], prepTime: 20, cleanupTime: 30 }));
  const done = await page.request.post(`/api/jobs/${job.id}/done`, { data: { actuals }, headers: ORIGIN });
  expect(done.status(), await done.text()).toBe(200);

  await page.goto('/accuracy');
  const summary = page.getByRole('region', { name: 'Your reported trees' });
  await expect(summary.getByRole('definition')).toHaveText(['3', '1', /^\d+%$/]);
  await expect(summary).toContainText("Over your 3 trees of one job, the model's estimates were off the actual times by a median of");
  await expect(summary).not.toContainText('3 jobs');
  await expectNoSeriousAxeViolations(page);
  await noWiderThan(page, 390);
  await keepScreenshot(page, 'accuracy-one-job-390');
});
