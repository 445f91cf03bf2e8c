import type { Page } from '@playwright/test';
import { expect, newAccount, registerByApi, test, type TestAccount } from './fixtures';
import { waitForResetLink } from './mailbox';

/*
 * Account flows in a real Chromium against the real server (docs/product.md, Accounts).
 * Each test makes its own account: scrypt costs ~0.3 s per hash and login failures
 * are rate limited per address, so registrations and wrong passwords are kept few.
 */

async function signIn(page: Page, usernameOrEmail: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(usernameOrEmail);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function expectSignedInAs(page: Page, account: TestAccount): Promise<void> {
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('banner')).toContainText(`Welcome, ${account.username}`);
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL('/login');
  await expect(page.getByText('Logged Out', { exact: true })).toBeVisible();
}

function toast(page: Page, title: string) {
  return page.getByText(title, { exact: true });
}

test('register, log out, then log in by username and by e-mail', async ({ page }) => {
  const account = newAccount();

  await page.goto('/register');
  await page.getByLabel('First Name').fill(account.firstName);
  await page.getByLabel('Last Name').fill(account.lastName);
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectSignedInAs(page, account);

  await logOut(page);
  await signIn(page, account.username, account.password);
  await expectSignedInAs(page, account);

  await logOut(page);
  await signIn(page, account.email, account.password);
  await expectSignedInAs(page, account);
});

test('a wrong password shows the Login Failed toast and stays on /login', async ({ page, request }) => {
  const account = newAccount();
  await registerByApi(request, account);

  await signIn(page, account.username, `${account.password}-wrong`);
  await expect(toast(page, 'Login Failed')).toBeVisible();
  await expect(page).toHaveURL('/login');
});

test('forgot password: the e-mailed link sets a new password, and the old one stops working', async ({
  page,
  request,
}) => {
  const account = newAccount();
  await registerByApi(request, account);
  const newPassword = `${account.password}-new`;

  await page.goto('/login');
  await page.getByRole('link', { name: /forgot/i }).click();
  await expect(page).toHaveURL('/forgot-password');
  const requestedAt = Date.now();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();

  const link = await waitForResetLink(account.email, { since: requestedAt - 1000 });
  expect(link.origin, 'the link points at PUBLIC_URL').toBe(new URL(page.url()).origin);
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { name: 'Password Reset Successful' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL('/login');

  await signIn(page, account.username, account.password);
  await expect(toast(page, 'Login Failed')).toBeVisible();

  await signIn(page, account.username, newPassword);
  await expectSignedInAs(page, account);
});

test('/reset-password without a token goes to /login with Invalid Reset Link', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page).toHaveURL('/login');
  await expect(toast(page, 'Invalid Reset Link')).toBeVisible();
});

test('an unknown path shows 404 Page Not Found', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
});

test.describe('login page on a 375 x 667 phone', () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test('has no horizontal scroll, labelled inputs, and is usable by keyboard', async ({ page }) => {
    await page.goto('/login');
    const usernameOrEmail = page.getByLabel('Username or Email');
    const password = page.getByLabel('Password', { exact: true });
    const signInButton = page.getByRole('button', { name: 'Sign In', exact: true });
    await expect(usernameOrEmail).toBeVisible();
    await expect(password).toBeVisible();

    const scrollWidth = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
    expect(scrollWidth).toBeLessThanOrEqual(375);

    // Tab from the top of the page must reach both inputs and the submit button, in that order.
    const reached: string[] = [];
    for (let i = 0; i < 15 && !reached.includes('submit'); i++) {
      await page.keyboard.press('Tab');
      if (await usernameOrEmail.evaluate((el) => el === document.activeElement)) reached.push('usernameOrEmail');
      else if (await password.evaluate((el) => el === document.activeElement)) reached.push('password');
      else if (await signInButton.evaluate((el) => el === document.activeElement)) reached.push('submit');
    }
    expect(reached).toEqual(['usernameOrEmail', 'password', 'submit']);

    // And the form submits with Enter: an empty password gets the form's message, no request.
    await usernameOrEmail.focus();
    await page.keyboard.type('someone');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Password is required')).toBeVisible();
  });
});
