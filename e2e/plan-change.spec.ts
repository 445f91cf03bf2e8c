import type { Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * Billing a user would expect, in demo mode in a real Chromium: the card field is
 * locked while "Processing Payment...", Subscribe says "Cancel anytime" once, an active
 * subscriber switches plan from the plan cards, and the success pages opened with nothing paid
 * say so (and wait while a payment settles).
 */
const SUCCESS_CARD = '4242 4242 4242 4242';
const badge = (page: Page) => page.getByTestId('credits-badge');
const sameOrigin = () => ({ Origin: e2eEnv('baseURL') });

test('subscribe to Lite with the card locked while paying, then switch to Pro and back to Standard', async ({ page }) => {
  // Three pages, two axe runs and two plan changes: more than the default 30 s on a busy machine.
  await signedInAccount(page);
  await page.goto('/subscribe?plan=lite');
  await expect(page.getByRole('heading', { name: 'Lite Monthly' })).toBeVisible();
  await expect(page.getByText(/Cancel anytime/)).toHaveCount(1);
  await expect(page.getByText('Cancel anytime. No long-term commitments.')).toBeVisible();
  await expect(page.getByText('Demo mode, no real charge')).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // Hold the demo confirm until the locked form has been checked.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/demo/confirm-payment', async (route) => {
    await held;
    await route.continue();
  });
  const card = page.getByLabel('Card number');
  await card.fill(SUCCESS_CARD);
  await page.getByRole('button', { name: 'Subscribe for £31.00 a month' }).click();
  await expect(page.getByRole('button', { name: 'Processing Payment...' })).toBeDisabled();
  await expect(card).not.toBeEditable();
  await card.press('Backspace');
  await expect(card).toHaveValue(SUCCESS_CARD);
  release();

  await expect(page.getByRole('heading', { name: 'Subscription Active!' })).toBeVisible();
  await expect(page.getByText('Your Lite plan is active: you have 300 credits to use.')).toBeVisible();
  await expect(badge(page)).toContainText('300 credits');

  await page.goto('/#plans');
  const liteCard = page.getByRole('article', { name: 'Lite' });
  const proCard = page.getByRole('article', { name: 'Pro' });
  await expect(liteCard.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(page.getByRole('article', { name: 'Standard' }).getByRole('button', { name: 'Switch to Standard' })).toBeEnabled();
  await proCard.getByRole('button', { name: 'Switch to Pro' }).click();

  const dialog = page.getByRole('dialog', { name: 'Switch to Pro?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You pay the difference for the rest of this month now, about £48.00, and get about 700 more credits straight away.');
  await expectNoSeriousAxeViolations(page);
  await dialog.getByRole('button', { name: 'Yes, Switch to Pro' }).click();
  await expect(page.getByText('Plan Changed', { exact: true })).toBeVisible();
  await expect(page.getByText('You are now on the Pro plan: 700 credits were added for the rest of this month, for £48.00.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(proCard.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(liteCard.getByRole('button', { name: 'Switch to Lite' })).toBeEnabled();
  await expect(badge(page)).toContainText('1000 credits');

  // Down to Standard: nothing charged, the 1000 credits kept until the renewal.
  await page.getByRole('article', { name: 'Standard' }).getByRole('button', { name: 'Switch to Standard' }).click();
  const down = page.getByRole('dialog', { name: 'Switch to Standard?' });
  await expect(down).toContainText('Nothing is charged or refunded now, and you keep your 1000 credits until');
  await down.getByRole('button', { name: 'Keep Pro' }).click();
  await expect(down).toBeHidden();
  await page.getByRole('article', { name: 'Standard' }).getByRole('button', { name: 'Switch to Standard' }).click();
  await down.getByRole('button', { name: 'Yes, Switch to Standard' }).click();
  await expect(page.getByRole('article', { name: 'Standard' }).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(badge(page)).toContainText('1000 credits');
  const tokens = await (await page.request.get('/api/user-tokens')).json();
  expect(tokens).toMatchObject({ subscriptionType: 'standard', subscriptionStatus: 'active', tokensRemaining: 1000 });

  // Settings, Billing: the plan held, and the way to change it.
  await page.goto('/settings');
  await expect(page.getByText('Standard Monthly, £60.00 a month')).toBeVisible();
  await page.getByRole('link', { name: 'Change Plan' }).click();
  await expect(page.getByRole('heading', { name: 'Monthly Plans' })).toBeFocused();
});

test('the success pages opened with nothing paid say so, at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signedInAccount(page);
  await page.goto('/subscribe?plan=pro&success=true');
  await expect(page.getByRole('heading', { name: 'No Subscription Found' })).toBeVisible();
  await expect(page.getByText('There is no paid subscription on your account, so nothing was charged.')).toBeVisible();
  await expect(page.getByText('Subscription Active!')).toHaveCount(0);
  await expect(page.getByText(/credits are ready to use/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Choose a Plan' })).toHaveAttribute('href', '/subscribe?plan=pro');
  await expectNoSeriousAxeViolations(page);

  await page.goto('/checkout?success=true');
  await expect(page.getByRole('heading', { name: 'No Payment Found' })).toBeVisible();
  await expect(page.getByText('There is no Unlimited pass on your account, so nothing was charged.')).toBeVisible();
  await expect(page.getByText('Payment Successful!')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Go to Checkout' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
});

test('the subscribe success page waits while a payment settles, then shows the plan', async ({ page }) => {
  await signedInAccount(page);
  // A subscription started and not yet paid: the page must wait, not claim success.
  const created = await page.request.post('/api/create-subscription', { data: { subscriptionType: 'standard' }, headers: sameOrigin() });
  expect(created.status()).toBe(200);
  const { clientSecret } = await created.json();
  await page.goto('/subscribe?plan=standard&success=true');
  await expect(page.getByText('Waiting for the card provider to confirm it.')).toBeVisible();
  await expect(page.getByText('Subscription Active!')).toHaveCount(0);

  const confirmed = await page.request.post('/api/demo/confirm-payment', { data: { clientSecret, cardNumber: SUCCESS_CARD }, headers: sameOrigin() });
  const { paymentIntentId } = await confirmed.json();
  const recorded = await page.request.post('/api/payment-success', {
    data: { subscriptionType: 'standard', paymentType: 'monthly', paymentIntentId },
    headers: sameOrigin(),
  });
  expect(recorded.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Subscription Active!' })).toBeVisible();
  await expect(page.getByText('Your Standard plan is active: you have 600 credits to use.')).toBeVisible();
});
