import type { FileChooser, Page } from '@playwright/test';

/**
 * Opens the page's file picker with `open` (a key, a tap, a click) and hands back the picker.
 *
 * Playwright's `waitForEvent('filechooser')` turns the browser's file-chooser interception on
 * without waiting for it (the client sends the subscription and returns), so a key pressed at
 * once can reach the page first: Chromium then opens its own dialog, which nothing sees, and
 * the wait times out (a CI run failed so on the /embed keyboard walk). A round trip through the
 * page after subscribing lets the subscription land before anything can open a picker.
 */
export async function openFileChooser(page: Page, open: () => Promise<unknown>): Promise<FileChooser> {
  const chooser = page.waitForEvent('filechooser');
  await page.evaluate(() => document.readyState);
  await page.evaluate(() => document.readyState);
  const [picked] = await Promise.all([chooser, open()]);
  return picked;
}
