import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signedInAccount } from './operator';

/*
 * Moving between signed-in pages keeps the header (it used to blank the whole
 * page while each page's code loaded), and every screen names itself in the tab title.
 */

/** Marks the header now shown, and counts every moment it is missing or hidden from now on. */
async function watchHeader(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { watchedHeader: Element | null; headerGone: number };
    w.watchedHeader = document.querySelector('header');
    w.headerGone = 0;
    const check = () => {
      const header = document.querySelector('header');
      if (header !== w.watchedHeader || !header?.checkVisibility()) w.headerGone += 1;
    };
    new MutationObserver(check).observe(document.body, { childList: true, subtree: true, attributes: true });
    const poll = () => {
      check();
      requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  });
}

const headerGone = (page: Page) => page.evaluate(() => (window as unknown as { headerGone: number }).headerGone);

test('moving between signed-in pages keeps the same header on screen', async ({ page }) => {
  await signedInAccount(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Professional Tree Analysis' })).toBeVisible();
  await watchHeader(page);

  const nav = page.getByRole('navigation', { name: 'Main' });
  const pages = [
    { link: 'Settings', heading: 'AI Settings' },
    { link: 'Business Admin', heading: 'Business Admin' },
    { link: 'History', heading: 'Analysis History' },
    { link: 'Get Tokens', heading: 'Unlock TreeAnalyzer Pro' },
    { link: 'Settings', heading: 'AI Settings' },
  ];
  for (const { link, heading } of pages) {
    await nav.getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  await page.getByRole('banner').getByRole('link', { name: 'TreeAnalyzer Pro' }).click();
  await expect(page.getByRole('heading', { name: 'Professional Tree Analysis' })).toBeVisible();

  expect(await headerGone(page)).toBe(0);
  // Focus starts at the new page's content, not on the link that was followed.
  await expect(page.getByRole('main')).toBeFocused();
});

test('each screen has its own title', async ({ page }) => {
  for (const [path, title] of [
    ['/login', 'Sign In'],
    ['/register', 'Create Account'],
    ['/forgot-password', 'Forgot Password'],
    ['/reset-password?token=abc', 'Reset Password'],
    ['/no-such-page', 'Page Not Found'],
    // Signed out, a signed-in route shows the sign-in screen, and says so.
    ['/history', 'Sign In'],
  ] as const) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(`${title} · TreeAnalyzer Pro`);
  }

  await signedInAccount(page);
  for (const [path, title] of [
    ['/', 'Tree Analysis'],
    ['/settings', 'AI Settings'],
    ['/admin/businesses', 'Business Admin'],
    ['/admin/log', 'Admin Log'],
    ['/checkout', 'Get Tokens'],
    ['/subscribe?plan=pro', 'Subscribe'],
    ['/history', 'History'],
    ['/history/1', 'Past Analysis'],
  ] as const) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(`${title} · TreeAnalyzer Pro`);
  }

  // Moving inside the app retitles the tab too.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveTitle('AI Settings · TreeAnalyzer Pro');
});
