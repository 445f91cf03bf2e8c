import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';

/*
 * The page the acceptance e-mail's "Fingerprint" line links to (docs/product.md, Jobs and quotes:
 * evidence): readable on a phone (it has no script), the steps in plain words, nothing of any account.
 */
test.use({ viewport: { width: 390, height: 844 } });

test('how to check a quote’s fingerprint, on a phone', async ({ page }) => {
  await page.goto('/help/quote-fingerprint');
  await expect(page.getByRole('heading', { level: 1, name: 'Checking the fingerprint of a quote you accepted' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'How to check it' })).toBeVisible();
  await expect(page.getByRole('listitem')).toHaveCount(4);
  await expect(page.getByText(/put \/api\/quotes\/ in place of \/quote\//)).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'fingerprint-help-390');
});
