import type { Page } from '@playwright/test';
import { ADMIN_LOG_ERROR_TITLE, ADMIN_ONLY_MESSAGE } from '../core/admin';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test, type TestAccount } from './fixtures';
import { bulkAccounts, demote, makeAdmin, signedInAccount } from './operator';
import { keepScreenshot } from './keep-screenshot';

/*
 * The admin log page (docs/product.md, Help assistant and admin log): an admin triggers the console log
 * and sees the message and total users, then finds an account in the table; a user sees that
 * the page is restricted; both pass axe, at desktop size and on a 375 px phone.
 *
 * Every spec shares one server, so which account registered first (the admin,
 * docs/product.md, Accounts; server/routes/admin.happy.test.ts checks that rule) depends on the order specs run
 * in. The admin here is made as an operator would (`npm run cli -- make-admin <username>`,
 * e2e/operator.ts).
 */

async function adminAccount(page: Page): Promise<TestAccount> {
  const account = await signedInAccount(page);
  makeAdmin(account.username);
  return account;
}

async function triggerLog(page: Page): Promise<number> {
  await page.getByRole('button', { name: 'Trigger Console Log' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Total users:' });
  await expect(status).toContainText(/Logged \d+ accounts? to the server console/);
  return Number(await status.getByTestId('total-users').textContent());
}

test('an admin triggers the console log, sees the total, and finds an account in the table', async ({ page }) => {
  const admin = await adminAccount(page);
  const otherName = `one${Date.now().toString(36)}n`;
  bulkAccounts(otherName, 1);
  const other = { username: `${otherName}00`, email: `${otherName}00@example.test` };
  await page.goto('/admin/log');
  await expect(page.getByRole('heading', { level: 1, name: 'Account Logging' })).toBeVisible();

  const total = await triggerLog(page);
  expect(total).toBeGreaterThanOrEqual(2);

  // The table: every account, newest first; the count says how many there are.
  const table = page.getByRole('table', { name: /Accounts, newest first/ });
  await expect(table.getByRole('columnheader')).toHaveText(['Username', 'E-mail', 'Name', 'Role', 'Created', 'Plan', 'Status', 'Credits', 'Next refill']);
  await expect(page.getByText(/^\d+ accounts$/)).toBeVisible();

  // Search narrows it, as the admin pauses typing; the match is literal and ignores case.
  await page.getByLabel('Search accounts').fill(other.username.toUpperCase());
  await expect(page.getByText(`1 account matches “${other.username.toUpperCase()}”`)).toBeVisible();
  const row = page.getByRole('table', { name: /matching/ }).getByRole('row', { name: other.username });
  await expect(row.getByRole('cell')).toHaveText([other.email, '—none', 'User', /\d{4}$/, '—none', '—none', '0', '—none']);

  await page.getByLabel('Search accounts').fill(admin.email);
  await expect(page.getByRole('row', { name: admin.username }).getByRole('cell').nth(2)).toHaveText('Admin');

  await page.getByLabel('Search accounts').fill('no account has this name %_');
  await expect(page.getByText('No accounts match your search.')).toBeVisible();

  await page.getByLabel('Search accounts').fill('');
  await expect(page.getByRole('table', { name: /Accounts, newest first/ })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'admin-log-desktop');
});

test('the table pages through 25 matching accounts, 20 at a time, from the keyboard', async ({ page }) => {
  await adminAccount(page);
  const prefix = `pg${Date.now().toString(36)}n`;
  bulkAccounts(prefix, 25);
  await page.goto('/admin/log');
  await page.getByLabel('Search accounts').fill(prefix);
  await expect(page.getByText(`25 accounts match “${prefix}”`)).toBeVisible();
  const names = page.getByRole('table').getByRole('rowheader');
  await expect(names).toHaveCount(20);
  const first = await names.allTextContents();

  const next = page.getByRole('button', { name: 'Next page' });
  await next.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Page 2 of 2', { exact: true })).toBeVisible();
  await expect(names).toHaveCount(5);
  // At the last page Next stays focused and does nothing.
  await expect(next).toBeFocused();
  await expect(next).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Enter');
  const second = await names.allTextContents();
  expect([...first, ...second].sort()).toEqual(Array.from({ length: 25 }, (_, n) => prefix + String(n).padStart(2, '0')));
  // Newest first: the last made is at the top of page 1.
  expect(first[0]).toBe(`${prefix}24`);

  // A new search starts again at page 1.
  await page.getByLabel('Search accounts').fill(`${prefix}0`);
  await expect(page.getByText(`10 accounts match “${prefix}0”`)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Account pages' })).toHaveCount(0);
  await expect(names).toHaveCount(10);
});

test('a user who is not an admin is told the page is restricted, with no button to press', async ({ page }) => {
  await signedInAccount(page);
  await page.goto('/admin/log');
  await expect(page.getByRole('heading', { name: 'Admin access required' })).toBeVisible();
  await expect(page.getByText(ADMIN_ONLY_MESSAGE)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Trigger Console Log' })).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(0);
  // The server says the same to anyone who asks it directly.
  const res = await page.request.get('/api/admin/log-accounts');
  expect(res.status()).toBe(403);
  expect(await res.json()).toEqual({ message: ADMIN_ONLY_MESSAGE, code: 'FORBIDDEN' });
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'admin-log-restricted');
});

test('an admin demoted while the page is open gets the Error toast, then the restricted notice', async ({ page }) => {
  const admin = await adminAccount(page);
  await page.goto('/admin/log');
  await expect(page.getByRole('button', { name: 'Trigger Console Log' })).toBeVisible();
  demote(admin.username);
  await page.getByRole('button', { name: 'Trigger Console Log' }).click();
  const toast = page.locator('[data-sonner-toast]');
  await expect(toast).toContainText(ADMIN_LOG_ERROR_TITLE);
  await expect(toast).toContainText(ADMIN_ONLY_MESSAGE);
  await expect(page.getByRole('heading', { name: 'Admin access required' })).toBeVisible();
});

test('at 375 px the admin can trigger the log and scroll the table sideways; nothing else overflows', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const admin = await adminAccount(page);
  await page.goto('/admin/log');
  await triggerLog(page);
  await page.getByLabel('Search accounts').fill(admin.username);
  const region = page.getByRole('region', { name: /Accounts matching/ });
  await expect(region.getByRole('row', { name: admin.username })).toBeVisible();
  // The page itself never scrolls sideways; the table's own region does, from the keyboard too.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const widths = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(widths.scroll).toBeGreaterThan(widths.client);
  await region.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'admin-log-375');
});
