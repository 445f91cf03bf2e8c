import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';

/*
 * An automated accessibility smoke check of the public account pages: no serious or
 * critical axe-core violations against WCAG 2.x A and AA rules. It catches missing
 * labels, contrast and ARIA misuse; it is not a substitute for a manual review.
 */
const PAGES = [
  { path: '/login', ready: 'Username or Email' },
  { path: '/register', ready: 'Username' },
  { path: '/forgot-password', ready: 'Email' },
] as const;

for (const { path, ready } of PAGES) {
  test(`${path} has no serious or critical axe violations`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByLabel(ready, { exact: true })).toBeVisible();

    await expectNoSeriousAxeViolations(page);
  });
}
