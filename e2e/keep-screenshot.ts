import type { Page } from '@playwright/test';

/** Optional: E2E_SCREENSHOTS=/some/dir keeps full-page pictures to look at by eye. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}
