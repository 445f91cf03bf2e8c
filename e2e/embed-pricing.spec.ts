import { fileURLToPath } from 'node:url';
import type { Locator } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { OPERATOR_WORDS } from '../core/embed';
import { expectNoSeriousAxeViolations } from './axe';
import { ownerCopiesSnippet } from './embed-owner';
import { expect, test } from './fixtures';
import { waitForMail } from './mailbox';
import { e2eEnv } from './rig/env';
import { startHostSite, type HostSite } from './rig/host-site';

/*
 * One price everywhere: a tree surgeon who charges travel and a stump grinder and shows prices
 * including VAT has a homeowner on their own site see the estimate line by line with "inc VAT";
 * the lead e-mail and the quote PDF for that lead carry the very same figures, and what the
 * estimate assumed for the questions left unanswered.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const PHONE = { width: 390, height: 844 };
const RULES = {
  crewSize: 2,
  minimumCharge: '0',
  travel: '30',
  wastePerTonne: '0',
  stumpGrinding: '90',
  accessPlatform: '0',
  trafficManagement: '0',
  vatMode: 'inc',
};

let host: HostSite;
test.beforeAll(async () => {
  host = await startHostSite();
});
test.afterAll(async () => {
  await host.close();
});

async function tap(element: Locator, question: string, answer: string) {
  await element.getByRole('group', { name: question }).getByText(answer, { exact: true }).click();
}

test("the visitor's price, the lead e-mail and the quote show the same figures, inc VAT, and what was assumed", async ({ page, context, browser }) => {
  test.setTimeout(120_000);
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
  // The business prices by its owner's Settings.
  expect((await page.request.patch('/api/system-settings', { data: { pricing: RULES }, headers: { origin: e2eEnv('baseURL') } })).status()).toBe(200);
  const url = host.setPage('/pricing.html', 'Oakfield Garden Services', owner.snippet);

  const visitor = await (await browser.newContext({ viewport: PHONE })).newPage();
  await visitor.goto(url);
  const element = visitor.locator('tree-estimator');
  await element.scrollIntoViewIfNeeded();
  await expect(element.getByRole('heading', { name: 'Get a tree work estimate' })).toBeVisible({ timeout: 15_000 });
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  await tap(element, 'How tall is the tree?', 'About a two-storey house');
  await tap(element, 'How thick is the trunk?', 'Up to a dinner plate');
  await tap(element, 'Grind out the stump too?', 'Yes');
  await element.getByRole('button', { name: 'Analyze Tree' }).click();
  await expect(element.getByRole('heading', { name: 'Time & Cost Estimation' })).toBeVisible({ timeout: 30_000 });

  const breakdown = element.getByLabel('How the price is made up');
  await expect(breakdown).toContainText('Travel');
  await expect(breakdown).toContainText('£30.00');
  await expect(breakdown).toContainText('Stump grinder');
  await expect(breakdown).toContainText('£90.00');
  await expect(breakdown).toContainText('Total inc VAT');
  // The headline: "£X - £Y inc VAT", the figure the visitor takes away.
  const headline = (await element.getByText(/^£[\d,]+\.\d\d( - £[\d,]+\.\d\d)? inc VAT$/).innerText()).trim();
  const total = headline.replace(' inc VAT', '');
  await expect(breakdown.getByText(total, { exact: true })).toBeVisible();
  // What the estimate took for the site questions not answered is there beside it.
  await expect(element).toContainText('Not answered, assumed:');
  expect(await element.innerText()).not.toMatch(OPERATOR_WORDS);
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');
  await visitor.screenshot({ path: test.info().outputPath('embed-price-inc-vat-390.png'), fullPage: true });

  const since = Date.now();
  await element.getByLabel('Name').fill('Pat Price');
  await element.getByLabel('E-mail').fill('pat.price@example.com');
  await element.getByLabel('Postcode').fill('LS6 2AB');
  await element.getByRole('button', { name: 'Request a quote' }).click();
  await expect(element.getByText('Thank you! Your request has been sent.')).toBeVisible();

  const { mail } = await waitForMail(owner.email, { since });
  expect(mail.text).toContain(`Estimated cost: ${headline}`);
  expect(mail.text).toContain('Priced for: ');

  // The owner's quote for that lead: the same total, inc VAT, and what it was priced for.
  const owned = (await (await page.request.get('/api/businesses')).json()) as { businesses: { id: number; name: string }[] };
  const businessId = owned.businesses.find((b) => b.name === owner.businessName)!.id;
  const { leads: list } = (await (await page.request.get(`/api/businesses/${businessId}/leads`)).json()) as { leads: { analysisId: number }[] };
  const pdf = await page.request.get(`/api/analysis/${list[0]!.analysisId}/report.pdf`);
  expect(pdf.status()).toBe(200);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await pdf.body())), { mergePages: true });
  const quote = text.replace(/\s+/g, ' ');
  expect(quote).toContain(`Total inc VAT ${total}`);
  expect(quote).toContain('Travel £30.00');
  expect(quote).toContain('Stump grinder £90.00');
  expect(quote).toContain('Priced for: ');
  await visitor.context().close();
});
