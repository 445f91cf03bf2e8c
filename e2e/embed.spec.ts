import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { openFileChooser } from './file-chooser';
import { waitForMail } from './mailbox';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import { startHostSite, type HostSite } from './rig/host-site';
import { ownerCopiesSnippet, type Owner } from './embed-owner';

/*
 * The product's defining shape: an owner creates a business in
 * Business Admin, copies a snippet, and pastes it into their own site (here a page on a
 * second port, with hostile CSS). A visitor there goes from photo to estimate to a quote
 * request; the owner gets the e-mail and sees the lead in Business Admin. Once by script
 * tag, once by iframe.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));

let host: HostSite;
test.beforeAll(async () => {
  host = await startHostSite();
});
test.afterAll(async () => {
  await host.close();
});

/** A visitor's whole path inside the estimator, wherever it is rendered. */
async function visitorGetsEstimateAndRequestsQuote(scope: Locator, owner: Owner) {
  await expect(scope.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  await expect(scope.getByText(`Powered by ${owner.businessName}`)).toBeVisible();
  const analyze = scope.getByRole('button', { name: 'Get my price' });
  await expect(analyze).toBeDisabled();
  await scope.locator('input[type="file"]').setInputFiles(PHOTO);
  await scope.getByLabel('Anything else we should know?').fill('redbud, 6 inch trunk, 15 ft tall, open lawn');
  // The answer is held until the processing view has been seen: the view lists its four steps
  // for as long as it is up (the current one moves on each second), so the first step's words
  // are there whenever a busy machine gets round to looking.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const page = scope.page();
  await page.route('**/api/analyze-tree', async (route) => {
    await held;
    await route.continue();
  });
  // A tap that lands while the form is still settling (the photo's row and the questions have
  // just appeared) can miss the button on a busy machine; a visitor would tap again, and so do
  // we, only while the button is still there: once the processing view is up it is gone, so the
  // estimate is asked for once.
  await expect(async () => {
    if (await analyze.isVisible()) await analyze.click({ timeout: 2_000 });
    await expect(scope.getByRole('progressbar')).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await expect(scope.getByText('Processing your photo...')).toBeVisible();
  release();
  await page.unroute('**/api/analyze-tree');

  await expect(scope.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  await expect(scope.getByRole('heading', { name: 'Your tree' })).toBeVisible();
  await expect(scope).toContainText('Redbud');
  await expect(scope).toContainText(/about £[\d,]+/);
  await expect(scope.getByText(`Powered by ${owner.businessName}`)).toBeVisible();

  await expect(scope.getByText(`Your details go only to ${owner.businessName}.`)).toBeVisible();
  await scope.getByLabel('Name').fill('Jo Visitor');
  await scope.getByLabel('Phone').fill('07700 900123');
  await scope.getByLabel('Postcode').fill('LS6 2AB');
  await scope.getByLabel('Note').fill('Mornings are best');
  await scope.getByRole('button', { name: 'Request a quote' }).click();
  await expect(scope.getByText('Thank you! Your request has been sent.')).toBeVisible();
}

/** The owner's inbox and Business Admin both show the visitor's request. */
async function ownerSeesLead(page: Page, owner: Owner, since: number) {
  const { mail } = await waitForMail(owner.email, { since });
  expect(mail.subject).toBe(`New quote request for ${owner.businessName} from Jo Visitor`);
  expect(mail.text).toContain('07700 900123');
  expect(mail.text).toContain('Mornings are best');

  await page.goto('/admin/businesses');
  const card = page.getByRole('article', { name: owner.businessName });
  await expect(card).toContainText('Jo Visitor');
  await expect(card).toContainText('07700 900123');
  await expect(card).toContainText('Mornings are best');
  await expect(card.getByRole('img', { name: /tree/i }).first()).toBeVisible();
}

async function hostTextStyle(page: Page) {
  return page.evaluate(() => {
    const style = getComputedStyle(document.getElementById('host-text')!);
    return {
      fontSize: style.fontSize,
      color: style.color,
      fontFamily: style.fontFamily,
      sheets: document.styleSheets.length,
      headChildren: document.head.children.length,
    };
  });
}

test('script tag: a visitor on the business site gets an estimate and requests a quote; the owner gets it', async ({ page, context, browser }) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
  expect(owner.snippet).toContain('<tree-estimator slug="');
  const url = host.setPage('/script.html', 'Oakfield Garden Services', owner.snippet);

  const visitor = await (await browser.newContext()).newPage();
  const widgetRequests: string[] = [];
  visitor.on('request', (req) => {
    if (req.url().includes('/widget/assets/')) widgetRequests.push(req.url());
  });
  await visitor.goto(url);
  const before = await hostTextStyle(visitor);
  // Below the fold: the loader waits, so the host page pays almost nothing until then. Once
  // widget.js has run, an observer of our own on the element reports its first position in the
  // same rendering step as the loader's (which was made first): the element is not near, and
  // nothing was asked for.
  await visitor.waitForFunction(() => '__treeEstimatorLoader' in window);
  const element = visitor.locator('tree-estimator');
  const near = await element.evaluate(
    (el) =>
      new Promise<boolean>((resolve) => {
        const seen = new IntersectionObserver(
          (entries) => {
            seen.disconnect();
            resolve(entries.some((e) => e.isIntersecting));
          },
          { rootMargin: '200px' },
        );
        seen.observe(el);
      }),
  );
  expect(near).toBe(false);
  expect(await visitor.evaluate(() => customElements.get('tree-estimator') === undefined)).toBe(true);
  expect(widgetRequests).toEqual([]);
  await element.scrollIntoViewIfNeeded();
  await expect.poll(() => widgetRequests.length).toBeGreaterThan(0);

  const since = Date.now();
  await visitorGetsEstimateAndRequestsQuote(element, owner);
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');

  // The host page's own styles are untouched; its analytics heard both events from the element.
  expect(await hostTextStyle(visitor)).toEqual(before);
  expect(before.fontSize).toBe('40px');
  const events = await visitor.evaluate(() => (window as unknown as { estimatorEvents: { name: string; tag: string; detail: { cost: unknown } }[] }).estimatorEvents);
  expect(events.map((e) => `${e.name} ${e.tag}`)).toEqual(['tree-estimator:result tree-estimator', 'tree-estimator:lead tree-estimator']);
  expect(events[0]?.detail.cost).not.toBeNull();
  await visitor.screenshot({ path: test.info().outputPath('script-tag-results.png'), fullPage: true });

  await ownerSeesLead(page, owner, since);
  await visitor.context().close();
});

test('iframe: the frame sizes itself, and a visitor goes from photo to quote request', async ({ page, context, browser }) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Embed');
  expect(owner.snippet).toMatch(/<iframe src="[^"]+\/embed\/[a-z0-9-]+" width="100%" height="600"/);
  const url = host.setPage('/iframe.html', 'Oakfield Garden Services', owner.snippet);

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(url);
  const before = await hostTextStyle(visitor);
  const iframe = visitor.locator('iframe');
  await iframe.scrollIntoViewIfNeeded();
  const frame = visitor.frameLocator('iframe');
  const inside = frame.locator('tree-estimator');
  await expect(inside.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();

  // The frame takes its content's height, not the fixed 600 of the no-script fallback.
  // The frame is another origin: its content height is read inside it.
  const embedFrame = () => visitor.frames().find((f) => f.url().includes('/embed/'));
  const fits = async () => {
    const outer = await iframe.evaluate((el) => el.getBoundingClientRect().height);
    const content = (await embedFrame()?.evaluate(() => document.querySelector('tree-estimator')!.getBoundingClientRect().height)) ?? -1;
    return Math.abs(outer - content) <= 2 && outer !== 600;
  };
  await expect.poll(fits).toBe(true);
  const uploadHeight = await iframe.evaluate((el) => el.getBoundingClientRect().height);

  const since = Date.now();
  await visitorGetsEstimateAndRequestsQuote(inside, owner);
  await expect.poll(fits).toBe(true);
  expect(await iframe.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(uploadHeight);
  expect(await hostTextStyle(visitor)).toEqual(before);

  // widget.js re-dispatches the frame's events on the iframe element.
  const events = await visitor.evaluate(() => (window as unknown as { estimatorEvents: { name: string; tag: string }[] }).estimatorEvents);
  expect(events.map((e) => `${e.name} ${e.tag}`)).toEqual(['tree-estimator:result iframe', 'tree-estimator:lead iframe']);
  await visitor.screenshot({ path: test.info().outputPath('iframe-results.png'), fullPage: true });

  await ownerSeesLead(page, owner, since);
  await visitor.context().close();
});

test('a site that is not on the list cannot frame or use the estimator', async ({ page, context, browser }) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
  // The same snippet on the app's own origin stands in for a stranger's site: not the listed one.
  const slug = /slug="([^"]+)"/.exec(owner.snippet)?.[1];
  const visitor = await (await browser.newContext()).newPage();
  const stranger = await startHostSite();
  try {
    await visitor.goto(stranger.setPage('/copy.html', 'Copycat', owner.snippet));
    const element = visitor.locator('tree-estimator');
    await element.scrollIntoViewIfNeeded();
    await expect(element.getByRole('heading', { name: 'Service Unavailable' })).toBeVisible();

    const framed = stranger.setPage('/frame.html', 'Copycat', `<iframe src="${e2eEnv('baseURL')}/embed/${slug}" width="100%" height="600" title="x"></iframe>`);
    const refused = visitor.waitForEvent('console', (msg) => /frame-ancestors/.test(msg.text()));
    await visitor.goto(framed);
    await refused;
  } finally {
    await stranger.close();
    await visitor.context().close();
  }
});

test('the /embed page at 320 px, by keyboard alone, from photo to quote request', async ({ page, browser }) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  const businessName = `Keyboard Trees ${Date.now().toString(36)}`;
  const slug = businessName.toLowerCase().replace(/ /g, '-');
  const created = await page.request.post('/api/businesses', {
    data: { name: businessName, slug, hourlyRate: '40.00', aiInstructions: null, accentColor: '#7c2d12' },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(created.status(), await created.text()).toBe(201);

  const visitor = await (await browser.newContext({ viewport: { width: 320, height: 640 } })).newPage();
  await visitor.goto(`/embed/${slug}`);
  const element = visitor.locator('tree-estimator');
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  const noSideScroll = () => visitor.evaluate(() => document.scrollingElement!.scrollWidth <= 320);
  expect(await noSideScroll()).toBe(true);

  // Tab to the picker and open it with the keyboard.
  const choose = element.getByRole('button', { name: 'Choose a photo' });
  for (let i = 0; i < 10 && !(await choose.evaluate((el) => el.matches(':focus'))); i += 1) await visitor.keyboard.press('Tab');
  await expect(choose).toBeFocused();
  await (await openFileChooser(visitor, () => visitor.keyboard.press('Enter'))).setFiles(PHOTO);
  await expect(element.getByRole('button', { name: /^Remove / })).toBeVisible();

  // The questions by keyboard: Tab into each group (on its checked answer, else its first),
  // Space picks it, arrows move on.
  const focusedRadio = () => visitor.evaluate(() => {
    const active = document.querySelector('tree-estimator')!.shadowRoot!.activeElement as HTMLInputElement | null;
    return active?.type === 'radio' ? active.closest('fieldset')!.querySelector('legend')!.textContent : null;
  });
  const answer = async (question: string, arrows: number) => {
    for (let i = 0; i < 10 && (await focusedRadio()) !== question; i += 1) await visitor.keyboard.press('Tab');
    expect(await focusedRadio()).toBe(question);
    await visitor.keyboard.press('Space');
    for (let i = 0; i < arrows; i += 1) await visitor.keyboard.press('ArrowDown');
  };
  await expect(element.getByRole('group', { name: 'How tall is the tree?' })).toBeVisible();
  // The sizes start at "Not sure" (their last answer) while the photo cannot be read: the
  // arrows wrap round to the first size and on to the second.
  await answer('How tall is the tree?', 2);
  await answer('How thick is the trunk?', 2);
  const group = (name: string) => element.getByRole('group', { name });
  await expect(group('How tall is the tree?').getByRole('radio', { name: /About a two-storey house/ })).toBeChecked();
  await expect(group('How thick is the trunk?').getByRole('radio', { name: /Up to a dinner plate/ })).toBeChecked();
  // A site question starts at "Not sure" (its last answer): the arrow wraps round to "Yes".
  await answer('Take the wood and waste away?', 1);
  await expect(group('Take the wood and waste away?').getByRole('radio', { name: 'Yes' })).toBeChecked();
  expect(await noSideScroll()).toBe(true);

  const analyze = element.getByRole('button', { name: 'Get my price' });
  for (let i = 0; i < 10 && !(await analyze.evaluate((el) => el.matches(':focus'))); i += 1) await visitor.keyboard.press('Tab');
  await expect(analyze).toBeFocused();
  await visitor.keyboard.press('Enter');
  // Focus follows the visitor to each new view's heading.
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeFocused();
  expect(await noSideScroll()).toBe(true);

  const name = element.getByLabel('Name');
  for (let i = 0; i < 20 && !(await name.evaluate((el) => el.matches(':focus'))); i += 1) await visitor.keyboard.press('Tab');
  await expect(name).toBeFocused();
  await visitor.keyboard.type('Kay Board');
  await visitor.keyboard.press('Tab');
  await visitor.keyboard.type('kay@example.test');
  // Past the phone to the postcode.
  await visitor.keyboard.press('Tab');
  await visitor.keyboard.press('Tab');
  await expect(element.getByLabel('Postcode')).toBeFocused();
  await visitor.keyboard.type('LS6 2AB');
  await element.getByRole('button', { name: 'Request a quote' }).focus();
  await visitor.keyboard.press('Enter');
  await expect(element.getByText('Thank you! Your request has been sent.')).toBeVisible();
  await visitor.screenshot({ path: test.info().outputPath('embed-320-keyboard.png'), fullPage: true });
  await visitor.context().close();
});
