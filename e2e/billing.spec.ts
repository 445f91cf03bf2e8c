import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, newAccount, test } from './fixtures';
import { signedInAccount } from './operator';

/*
 * Billing in demo mode in a real Chromium: a brand-new user goes from
 * 0 credits to an analysis entirely in the browser; the decline card leaves the balance;
 * the Unlimited pass makes analyses free; cancelling shows the date.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const SUCCESS_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';

const badge = (page: Page) => page.getByTestId('credits-badge');

async function analyseOnePhoto(page: Page) {
  await page.goto('/');
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles(PHOTO);
  await page.getByLabel('Project Details').fill('redbud, 6 inch trunk, 15 ft, open lawn');
  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
  await expect(page.getByRole('heading', { name: 'Analysis Results' })).toBeVisible();
}

test('a new user subscribes to Standard in demo mode, after a declined card, and analyses a tree', async ({ page }) => {
  const account = newAccount();
  await page.goto('/register');
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Subscribe to Start Analyzing' })).toBeVisible();
  await expect(badge(page)).toContainText('0 credits');

  await page.getByRole('article', { name: 'Standard' }).getByRole('link', { name: 'Subscribe Now' }).click();
  await expect(page).toHaveURL('/subscribe?plan=standard');
  await expect(page.getByRole('heading', { name: 'Standard Monthly' })).toBeVisible();
  await expect(page.getByText('Cancel anytime. No long-term commitments.')).toBeVisible();
  await expect(page.getByText('Demo mode, no real charge')).toBeVisible();

  const card = page.getByLabel('Card number');
  const pay = page.getByRole('button', { name: 'Subscribe for £60.00 a month' });
  await card.fill(DECLINED_CARD);
  await pay.click();
  await expect(page.getByText('Payment Failed', { exact: true })).toBeVisible();
  await expect(page.getByText('Your card was declined.')).toBeVisible();
  await expect(badge(page)).toContainText('0 credits');
  await expect(pay).toBeEnabled();

  await card.fill(SUCCESS_CARD);
  await pay.click();
  await expect(page.getByRole('heading', { name: 'Subscription Active!' })).toBeVisible();
  await expect(badge(page)).toContainText('600 credits');

  await analyseOnePhoto(page);
  await expect(badge(page)).toContainText('590 credits');
  await page.getByRole('button', { name: 'Analyze Another Tree' }).click();
  const plans = page.getByRole('article');
  await expect(page.getByRole('article', { name: 'Standard' }).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(page.getByRole('article', { name: 'Pro' }).getByRole('button', { name: 'Switch to Pro' })).toBeEnabled();
  await expect(plans.getByRole('link', { name: 'Subscribe Now' })).toHaveCount(0);

  await page.goto('/settings');
  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  await page.getByRole('button', { name: 'Yes, Cancel Subscription' }).click();
  await expect(page.getByText(/Cancels on \d{1,2} \w{3} \d{4}/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
});

test('the Unlimited pass: pay £29.99, see Unlimited, and analyse at no credit cost', async ({ page }) => {
  await signedInAccount(page);
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Unlock TreeAnalyzer Pro' })).toBeVisible();
  await page.getByLabel('Card number').fill(SUCCESS_CARD);
  await page.getByRole('button', { name: 'Pay £29.99' }).click();
  await expect(page).toHaveURL('/checkout?success=true');
  await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
  await expect(badge(page)).toContainText(/Unlimited until \d{1,2} \w{3} \d{4}/);

  await analyseOnePhoto(page);
  const tokens = await (await page.request.get('/api/user-tokens')).json();
  expect(tokens).toMatchObject({ tokensRemaining: 0, unlimited: true });
  await expect(badge(page)).toContainText('Unlimited');
});
