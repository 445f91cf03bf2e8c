import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { signedInAccount } from './operator';

/*
 * Settings, "Your data" (docs/product.md, Accounts): a user downloads a ZIP of their account, then deletes the
 * account, confirming with the password in a dialog; a wrong password keeps everything. The
 * download carries the settings, sharing job times among them.
 */
test('download my data, then delete my account with the password', async ({ page }) => {
  const account = await signedInAccount(page);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Your data' });
  await expect(section).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // Sharing job times is on by default; turned off it stays off, and the download says so.
  const share = page.getByRole('switch', { name: "Share my job times, without names or photos, to improve everyone's starting estimates" });
  await expect(share).toBeChecked();
  await share.uncheck();
  await expect(page.getByText('Not Sharing Your Job Times', { exact: true })).toBeVisible();
  await page.reload();
  await expect(share).not.toBeChecked();

  const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('link', { name: 'Download my data' }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^treeanalyzer-data-${account.username}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  const accountJson = JSON.parse(new TextDecoder().decode(files['account.json']!));
  expect(accountJson.user.username).toBe(account.username);
  expect(accountJson.settings.shareJobTimes).toBe(false);

  // A wrong password: the dialog says so and nothing is deleted.
  await section.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Your password')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('delete-account-dialog.png') });
  await dialog.getByLabel('Your password').fill('not my password');
  await dialog.getByRole('button', { name: 'Delete My Account' }).click();
  await expect(dialog.getByText('That password is not right. Your account has not been deleted.')).toBeVisible();

  // Escape keeps the account; then the right password deletes it and signs out.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await section.getByRole('button', { name: 'Delete my account' }).click();
  await dialog.getByLabel('Your password').fill(account.password);
  await dialog.getByLabel('Your password').press('Enter');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your account and all its data have been deleted.')).toBeVisible();

  // The name no longer signs in.
  await page.getByLabel('Username or Email').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText('Invalid username/email or password').first()).toBeVisible();
});

test('Your data fits a 375 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signedInAccount(page);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Your data' });
  await section.scrollIntoViewIfNeeded();
  const box = (await section.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await section.screenshot({ path: test.info().outputPath('your-data-375.png') });
});
