import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { SAFETY_DISCLAIMER } from '../core/upload-rules';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';

/*
 * Rough edges found in a walk of every screen: what a new user tripped on,
 * each checked the way they met it.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/elm-beside-building.jpg', import.meta.url));

/** The toast showing; one being dismissed stays in the DOM, marked removed, while it fades. */
const toast = (page: Page) => page.locator('[data-sonner-toast]:not([data-removed="true"])');
/** Where toasts are shown: for their text, which holds while one replaces another. */
const toasts = (page: Page) => page.locator('[data-sonner-toaster]');

async function setHourlyRate(page: Page, rate: string) {
  await page.goto('/settings');
  // The hourly rate is under Pricing, saved with the other charges.
  await page.getByLabel('Hourly Rate').fill(rate);
  await page.getByRole('button', { name: 'Save Pricing' }).click();
  await expect(page.getByText('Pricing Saved', { exact: true })).toBeVisible();
}

/** Runs one analysis from / up to its results. */
async function analyse(page: Page) {
  await page.goto('/');
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles(PHOTO);
  await page.getByLabel('Project Details').fill('oak, 16 inch trunk, 40 ft tall. Ivy on the trunk.');
  await page.getByRole('group', { name: 'What could the tree hit if it fell?' }).getByLabel('Building').check();
  await page.getByRole('group', { name: 'Are there power lines near the tree?' }).getByLabel('No').check();
  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
  await expect(page.getByRole('heading', { name: 'Analyzing Your Tree' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Analysis Results' })).toBeVisible();
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

test('results: shown soon after the answer, no empty cost tile at a rate of 0, the disclaimer once, and in History with what was told', async ({ page }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 20);

  await analyse(page);

  const main = page.getByRole('main');
  await expect(main.getByText('Estimated Cost', { exact: true })).toHaveCount(0);
  await expect(main).toContainText('No cost shown at an hourly rate of £0.');
  await expect(main.getByRole('link', { name: 'Set your hourly rate' })).toHaveAttribute('href', '/settings');
  // The total time takes the whole row rather than half of it beside an empty tile.
  const total = page.getByText('Total Estimated Time', { exact: true }).locator('..');
  expect((await box(total)).width).toBeGreaterThan((await box(page.locator('#results-title').locator('../..'))).width * 0.9);
  await expect(page.getByText(SAFETY_DISCLAIMER).locator('visible=true')).toHaveCount(1);

  // Feedback in the form the estimates are written in.
  await page.getByRole('button', { name: 'Provide Feedback' }).click();
  await page.getByLabel('Actual cutting time').fill('2h 30m');
  await page.getByLabel('Actual cleanup time').fill('45');
  await page.getByLabel('Actual prep & setup time').fill('half an hour');
  await page.getByRole('button', { name: 'Submit Feedback' }).click();
  await expect(page.getByText('Enter minutes (45) or hours and minutes (2h 30m)')).toBeVisible();
  await page.getByLabel('Actual prep & setup time').fill('0:20');
  await page.getByRole('button', { name: 'Submit Feedback' }).click();
  await expect(page.getByText('Feedback Submitted', { exact: true })).toBeVisible();

  const [latest] = ((await (await page.request.get('/api/analyses')).json()) as { analyses: { id: number }[] }).analyses;
  const saved = await (await page.request.get(`/api/analysis/${latest!.id}`)).json();
  expect(saved).toMatchObject({ analysis: { actualCuttingTime: 150, actualPrepTime: 20, actualCleanupTime: 45 } });

  await page.goto(`/history/${latest!.id}`);
  const details = page.getByRole('region', { name: 'What You Told Us' });
  await expect(details).toContainText('oak, 16 inch trunk, 40 ft tall. Ivy on the trunk.');
  await expect(details.getByRole('definition').filter({ hasText: 'Building' })).toBeVisible();
  await expect(details).toContainText('Are there power lines near the tree?');
  await expect(main).toContainText('2h 30m');
  await expect(page.getByText(SAFETY_DISCLAIMER).locator('visible=true')).toHaveCount(1);
});

test('a quick answer shows within 600 ms of arriving, not after the rows have played out for 2.4 s', async ({ page }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  // The page's timers run on a clock the test moves, so a busy machine cannot blur the measure.
  await page.clock.install();
  await page.goto('/');
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles(PHOTO);
  await page.getByLabel('Project Details').fill('redbud, 6 inch trunk, 15 ft tall');
  await page.clock.pauseAt(Date.now() + 5_000);
  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
  await expect(page.getByRole('heading', { name: 'Analyzing Your Tree' })).toBeVisible();
  // The answer is in while the first row still shows (the page's clock has not moved).
  const stage = page.getByRole('region', { name: 'Analyzing Your Tree' });
  await expect(stage).toHaveAttribute('aria-busy', 'false');
  const progress = stage.getByRole('status');
  await expect(progress).toHaveText(/^Step 1 of 4/);
  // Each row left takes 150 ms of the page's time, where it took 800 ms before.
  for (const next of [/^Step 2 of 4/, /^Step 3 of 4/, /^Step 4 of 4/]) {
    await page.clock.runFor(150);
    await expect(progress).toHaveText(next);
  }
  await page.clock.runFor(150);
  await expect(page.getByRole('heading', { name: 'Analysis Results' })).toBeVisible();
});

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 375, height: 740 },
]) {
  test(`at ${viewport.width} px the "Analysis Complete" toast leaves the results uncovered`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const account = await signedInAccount(page);
    grantCredits(account.username, 10);
    await setHourlyRate(page, '60');
    await analyse(page);
    await expect(toasts(page)).toContainText('Analysis Complete');
    const shown = await box(toast(page).first());
    for (const term of ['Total Estimated Time', 'Estimated Cost', 'Species', 'Diameter']) {
      const tile = page.getByText(term, { exact: true }).locator('..');
      expect(overlaps(shown, await box(tile)), `the toast covers ${term}`).toBe(false);
    }
  });
}

test('during an Unlimited pass the uploader does not speak of credits', async ({ page }) => {
  await signedInAccount(page);
  await page.goto('/checkout');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay £29.99' }).click();
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await page.goto('/');
  const uploader = page.getByRole('region', { name: 'Upload Tree Photo' });
  await expect(uploader).toContainText('Your Unlimited pass covers each analysis: no credits are used.');
  await expect(uploader).not.toContainText('Each analysis uses 10 credits');
});

test('sign-in failures: the toast stays on its page and its panel, and a refusal reads the same in the form and the toast', async ({ page }) => {
  const account = await signedInAccount(page);
  await page.context().clearCookies();

  /** One wrong password through the form; answers the server's status. */
  async function failSignIn(): Promise<number> {
    await page.getByLabel('Username or Email').fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(`${account.password}-wrong`);
    const answered = page.waitForResponse((res) => res.url().endsWith('/api/auth/login'));
    await page.getByRole('button', { name: 'Sign In' }).click();
    const status = (await answered).status();
    await expect(toasts(page)).toContainText('Login Failed');
    return status;
  }

  await page.goto('/login');
  expect(await failSignIn()).toBe(401);
  // On the wide layout the toast sits over the form's side, not across the green panel.
  const panel = await box(page.locator('aside'));
  expect((await box(toast(page).first())).x).toBeGreaterThanOrEqual(panel.x + panel.width);

  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create Account' })).toBeVisible();
  await expect(toast(page)).toHaveCount(0);

  // Five failures from one address against one account, then the server refuses (429).
  await page.getByRole('link', { name: 'Sign in' }).click();
  for (let i = 2; i <= 5; i++) expect(await failSignIn()).toBe(401);
  expect(await failSignIn()).toBe(429);
  const refusal = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
  await expect(refusal).toBeVisible();
  const message = (await refusal.innerText()).trim();
  await expect(toasts(page)).toContainText(message);
});
