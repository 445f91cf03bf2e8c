import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * The Estimate Accuracy page, reached from History. With no feedback it says
 * what to do; with one reported job it shows it and says the calibrated figure needs a second;
 * with several, the medians before and after calibration, the gain in words and a chart, at
 * 375 px and axe clean.
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
  await expect(page.getByRole('heading', { name: 'No jobs with actual times yet' })).toBeVisible();
  await expect(page.getByText("Send actual times from an analysis's Feedback to see how close your estimates are")).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await noWiderThan(page, 375);
  await page.screenshot({ path: test.info().outputPath('accuracy-empty-375.png'), fullPage: true });
  await page.getByRole('link', { name: 'Go to History' }).click();
  await expect(page.getByRole('heading', { name: 'Analysis History' })).toBeVisible();
});

test('with reported jobs, the medians before and after calibration, the gain in words and a chart', async ({ page }) => {
  test.setTimeout(120_000);
  const account = await signedInAccount(page);
  grantCredits(account.username, 100);
  await page.setViewportSize({ width: 375, height: 740 });

  // One job: shown, and the calibrated figure waits for a second.
  await reportedJob(page, FELL);
  await page.goto('/accuracy');
  const summary = page.getByRole('region', { name: 'Your reported jobs' });
  await expect(summary.getByText('Jobs with actual times')).toBeVisible();
  await expect(summary.getByRole('definition').first()).toHaveText('1');
  await expect(summary).toContainText("On your one job so far, the model's estimate was");
  await expect(summary).toContainText('The calibrated figure needs a second job');
  await expect(page.getByText('The chart starts with your second reported job.')).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // Then dismantles and fells in turn, and one job not reported yet.
  for (let i = 0; i < 3; i++) {
    await reportedJob(page, DISMANTLE);
    await reportedJob(page, FELL);
  }
  await estimate(page, FELL.description);

  await page.goto('/history');
  await page.getByRole('link', { name: 'How accurate are my estimates?' }).click();
  await expect(summary.getByRole('definition').first()).toHaveText('7');
  await expect(summary).toContainText("Over your 7 jobs, the model's estimates were off the actual times by a median of");
  await expect(summary).toContainText(/On your 6 jobs after the first, calibrating each from only the jobs reported before it brought the median error from \d+% to \d+%: \d+% less error\./);

  const parts = page.getByRole('table', { name: /On your 6 jobs after the first/ });
  await expect(parts.getByRole('columnheader')).toHaveText(['Part of the job', "Model's estimate", 'Calibrated']);
  await expect(parts.getByRole('rowheader')).toHaveText(['Cutting', 'Prep & Setup', 'Cleanup', 'Whole job']);
  await expect(parts.getByRole('row', { name: /Whole job/ }).getByRole('cell')).toHaveText([/^\d+%$/, /^\d+%$/]);

  const chart = page.getByRole('img', { name: "Error of each job's estimate, oldest report first", exact: true });
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAccessibleDescription(/7 reported jobs from .* the model estimated it .* calibrated from the jobs reported before it/);

  await page.getByText('The figures for each job').click();
  const perJob = page.getByRole('table', { name: "Each reported job's error, oldest report first" });
  await expect(perJob.getByRole('row')).toHaveCount(8);
  await expect(perJob.getByRole('row').nth(1)).toContainText('First job');
  await expect(perJob.getByRole('row').nth(2)).toContainText('Climb and dismantle');

  await expectNoSeriousAxeViolations(page);
  await noWiderThan(page, 375);
  await page.screenshot({ path: test.info().outputPath('accuracy-reported-375.png'), fullPage: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoSeriousAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath('accuracy-reported-1280.png'), fullPage: true });
});
