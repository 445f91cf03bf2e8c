import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { Business, LeadThanks } from '../core/business';
import { slugFromName } from '../core/embed';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * Several trees, one request, as the owner reads it in Business Admin (docs/product.md, Embed
 * widget): a visitor prices two trees and sends one quote request; the owner sees "2 trees",
 * each tree with its photo, species and price, their total, the funnel's trees, and "Make a
 * job" brings both trees into the job.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));

async function createByApi(page: Page, name: string): Promise<Business> {
  const res = await page.request.post('/api/businesses', {
    data: { name, slug: slugFromName(name), hourlyRate: '45.00', aiInstructions: null, allowedOrigins: [], dailyCap: 50, accentColor: null },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { business: Business }).business;
}

test('a request of two trees shows both, their total and the funnel\'s trees; Make a job brings both', async ({ page, playwright }) => {
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 100);
  const name = `Two Trees Care ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const business = await createByApi(page, name);

  // The visitor: no cookie, the public API the widget uses; two estimates, one request.
  const visitor = await playwright.request.newContext({ baseURL: e2eEnv('baseURL') });
  const trees: { analysisId: number; leadToken: string }[] = [];
  for (const description of ['oak, 16 inch trunk, 40 ft tall', 'birch, 8 inch trunk, 25 ft tall']) {
    const analysed = await visitor.post(`/api/analyze-tree?businessSlug=${business.slug}`, {
      multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) }, description },
      timeout: 30_000,
    });
    expect(analysed.status(), await analysed.text()).toBe(201);
    const { analysis, leadToken } = (await analysed.json()) as { analysis: { id: number }; leadToken: string };
    trees.push({ analysisId: analysis.id, leadToken });
  }
  const sent = await visitor.post(`/api/businesses/${business.slug}/leads`, {
    data: { trees, name: 'Hazel Visitor', phone: '01632 960 123', postcode: 'ls6 2ab', address: '12 Oak Lane, Headingley' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  expect(((await sent.json()) as LeadThanks).outsideArea).toBe(false);
  await visitor.dispose();

  await page.goto('/admin/businesses');
  const card = page.getByRole('article', { name });
  const requests = card.getByRole('region', { name: /Quote Requests/ });
  await expect(requests.getByRole('heading', { name: 'Quote Requests (1)' })).toBeVisible();
  const lead = requests.getByRole('listitem').filter({ hasText: 'Hazel Visitor' }).first();
  await expect(lead).toContainText('2 trees');
  const list = lead.getByRole('list', { name: 'Trees in the request from Hazel Visitor' });
  const items = list.getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('Tree 1 of 2');
  await expect(items.nth(0)).toContainText('Oak');
  await expect(items.nth(1)).toContainText('Tree 2 of 2');
  await expect(items.nth(1)).toContainText('Birch');
  for (const [i, tree] of trees.entries()) {
    await expect(items.nth(i).getByRole('img', { name: `Tree ${i + 1} photo sent by Hazel Visitor` })).toBeVisible();
    await expect(items.nth(i)).toContainText(/Estimate:\s*£[\d,]+\.\d{2} - £[\d,]+\.\d{2}/);
    await expect(items.nth(i).getByRole('link', { name: /View analysis/ })).toHaveAttribute('href', `/history/${tree.analysisId}`);
  }
  await expect(lead).toContainText(/Total for 2 trees: £[\d,]+\.\d{2} - £[\d,]+\.\d{2}/);
  const funnel = card.getByRole('region', { name: 'Last 30 days' });
  await expect(funnel.getByRole('definition').nth(4)).toHaveText('1');
  await expect(funnel.getByRole('definition').nth(5)).toHaveText('2');
  await expect(funnel).toContainText('A request carried 2 trees on average.');
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'business-admin-lead-trees');
  await page.setViewportSize({ width: 375, height: 800 });
  await keepScreenshot(page, 'business-admin-lead-trees-375');
  await page.setViewportSize({ width: 1280, height: 720 });

  await lead.getByRole('button', { name: /^Make a job/ }).click();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  const id = page.url().split('/').at(-1)!;
  const job = await page.request.get(`/api/jobs/${id}`);
  expect(job.status()).toBe(200);
  const { job: made } = (await job.json()) as { job: { items: { analysisId: number | null }[]; customer: { siteAddress: string | null } } };
  expect(made.items.map((item) => item.analysisId)).toEqual(trees.map((tree) => tree.analysisId));
  expect(made.customer.siteAddress).toBe('12 Oak Lane, Headingley, LS6 2AB');
  await expect(page.getByText('12 Oak Lane, Headingley, LS6 2AB').first()).toBeVisible();
});
