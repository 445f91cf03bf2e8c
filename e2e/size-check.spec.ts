import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { OPERATOR_WORDS } from '../core/embed';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { shownText } from './visitor-text';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * Size checks in a real Chromium, with the case a tester measured on a phone: the redbud photo
 * measured by "a person" tapped on something small by a pavilion gave a 35.5 m tree with a trunk
 * 296 cm across, priced at 50% confidence with no warning. Now the measuring step flags it as the
 * taps land, the answer asks to check the sizes before any price (nothing charged), and once they
 * are said to be right the results carry the warnings, with the confidence halved.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const WIDTH = 700;
const HEIGHT = 525;
/** The taps, in the photo's pixels: a 23 px "person" (4% of the photo), the tree and its trunk. */
const TAPS: [number, number][] = [
  [470, 320], [470, 343],
  [350, 20], [350, 500],
  [330, 470], [370, 470],
];

async function tapAll(page: Page, photo: Locator) {
  await expect(photo).toHaveAttribute('aria-busy', 'false');
  for (const [x, y] of TAPS) {
    await photo.scrollIntoViewIfNeeded();
    const box = (await photo.boundingBox())!;
    await page.mouse.click(box.x + (x / WIDTH) * box.width, box.y + (y / HEIGHT) * box.height);
  }
}

const balanceOf = async (page: Page) => (await (await page.request.get('/api/user-tokens')).json()).tokensRemaining as number;

test('the dashboard flags unlikely measured sizes, asks to check them before a price, and shows them on the results', async ({ page }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 20);
  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.goto('/');
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles(PHOTO);
  const species = page.getByRole('combobox', { name: 'Species' });
  await species.fill('redbud');
  await species.press('Enter');
  await expect(species).toHaveValue('Redbud');

  await page.getByRole('button', { name: 'Measure on the photo' }).click();
  await page.getByLabel('A person (1.7 m)').check();
  const tool = page.getByTestId('measure-tool');
  await tapAll(page, tool.getByTestId('measure-photo'));
  await expect(page.getByTestId('measure-step')).toContainText('All points placed');

  const flag = tool.getByTestId('size-warnings');
  await expect(flag).toBeVisible();
  await expect(flag.getByRole('listitem')).toHaveCount(3);
  await expect(flag).toContainText(/The height measured on the photo, about 3\d\.\d m \(\d+ ft\), is far taller than a Redbud grows/);
  await expect(flag).toContainText(/The trunk measured on the photo, about \d+ cm \(\d+ in\) across, is far wider than a Redbud grows/);
  await expect(flag).toContainText(/a person \(1\.7 m\), is only 4% of the photo's height/);
  await flag.scrollIntoViewIfNeeded();
  await tool.screenshot({ path: test.info().outputPath('dashboard-measure-flag.png') });

  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
  const check = page.getByRole('heading', { name: 'Check the Sizes' });
  await expect(check).toBeVisible();
  const answer = page.getByTestId('needs-details');
  await expect(answer).toContainText('Check the sizes before we work out a price');
  await expect(answer.getByTestId('size-warnings').getByRole('listitem')).toHaveCount(3);
  await expect(answer).toContainText('No credits were used');
  expect(await balanceOf(page)).toBe(20);
  await expectNoSeriousAxeViolations(page, '[data-testid="needs-details"]');
  await answer.screenshot({ path: test.info().outputPath('dashboard-check-sizes.png') });

  await page.getByRole('button', { name: 'These Sizes Are Right' }).click();
  await expect(page.getByRole('heading', { name: 'Analysis Results' })).toBeVisible();
  const results = page.getByRole('main');
  const confirmed = results.getByTestId('size-warnings');
  await expect(confirmed).toContainText('Sizes confirmed, though they look unlikely');
  await expect(confirmed.getByRole('listitem')).toHaveCount(3);
  await expect(results).toContainText(/Site visit recommended:.*low confidence/);
  // The local estimate's 40% (species and both sizes, no site answers), halved.
  await expect(results.getByRole('definition').filter({ hasText: /^\d+%$/ })).toHaveText('20%');
  expect(await balanceOf(page)).toBe(10);
  await confirmed.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('dashboard-results-flag.png') });
});

test("the estimator flags the visitor's unlikely taps and asks, in their words, before the price", async ({ page, browser }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  const businessName = `Careful Trees ${Date.now().toString(36)}`;
  const slug = businessName.toLowerCase().replace(/ /g, '-');
  const created = await page.request.post('/api/businesses', {
    data: { name: businessName, slug, hourlyRate: '40.00', aiInstructions: null },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(created.status(), await created.text()).toBe(201);

  const visitor = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await visitor.goto(`/embed/${slug}`);
  const element = visitor.locator('tree-estimator');
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  await element.getByLabel(/What kind of tree is it/).fill('redbud');
  await element.getByRole('group', { name: 'Kind of tree' }).getByText('Redbud', { exact: true }).click();

  await element.getByRole('button', { name: 'Measure on the photo' }).click();
  await element.getByLabel('A person (1.7 m)').check();
  await tapAll(visitor, element.getByRole('application', { name: 'Your tree photo' }));
  const flag = element.getByTestId('measure-panel').getByTestId('size-warnings');
  await expect(flag).toBeVisible();
  await expect(flag.getByRole('listitem')).toHaveCount(3);
  await expect(flag).toContainText('These sizes look unusual');
  await flag.scrollIntoViewIfNeeded();
  await visitor.screenshot({ path: test.info().outputPath('widget-measure-flag.png') });

  await element.getByRole('button', { name: 'Use these sizes' }).click();
  await element.getByRole('button', { name: 'Get my price' }).click();
  const heading = element.getByRole('heading', { name: 'Check the sizes before we work out a price' });
  await expect(heading).toBeVisible();
  await expect(element.getByTestId('size-warnings').getByRole('listitem')).toHaveCount(3);
  expect(await shownText(element)).not.toMatch(OPERATOR_WORDS);
  expect(await balanceOf(page)).toBe(10);
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');
  await visitor.screenshot({ path: test.info().outputPath('widget-check-sizes.png'), fullPage: true });

  await element.getByRole('button', { name: 'These sizes are right' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  const confirmed = element.getByTestId('size-warnings');
  await expect(confirmed).toContainText('You said these sizes are right');
  await expect(confirmed.getByRole('listitem')).toHaveCount(3);
  expect(await shownText(element)).not.toMatch(OPERATOR_WORDS);
  expect(await balanceOf(page)).toBe(0);
  await visitor.context().close();
});
