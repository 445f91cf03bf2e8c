import { fileURLToPath } from 'node:url';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * "Not sure" means not sure (docs/analysis.md, Not sure and unanswered), in the widget: a visitor
 * who cannot judge the tree's size says so (or leaves it, "Not sure" checked) and gets a price
 * for a typical garden tree with a site visit recommended and what was assumed listed, never a
 * second screen asking for the height. The business's owner pays for the estimate.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));

test('"Not sure" of the size gives a typical garden tree\'s price, a visit recommended and what was assumed, without asking again', async ({ page, browser }) => {
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

  const visitor = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await visitor.goto(`/embed/${slug}`);
  const element = visitor.locator('tree-estimator');
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  await element.getByLabel('Anything else we should know?').fill('a tree on the front lawn');

  // Nothing reads the size from this photo: "Not sure" is checked for both until a size is picked.
  const height = element.getByRole('group', { name: 'How tall is the tree?' });
  const trunk = element.getByRole('group', { name: 'How thick is the trunk?' });
  await expect(height.getByRole('radio', { name: /^Not sure/ })).toBeChecked();
  await expect(trunk.getByRole('radio', { name: /^Not sure/ })).toBeChecked();
  await trunk.getByText('Up to a dinner plate', { exact: true }).click();
  await trunk.getByText('Not sure', { exact: true }).click();
  await expect(trunk.getByRole('radio', { name: /^Not sure/ })).toBeChecked();
  await height.scrollIntoViewIfNeeded();
  await visitor.screenshot({ path: test.info().outputPath('not-sure-sizes-360.png') });
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');

  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  await expect(element.getByRole('heading', { name: "Add the tree's height and trunk size, or measure them on the photo" })).toHaveCount(0);
  await expect(element).toContainText("We'll confirm the price when we see the tree");
  await expect(element.getByRole('region', { name: "We'll confirm the price when we see the tree" })).toContainText('We do not know its size yet');
  const assumed = element.getByRole('heading', { name: 'What we assumed' }).locator('xpath=ancestor::section[1]');
  await expect(assumed).toContainText("We did not know the tree's height, so we priced a typical garden tree, 6 to 15 m (20 to 49 ft)");
  await expect(assumed).toContainText('We did not know how thick the trunk is, so we priced a typical garden tree, 20 to 50 cm (8 to 20 in)');
  await expect(assumed).toContainText('We assumed there may be power lines near the tree; tell us if not and the price may come down.');
  await expect(element).not.toContainText(/model|credit|configuration|unknown/i);
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');
  await assumed.scrollIntoViewIfNeeded();
  await visitor.screenshot({ path: test.info().outputPath('not-sure-result-360.png') });
  await visitor.screenshot({ path: test.info().outputPath('not-sure-result-360-full.png'), fullPage: true });
  expect(await balance()).toBe(0);
  await visitor.context().close();
});
