import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * Every page, for everyone: every dashboard screen and the embed pass axe-core
 * (no serious or critical violations against WCAG 2.x A and AA), and every control on
 * them can be reached with Tab. Automated checks catch missing labels, contrast, ARIA
 * misuse and keyboard traps; they are not a substitute for a manual review.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const ORIGIN = () => ({ Origin: e2eEnv('baseURL') });

/**
 * Tabs through the whole page (into open shadow roots) and answers the controls that never
 * got focus. A radio group counts once (Tab enters it once; the arrows move inside).
 */
async function controlsTabCannotReach(page: Page): Promise<string[]> {
  await page.evaluate(() => {
    const w = window as unknown as { tabbed: Set<string>; keyOf: (el: Element) => string; record: () => void };
    w.tabbed = new Set();
    w.keyOf = (el: Element) => {
      if (el instanceof HTMLInputElement && el.type === 'radio') return `radio:${el.name}`;
      const label = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
      const path: string[] = [];
      for (let node: Node | null = el; node && node !== document; node = node.parentNode ?? (node as ShadowRoot).host) {
        if (node instanceof Element) path.push(`${node.tagName}${[...(node.parentNode?.children ?? [])].indexOf(node)}`);
      }
      return `${el.tagName.toLowerCase()} "${label}" ${path.join('<')}`;
    };
    // Where each Tab press left focus, read in the page as the next press starts (and after the
    // last one), so the walk needs no round trip per key.
    w.record = () => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      if (active && active !== document.body && active.id !== 'tab-walk-start') w.tabbed.add(w.keyOf(active));
    };
    document.addEventListener('keydown', (event) => event.key === 'Tab' && w.record(), true);
    // Tab starts from here, the top of the page, whatever had focus or was clicked before.
    const start = document.createElement('div');
    start.id = 'tab-walk-start';
    start.tabIndex = -1;
    document.body.prepend(start);
    start.focus();
  });
  const all = async () =>
    page.evaluate(() => {
      const w = window as unknown as { keyOf: (el: Element) => string };
      const found: string[] = [];
      const visit = (root: Document | ShadowRoot) => {
        for (const el of root.querySelectorAll('*')) {
          if (el.shadowRoot) visit(el.shadowRoot);
          const interactive =
            el.matches('a[href], button, input:not([type="hidden"]), select, textarea, [tabindex]') &&
            !el.matches(':disabled, [tabindex="-1"]');
          // Toasts come and go on their own timer (Sonner also focuses them with Alt+T).
          if (!interactive || el.closest('[inert], dialog:not([open]), [data-sonner-toaster]')) continue;
          if (!el.checkVisibility({ visibilityProperty: true })) continue;
          found.push(w.keyOf(el));
        }
      };
      visit(document);
      return [...new Set(found)];
    });
  const expected = await all();
  const reachedNow = () =>
    page.evaluate(() => {
      const w = window as unknown as { tabbed: Set<string>; record: () => void };
      w.record();
      return [...w.tabbed];
    });
  // Tab in batches, asking the page what focus has reached only between them; done once every
  // control has had it, or after twice round the page (a control Tab skips is never reached).
  const BATCH = 8;
  let reached: string[] = [];
  for (let pressed = 0; pressed < expected.length * 2 + 10; ) {
    for (let i = 0; i < BATCH; i++, pressed++) await page.keyboard.press('Tab');
    reached = await reachedNow();
    if (expected.every((key) => reached.includes(key))) break;
  }
  await page.evaluate(() => document.getElementById('tab-walk-start')?.remove());
  return expected.filter((key) => !reached.includes(key));
}

/** axe, then the Tab walk, on whatever the page shows now. */
async function checkScreen(page: Page, ready: Locator) {
  await expect(ready).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  expect(await controlsTabCannotReach(page)).toEqual([]);
}

test.describe('signed out', () => {
  for (const { path, ready } of [
    { path: '/login', ready: 'Username or Email' },
    { path: '/register', ready: 'Username' },
    { path: '/forgot-password', ready: 'Email' },
    { path: '/reset-password?token=not-a-real-token', ready: 'New Password' },
  ] as const) {
    test(`${path} passes axe and every control takes focus`, async ({ page }) => {
      await page.goto(path);
      await checkScreen(page, page.getByLabel(ready, { exact: true }));
    });
  }

  test('the not-found screen passes axe and every control takes focus', async ({ page }) => {
    await page.goto('/no-such-page');
    await checkScreen(page, page.getByRole('heading', { name: '404 Page Not Found' }));
  });
});

test('the signed-in pages pass axe and every control takes focus', async ({ page }) => {
  await signedInAccount(page);
  for (const { path, ready } of [
    { path: '/', ready: 'Subscribe to Start Analyzing' },
    { path: '/history', ready: 'No analyses yet' },
    { path: '/settings', ready: 'Save Configuration' },
    { path: '/admin/businesses', ready: 'No businesses yet' },
    { path: '/checkout', ready: 'Unlock TreeAnalyzer Pro' },
    { path: '/subscribe?plan=standard', ready: 'Standard Monthly' },
    { path: '/admin/log', ready: null },
    { path: '/history/999999', ready: 'Analysis Not Found' },
  ] as const) {
    await test.step(path, async () => {
      await page.goto(path);
      // Each page's own words once it has loaded its data; the admin log's page title otherwise.
      await checkScreen(page, ready ? page.getByText(ready, { exact: true }).first() : page.getByRole('heading', { level: 1 }));
    });
  }
});

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 375, height: 740 },
]) {
  test(`at ${viewport.width} px every stage of an analysis, and History, pass axe and every control takes focus`, async ({ page }) => {
    const account = await signedInAccount(page);
    grantCredits(account.username, 10);
    await page.goto('/settings');
    await page.getByLabel('Hourly Rate').fill('55');
    await page.getByRole('button', { name: 'Save Pricing' }).click();
    await expect(page.getByText('Pricing Saved', { exact: true })).toBeVisible();

    await page.setViewportSize(viewport);
    await page.goto('/');
    await checkScreen(page, page.getByRole('heading', { name: 'Upload Tree Photo' }));
    await page.getByLabel('Tree photo', { exact: true }).setInputFiles(PHOTO);
    await page.getByLabel('Project Details').fill('redbud, 6 inch trunk, 15 ft tall');
    await checkScreen(page, page.getByLabel('Project Details'));

    await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
    await checkScreen(page, page.getByRole('heading', { name: 'Analysis Results' }));
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    await page.getByRole('button', { name: 'Provide Feedback' }).click();
    await checkScreen(page, page.getByRole('heading', { name: 'Provide Feedback' }));

    const [latest] = ((await (await page.request.get('/api/analyses')).json()) as { analyses: { id: number }[] }).analyses;
    await page.goto(`/history/${latest!.id}`);
    await checkScreen(page, page.getByRole('heading', { name: 'Analysis Results' }));
    await page.goto('/history');
    await checkScreen(page, page.getByRole('list', { name: 'Past analyses' }));
  });
}

test('the error stage passes axe and every control takes focus', async ({ page }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  await page.goto('/');
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles(PHOTO);
  // The credits are spent elsewhere while the uploader is open.
  const image = await readFile(PHOTO);
  const spend = await page.request.post('/api/analyze-tree', {
    multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: image }, description: 'redbud, 6 inch trunk, 15 ft' },
    headers: ORIGIN(),
    timeout: 30_000,
  });
  expect(spend.status()).toBe(201);
  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
  await checkScreen(page, page.getByRole('heading', { name: 'Analysis Failed' }));
});

test('Business Admin with a business, and its /embed page, pass axe and every control takes focus', async ({ page }) => {
  const account = await signedInAccount(page);
  // The owner pays for the two embed analyses.
  grantCredits(account.username, 20);
  const slug = `a11y-${Date.now().toString(36)}`;
  const created = await page.request.post('/api/businesses', {
    data: { name: 'Access Tree Care', slug, hourlyRate: '40.00' },
    headers: ORIGIN(),
  });
  expect(created.status(), await created.text()).toBe(201);

  await page.goto('/admin/businesses');
  await checkScreen(page, page.getByRole('article', { name: 'Access Tree Care' }));

  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 375, height: 740 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/embed/${slug}`);
    const estimator = page.locator('tree-estimator');
    await checkScreen(page, estimator.getByRole('heading', { name: 'Get a guide price for your tree' }));
    await estimator.locator('input[type="file"]').setInputFiles(PHOTO);
    await estimator.getByLabel('Anything else we should know?').fill('redbud, 6 inch trunk, 15 ft tall');
    await estimator.getByRole('button', { name: 'Get my price' }).click();
    await checkScreen(page, estimator.getByRole('heading', { name: 'Your guide price' }));
  }
});

test('the axe check itself fails on an unlabelled field and faint text', async ({ page }) => {
  await page.setContent(
    '<!doctype html><html lang="en"><title>Bad form</title><main><h1>Form</h1><input type="text"><p style="color:#bbb;background:#fff">faint</p></main></html>',
  );
  const failure = await expectNoSeriousAxeViolations(page).then(
    () => '',
    (error: Error) => error.message,
  );
  expect(failure).toContain('critical label');
  expect(failure).toContain('serious color-contrast');
});
