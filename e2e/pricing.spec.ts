import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import type { AnalyzeResponse } from '../core/analysis';
import type { Business } from '../core/business';
import { formatCostRange } from '../core/format';
import { formatPrice, VAT_MODE_LABELS } from '../core/price';
import { DEFAULT_QUOTE_TERMS } from '../core/quote-settings';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * Pricing rules in a real Chromium: the contractor sets the crew-hour rate and the rules in
 * Settings, analyses a photo with the stump to be ground out, and the results show the price
 * as the rules make it (the stump grinder, travel, the minimum charge, VAT included). A
 * business either follows those rules or has its own, set in the same fields.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const SECTION = 'section[aria-labelledby="pricing-title"]';
const NO_VAT_NUMBER_HINT = 'Add your VAT number to the Company profile so it is printed on quotes.';

const pricingSection = (page: Page) => page.getByRole('region', { name: 'Pricing', exact: true });

test('pricing rules set in Settings price an analysis: stump grinder, travel, minimum charge, inc VAT', async ({ page }, testInfo) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  await page.goto('/settings');

  const pricing = pricingSection(page);
  await expect(pricing).toContainText('before VAT');
  await expect(pricing.getByLabel('Crew size')).toHaveValue('2');
  await expect(pricing.getByLabel('Crew size')).toHaveAccessibleDescription(/People the hourly rate pays for/);
  await expect(pricing.getByLabel('Access platform')).toHaveAccessibleDescription('Added when a dismantle can be reached by a vehicle.');
  await expect(pricing.getByLabel('Traffic management')).toHaveAccessibleDescription('Added when the tree could fall on a road or footpath.');
  // A new account without a VAT number charges none, and says nothing about it.
  await expect(pricing.getByLabel(VAT_MODE_LABELS.none)).toBeChecked();
  await expect(pricing.getByText(NO_VAT_NUMBER_HINT)).toHaveCount(0);

  // The server's limits, named on the field before anything is sent.
  await pricing.getByLabel('Crew size').fill('13');
  await pricing.getByRole('button', { name: 'Save Pricing' }).click();
  await expect(pricing.getByLabel('Crew size')).toHaveAccessibleDescription(/Crew size must be a whole number of people from 1 to 12/);

  await pricing.getByLabel('Crew size').fill('2');
  await pricing.getByLabel('Minimum charge').fill('250');
  await pricing.getByLabel('Travel charge').fill('30');
  await pricing.getByLabel('Stump grinder').fill('90');
  await pricing.getByLabel(VAT_MODE_LABELS.inc).check();
  // The hourly rate is the first of the charges, under Pricing and saved with them.
  await expect(pricing.getByLabel('Hourly Rate')).toHaveAccessibleDescription(/per crew-hour, before VAT/);
  await pricing.getByLabel('Hourly Rate').fill('60');
  await expect(page.getByRole('button', { name: 'Save Configuration' }).locator('xpath=ancestor::form').getByLabel('Hourly Rate')).toHaveCount(0);
  // VAT charged with no VAT number in the company profile: the quote could not print one.
  await expect(pricing.getByText(NO_VAT_NUMBER_HINT)).toBeVisible();
  await pricing.screenshot({ path: testInfo.outputPath('pricing-settings-desktop.png') });
  await expectNoSeriousAxeViolations(page, SECTION);
  await pricing.getByRole('button', { name: 'Save Pricing' }).click();
  await expect(page.getByText('Pricing Saved', { exact: true })).toBeVisible();

  await page.reload();
  await expect(pricing.getByLabel('Hourly Rate')).toHaveValue('60.00');
  await expect(pricing.getByLabel('Minimum charge')).toHaveValue('250.00');
  await expect(pricing.getByLabel('Stump grinder')).toHaveValue('90.00');
  // Charges not made are empty fields, not "0.00".
  await expect(pricing.getByLabel('Access platform')).toHaveValue('');
  await expect(pricing.getByLabel(VAT_MODE_LABELS.inc)).toBeChecked();

  await page.setViewportSize({ width: 390, height: 844 });
  await pricing.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
  await pricing.screenshot({ path: testInfo.outputPath('pricing-settings-390.png') });
  await expectNoSeriousAxeViolations(page, SECTION);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto('/');
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles(PHOTO);
  await page.getByLabel('Project Details').fill('redbud, 6 inch trunk, 15 ft tall');
  await page.getByRole('group', { name: 'Grind out the stump too?' }).getByLabel('Yes').check();
  // An easy site, every answer given: a question left out is priced on the cautious side.
  await page.getByRole('group', { name: 'What could the tree hit if it fell?' }).getByLabel('Nothing').check();
  await page.getByRole('group', { name: 'Are there power lines near the tree?' }).getByLabel('No').check();
  await page.getByRole('group', { name: 'How can a crew get to the tree?' }).getByLabel('Open (vehicle can reach)').check();
  await page.getByRole('group', { name: 'How far is the tree from where a van can park?' }).getByLabel('Under 10 m').check();
  await page.getByRole('group', { name: 'Take the wood and waste away?' }).getByLabel('No').check();
  const answered = page.waitForResponse((res) => res.url().includes('/api/analyze-tree') && res.request().method() === 'POST');
  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
  const answer = (await (await answered).json()) as AnalyzeResponse;
  await expect(page.getByRole('heading', { name: 'Analysis Results' })).toBeVisible();

  // The stored price is the rules' price: crew of 2, the grinder and travel, at least the minimum, VAT at 20%.
  const price = answer.analysis.price!;
  expect(price).toMatchObject({ vatMode: 'inc', vatRatePercent: 20, crewSize: 2 });
  expect(price.lines.map((line) => [line.code, line.minPence])).toEqual(
    expect.arrayContaining([
      ['stump_grinder', 9000],
      ['travel', 3000],
    ]),
  );
  // A small tree: its low end (crew time, travel and the grinder) comes to less than the minimum charge.
  expect(price.minimumChargePence).toBe(25_000);
  expect(price.netMinPence).toBe(25_000);

  const results = page.getByRole('main');
  await expect(results).toContainText(formatPrice(price));
  await expect(results).toContainText('inc VAT');
  const breakdown = page.getByRole('region', { name: 'Price Breakdown' });
  await expect(breakdown.locator('div').filter({ hasText: 'Stump grinder' })).toContainText('£90.00');
  await expect(breakdown).toContainText('Travel');
  await expect(breakdown).toContainText('crew of 2');
  await expect(breakdown.locator('div').filter({ hasText: 'Minimum charge' })).toContainText('£250.00');
  await expect(breakdown.locator('div').filter({ hasText: 'Total inc VAT' })).toContainText(
    formatCostRange({ minPence: price.grossMinPence, maxPence: price.grossMaxPence }),
  );
  await breakdown.scrollIntoViewIfNeeded();
  await breakdown.screenshot({ path: testInfo.outputPath('pricing-results.png') });
});

test("a business follows the owner's pricing rules, or has its own set in the same fields", async ({ page }, testInfo) => {
  await signedInAccount(page);
  const origin = { Origin: e2eEnv('baseURL') };
  const saved = await page.request.patch('/api/system-settings', {
    headers: origin,
    data: {
      pricing: {
        crewSize: 3,
        minimumCharge: '250.00',
        travel: '30.00',
        wastePerTonne: '',
        stumpGrinding: '90.00',
        accessPlatform: '',
        trafficManagement: '',
        vatMode: 'inc',
      },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);

  await page.goto('/admin/businesses');
  await page.getByRole('button', { name: 'Add Business' }).click();
  const form = page.getByRole('region', { name: 'New Business' });
  const name = `Pricing Oak ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await form.getByLabel('Business Name').fill(name);
  await form.getByLabel('Hourly Rate').fill('60');
  const prices = form.getByRole('group', { name: 'Prices' });
  await expect(prices.getByLabel("Use my Settings' pricing rules")).toBeChecked();
  await expect(form.getByLabel('Minimum charge')).toHaveCount(0);

  // Own prices start from the owner's rules.
  await prices.getByLabel('Set prices for this estimator').check();
  await expect(form.getByLabel('Crew size')).toHaveValue('3');
  await expect(form.getByLabel('Minimum charge')).toHaveValue('250.00');
  await expect(form.getByLabel(VAT_MODE_LABELS.inc)).toBeChecked();
  await form.getByLabel('Travel charge').fill('45');
  await form.getByLabel('Traffic management').fill('120');
  await prices.scrollIntoViewIfNeeded();
  await form.screenshot({ path: testInfo.outputPath('pricing-business-form.png') });
  await expectNoSeriousAxeViolations(page, '#new-business');
  await form.getByRole('button', { name: 'Create Business' }).click();
  await expect(page.getByText('Business configuration created successfully', { exact: true })).toBeVisible();

  const card = page.getByRole('article', { name });
  await expect(card).toContainText('Crew of 3; minimum charge £250.00; travel £45.00; stump grinder £90.00; traffic management £120.00; prices shown inc VAT');

  // Editing shows the current choice; going back to Settings' rules sends null.
  await card.getByRole('button', { name: /^Edit/ }).click();
  const edit = card.getByRole('group', { name: 'Prices' });
  await expect(edit.getByLabel('Set prices for this estimator')).toBeChecked();
  await expect(card.getByLabel('Travel charge')).toHaveValue('45.00');
  await edit.getByLabel("Use my Settings' pricing rules").check();
  await expect(card.getByLabel('Travel charge')).toHaveCount(0);
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Business configuration updated successfully', { exact: true })).toBeVisible();
  await expect(card).toContainText("Your Settings' pricing rules");

  const list = await page.request.get('/api/businesses');
  const business = ((await list.json()) as { businesses: Business[] }).businesses.find((b) => b.name === name)!;
  expect(business.pricing).toBeNull();
});

test('quote rounding and terms set in Settings are kept, and the standard terms come back with one button', async ({ page }, testInfo) => {
  await signedInAccount(page);
  await page.goto('/settings');
  const pricing = pricingSection(page);
  const rounding = pricing.getByRole('group', { name: 'Round quoted prices to the nearest' });
  // Settings' first load on this shared 2-core box: its chunk, then the settings.
  await expect(rounding.getByLabel('£5', { exact: true })).toBeChecked();
  await expect(rounding).toHaveAccessibleDescription(/starts from the middle of its estimate/);
  const terms = page.getByRole('region', { name: 'Quote terms' });
  const box = terms.getByLabel('Your terms');
  await expect(box).toHaveValue(DEFAULT_QUOTE_TERMS);

  await rounding.getByLabel('£10', { exact: true }).check();
  await pricing.getByRole('button', { name: 'Save Pricing' }).click();
  await expect(page.getByText('Pricing Saved', { exact: true })).toBeVisible();
  const own = '1. Payment on the day, by card or bank transfer.\n2. Logs are left stacked by the gate.';
  await box.fill(own);
  await expect(terms).toContainText(`${own.length} / 4000 characters`);
  await terms.getByRole('button', { name: 'Save Quote Terms' }).click();
  await expect(page.getByText('Quote Terms Saved', { exact: true })).toBeVisible();

  await page.reload();
  await expect(rounding.getByLabel('£10', { exact: true })).toBeChecked();
  await expect(box).toHaveValue(own);
  await expectNoSeriousAxeViolations(page, SECTION);
  await expectNoSeriousAxeViolations(page, 'section[aria-labelledby="quote-terms-title"]');
  await rounding.scrollIntoViewIfNeeded();
  await pricing.screenshot({ path: testInfo.outputPath('quote-rounding-1280.png') });
  await terms.screenshot({ path: testInfo.outputPath('quote-terms-1280.png') });

  await page.setViewportSize({ width: 375, height: 812 });
  await rounding.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);
  await rounding.screenshot({ path: testInfo.outputPath('quote-rounding-375.png') });
  await terms.scrollIntoViewIfNeeded();
  await terms.screenshot({ path: testInfo.outputPath('quote-terms-375.png') });

  await terms.getByRole('button', { name: 'Use the standard terms' }).click();
  await expect(box).toHaveValue(DEFAULT_QUOTE_TERMS);
  await expect(terms.getByRole('status')).toHaveText('The standard terms are filled in. Select Save Quote Terms to keep them.');
  await terms.getByRole('button', { name: 'Save Quote Terms' }).click();
  await expect(page.getByText('Your quotes will carry the standard terms.', { exact: true })).toBeVisible();
  await page.reload();
  await expect(box).toHaveValue(DEFAULT_QUOTE_TERMS);
  await terms.screenshot({ path: testInfo.outputPath('quote-terms-standard-375.png') });
});
