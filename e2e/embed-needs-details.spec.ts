import { fileURLToPath } from 'node:url';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * Issue "Estimates a tree surgeon would sign", in the widget: a visitor who sends a photo with
 * no size is told what is missing instead of getting a guess, can go back with the photo and the
 * context kept, and picks a size right there to get the estimate. The business's owner
 * pays only for the estimate.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));

test('the widget asks for sizes instead of guessing, keeping the photo and the context', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  const businessName = `Honest Trees ${Date.now().toString(36)}`;
  const slug = businessName.toLowerCase().replace(/ /g, '-');
  const created = await page.request.post('/api/businesses', {
    data: { name: businessName, slug, hourlyRate: '40.00', aiInstructions: null },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(created.status(), await created.text()).toBe(201);
  const balance = async () => (await (await page.request.get('/api/user-tokens')).json()).tokensRemaining as number;

  const visitor = await (await browser.newContext({ viewport: { width: 375, height: 800 } })).newPage();
  await visitor.goto(`/embed/${slug}`);
  const element = visitor.locator('tree-estimator');
  await expect(element.getByRole('heading', { name: 'Get a tree work estimate' })).toBeVisible();
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  await element.getByLabel('Additional Context').fill('redbud on the front lawn');
  await element.getByRole('button', { name: 'Analyze Tree' }).click();

  const heading = element.getByRole('heading', { name: "Add the tree's height and trunk size, or measure them on the photo" });
  await expect(heading).toBeVisible({ timeout: 20_000 });
  await expect(heading).toBeFocused();
  await expect(element.getByText(/We need the tree.s size/)).toBeVisible();
  await expect(element).not.toContainText(/model|credit|configuration/i);
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');
  expect(await balance()).toBe(10);

  // Back to the upload: the photo and the context are kept.
  await element.getByRole('button', { name: 'Back to my photo and answers' }).click();
  await expect(element.getByRole('button', { name: 'Remove redbud-small-tree.jpg' })).toBeVisible();
  await expect(element.getByLabel('Additional Context')).toHaveValue('redbud on the front lawn');
  await element.getByRole('button', { name: 'Analyze Tree' }).click();

  // The sizes are offered right there: one tap and the estimate, nothing typed.
  await expect(heading).toBeVisible({ timeout: 20_000 });
  await element.getByRole('group', { name: 'How thick is the trunk?' }).getByText('Up to a dinner plate', { exact: true }).click();
  await element.getByRole('button', { name: 'Get my estimate' }).click();
  await expect(element.getByRole('heading', { name: 'Time & Cost Estimation' })).toBeVisible({ timeout: 20_000 });
  await expect(element).toContainText('Redbud');
  expect(await balance()).toBe(0);
  await visitor.context().close();
});
