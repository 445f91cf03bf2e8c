import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { slugFromName } from '../core/embed';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * The dashboard side of a business's estimator and of typed sizes (docs/product.md, Analysis and
 * Embed widget): a visitor's estimate reads in History as a web estimate with the lead's name and
 * the species as answered; a new business starts from the Settings rate and rules; a size typed
 * with its unit is understood.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const ORIGIN = { Origin: e2eEnv('baseURL') };

function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

test("History shows a visitor's estimate as a web estimate, with the lead's name and the species as answered", async ({ page, playwright }) => {
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 30);
  const name = uniqueName('Rowan Tree Care');
  const created = await page.request.post('/api/businesses', {
    data: { name, slug: slugFromName(name), hourlyRate: '50.00', aiInstructions: null, allowedOrigins: [], dailyCap: 50, accentColor: null },
    headers: ORIGIN,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { business } = (await created.json()) as { business: { slug: string } };

  const visitor = await playwright.request.newContext({ baseURL: e2eEnv('baseURL') });
  const estimate = async (treeDetails: object) => {
    const res = await visitor.post(`/api/analyze-tree?businessSlug=${business.slug}`, {
      multipart: {
        image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) },
        treeDetails: JSON.stringify(treeDetails),
        businessSlug: business.slug,
      },
      timeout: 30_000,
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as { analysis: { id: number }; leadToken: string };
  };
  const sizes = { height: { band: 'much_taller' }, diameter: { band: 'too_wide_to_hug' } };
  await estimate({ species: 'English oak', ...sizes });
  const unsure = await estimate(sizes);
  const lead = await visitor.post(`/api/businesses/${business.slug}/leads`, {
    data: { analysisId: unsure.analysis.id, leadToken: unsure.leadToken, name: 'Jo Rowan', email: 'jo@example.test', postcode: 'LS6 2AB' },
  });
  expect(lead.status(), await lead.text()).toBe(201);
  await visitor.dispose();

  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/history');
  // The page's first load on this shared 2-core box: its chunk, then the list.
  await expect(page.getByRole('heading', { name: 'Analysis History' })).toBeVisible();
  const cards = page.getByRole('list', { name: 'Past analyses' }).getByRole('listitem');
  const withLead = cards.filter({ hasText: 'for Jo Rowan' });
  await expect(withLead.getByRole('heading')).toHaveText(/^Not sure/);
  await expect(withLead).toContainText(`Web estimate · ${name} · for Jo Rowan`);
  const named = cards.filter({ hasNotText: 'Jo Rowan' });
  await expect(named.getByRole('heading')).toHaveText(/^Oak/);
  await expect(named).toContainText(`Web estimate · ${name}`);
  await expect(page.getByText('Unknown species')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('history-web-estimates-375.png'), fullPage: true });
});

test("a new business starts from the Settings hourly rate and follows Settings' pricing rules", async ({ page }) => {
  await signedInAccount(page);
  await page.goto('/settings');
  const pricing = page.getByRole('region', { name: 'Pricing', exact: true });
  await expect(pricing.getByLabel('Hourly Rate')).toBeVisible();
  await pricing.getByLabel('Hourly Rate').fill('65');
  await pricing.getByRole('button', { name: 'Save Pricing' }).click();
  await expect(page.getByText('Pricing Saved', { exact: true })).toBeVisible();

  await page.goto('/admin/businesses');
  await page.getByRole('button', { name: 'Add Business' }).click();
  const form = page.getByRole('region', { name: 'New Business' });
  await expect(form.getByLabel('Hourly Rate')).toHaveValue('65.00');
  await expect(form.getByLabel("Use my Settings' pricing rules")).toBeChecked();
  await expect(form).toContainText('The hourly rate starts as yours in Settings');

  // Changed for this business, it is what the business gets.
  const name = uniqueName('Settings Rate Arborists');
  await form.getByLabel('Business Name').fill(name);
  await form.getByLabel('Hourly Rate').fill('70');
  await form.getByRole('button', { name: 'Create Business' }).click();
  await expect(page.getByRole('article', { name })).toContainText('£70.00 an hour');
});

test('the size fields read a unit typed with the number, and say what a size looks like', async ({ page }) => {
  // Credits, or the uploader is replaced by the subscribe card.
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  await page.goto('/');
  await expect(page.getByLabel('Tree photo', { exact: true })).toBeAttached();
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles(PHOTO);
  const details = page.getByTestId('tree-details');
  const height = page.getByLabel('Height', { exact: true });
  const trunk = page.getByLabel('Trunk diameter', { exact: true });
  // A metric account: the height switch is on m, so "40 ft" is read as feet and moves the switch.
  await height.fill('40 ft');
  await expect(details).toContainText('Read as 40 ft, about 12 m.');
  await trunk.focus();
  await expect(height).toHaveValue('40');
  await expect(page.getByRole('group', { name: 'Height unit' }).getByRole('radio', { name: 'ft' })).toBeChecked();

  await trunk.fill('55cm');
  await height.focus();
  await expect(trunk).toHaveValue('55');
  await expect(page.getByRole('group', { name: 'Trunk diameter unit' }).getByRole('radio', { name: 'cm' })).toBeChecked();

  await height.fill('very tall');
  await expect(height).toHaveAccessibleDescription(/Enter a height like 12 m or 40 ft\./);
  await height.fill('14 m');
  await expect(details).toContainText('Read as 14 m, about 46 ft.');
});
