import type { Page } from '@playwright/test';
import { expect, newAccount, registerByApi, test } from './fixtures';

/*
 * Guest pages log nothing and ask nothing they can know already (Lighthouse best
 * practices counts console errors, and GET /api/auth/me answers a guest with an honest 401).
 * The server sets a script-readable hint cookie beside the session cookie
 * (server/http/session.ts); without it the dashboard knows at once that nobody is signed in.
 */

const GUEST_PAGES = [
  { path: '/login', heading: 'Sign In' },
  { path: '/register', heading: 'Create Account' },
  { path: '/forgot-password', heading: 'Forgot Password' },
] as const;

/** Console errors, uncaught page errors and requests to /api/auth/me, from now on. */
function watch(page: Page) {
  const errors: string[] = [];
  const meRequests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/auth/me') meRequests.push(request.url());
  });
  return { errors, meRequests };
}

/** Opens each guest page and waits until it has shown and the network is quiet. */
async function visitGuestPages(page: Page): Promise<void> {
  for (const { path, heading } of GUEST_PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
}

async function hintCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === 'ta_signed_in');
}

test('guest pages log no errors and never ask for the current user, before sign-in and after logout', async ({ page, request }) => {
  const seen = watch(page);
  await visitGuestPages(page);
  expect(seen.errors, 'console errors on guest pages').toEqual([]);
  expect(seen.meRequests, 'GET /api/auth/me from a guest').toEqual([]);

  const account = newAccount();
  await registerByApi(request, account);
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('banner')).toContainText(`Welcome, ${account.username}`);

  const hint = await hintCookie(page);
  expect(hint?.value).toBe('1');
  expect(hint?.httpOnly).toBe(false);
  const session = (await page.context().cookies()).find((c) => c.name === 'ta_session');
  expect(session?.httpOnly).toBe(true);

  // A reload knows the user from the server, through the hint.
  const me = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/me');
  await page.reload();
  expect((await me).status()).toBe(200);
  await expect(page.getByRole('banner')).toContainText(`Welcome, ${account.username}`);

  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL('/login');
  expect(await hintCookie(page)).toBeUndefined();

  seen.errors.length = 0;
  seen.meRequests.length = 0;
  await visitGuestPages(page);
  expect(seen.errors, 'console errors on guest pages after logout').toEqual([]);
  expect(seen.meRequests, 'GET /api/auth/me after logout').toEqual([]);
});

test('a hint that outlived its session still gets the login screen, once, then no more requests', async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: 'ta_signed_in', value: '1', url: baseURL! }]);
  const seen = watch(page);

  const me = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/me');
  await page.goto('/');
  expect((await me).status(), '401 means signed out').toBe(401);
  await expect(page.getByRole('heading', { name: 'Sign In', exact: true })).toBeVisible();
  // The 401 cleared the hint, so the next visit asks nothing.
  expect(await hintCookie(page)).toBeUndefined();

  seen.meRequests.length = 0;
  seen.errors.length = 0;
  await visitGuestPages(page);
  expect(seen.meRequests).toEqual([]);
  expect(seen.errors).toEqual([]);
});

test('the register form checks itself without a request: messages, focus, and re-checks as fields change', async ({ page }) => {
  const seen = watch(page);
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url());
  });
  await page.goto('/register');
  await page.getByLabel('Username', { exact: true }).fill('ab');
  await page.getByLabel('Email', { exact: true }).fill('not-an-address');
  await page.getByLabel('Password', { exact: true }).fill('secret1');
  await page.getByLabel('Confirm Password').fill('secret2');
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address')).toBeVisible();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  // The first field in error has focus, and says why to a screen reader.
  const username = page.getByLabel('Username', { exact: true });
  await expect(username).toBeFocused();
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  await expect(username).toHaveAccessibleDescription('Username must be at least 3 characters');

  await page.getByLabel('Confirm Password').fill('secret1');
  await expect(page.getByText("Passwords don't match")).toBeHidden();
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  expect(posts, 'nothing is sent while the form is invalid').toEqual([]);
  expect(seen.errors).toEqual([]);
});
