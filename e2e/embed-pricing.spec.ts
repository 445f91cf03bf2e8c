import { fileURLToPath } from 'node:url';
import type { Locator } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { OPERATOR_WORDS } from '../core/embed';
import { SURVEYOR_WORDS } from '../core/homeowner-guide';
import { expectNoSeriousAxeViolations } from './axe';
import { ownerCopiesSnippet } from './embed-owner';
import { expect, test } from './fixtures';
import { shownText } from './visitor-text';
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
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
  // The business prices by its owner's Settings.
  expect((await page.request.patch('/api/system-settings', { data: { pricing: RULES }, headers: { origin: e2eEnv('baseURL') } })).status()).toBe(200);
  const url = host.setPage('/pricing.html', 'Oakfield Garden Services', owner.snippet);

  const visitor = await (await browser.newContext({ viewport: PHONE })).newPage();
  await visitor.goto(url);
  const element = visitor.locator('tree-estimator');
  await element.scrollIntoViewIfNeeded();
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  await tap(element, 'How tall is the tree?', 'About a two-storey house');
  await tap(element, 'How thick is the trunk?', 'Up to a dinner plate');
  await tap(element, 'Grind out the stump too?', 'Yes');
  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();

  // The guide price: the business's rounding (£5 by default) in whole pounds, said as a guide.
  const headline = (await element.locator('#guide-price').innerText()).trim();
  expect(headline).toMatch(/^about £[\d,]+( - £[\d,]+)? inc VAT$/);
  await element.getByText('How the price is made up').click();
  const breakdown = element.locator('details');
  await expect(breakdown).toContainText('Getting to you');
  await expect(breakdown).toContainText('£30');
  await expect(breakdown).toContainText('Grinding out the stump');
  await expect(breakdown).toContainText('£90');
  await expect(breakdown).toContainText('Guide price inc VAT');
  await expect(breakdown).toContainText(headline.replace(' inc VAT', ''));
  // What the estimate took for the site questions not answered is there beside it, in plain words.
  await expect(element).toContainText('What we assumed');
  const words = await shownText(element);
  expect(words).not.toMatch(OPERATOR_WORDS);
  expect(words).not.toMatch(SURVEYOR_WORDS);
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');
  await visitor.screenshot({ path: test.info().outputPath('embed-price-inc-vat-390.png'), fullPage: true });

  const since = Date.now();
  await element.getByLabel('Name').fill('Pat Price');
  await element.getByLabel('E-mail').fill('pat.price@example.com');
  await element.getByLabel('Postcode').fill('LS6 2AB');
  await element.getByRole('button', { name: 'Request a quote' }).click();
  await expect(element.getByText('Thank you! Your request has been sent.')).toBeVisible();

  const { mail } = await waitForMail(owner.email, { since });
  // The owner reads the exact estimate; the visitor's guide is it rounded to the nearest £5.
  const exact = /Estimated cost: £([\d,]+\.\d\d)(?: - £([\d,]+\.\d\d))? inc VAT/.exec(mail.text ?? '');
  expect(exact, mail.text).not.toBeNull();
  const [, low = '', high] = exact!;
  const toGuide = (pounds: string) => `£${(Math.round(Number(pounds.replace(/,/g, '')) / 5) * 5).toLocaleString('en-GB')}`;
  expect(headline).toContain(toGuide(low));
  if (high) expect(headline).toContain(toGuide(high));
  const total = high ? `£${low} - £${high}` : `£${low}`;
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
