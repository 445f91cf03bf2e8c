import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { OPERATOR_WORDS } from '../core/embed';
import { SURVEYOR_WORDS } from '../core/homeowner-guide';
import { startFakeOpenAI, type FakeOpenAI } from '../testing/fake-openai';
import { expectNoSeriousAxeViolations } from './axe';
import { ownerCopiesSnippet } from './embed-owner';
import { expect, test } from './fixtures';
import { shownText } from './visitor-text';
import { waitForMail } from './mailbox';
import { freePort, startAppServer, type AppServer } from './rig/app-server';
import { repoRoot } from './rig/dashboard-build';
import { e2eEnv } from './rig/env';
import { startHostSite, type HostSite } from './rig/host-site';

/*
 * A homeowner on a tree surgeon's own site (another origin, hostile CSS, a 390 px
 * phone) gets a price from a photo and taps alone, with no AI key configured; or by measuring
 * on the photo; and, where a vision model reads the photo, by letting the photo decide the size
 * while the site answers still move the price. The quote request reaches the owner with every
 * answer, and the business's funnel counts what the visitor did. At every step the element says
 * nothing of models, credits or configuration.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const PHONE = { width: 390, height: 844 };

let host: HostSite;
test.beforeAll(async () => {
  host = await startHostSite();
});
test.afterAll(async () => {
  await host.close();
});

/** The words a business's visitor may never read inside the element, checked at every step. */
async function expectVisitorWords(element: Locator) {
  const text = await shownText(element);
  expect(text).toContain('Powered by');
  expect(text, 'the estimator shows the operator\'s words to a visitor').not.toMatch(OPERATOR_WORDS);
  expect(text, "the estimator shows the trade's working to a visitor").not.toMatch(SURVEYOR_WORDS);
  // A form's words and the trade's, not a homeowner's (docs/product.md, Embed widget).
  expect(text, 'the estimator speaks as a form or the trade does').not.toMatch(/Additional Context|chipper|dismantl|vehicle can reach|JPEG|PNG|WebP/i);
}

/** No sideways scrolling on the phone, whatever the step. */
async function expectFitsPhone(page: Page) {
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
}

/** Taps one answer of one question: the question is a group named by its words. */
async function tap(element: Locator, question: string, answer: string) {
  await element.getByRole('group', { name: question }).getByText(answer, { exact: true }).click();
}

/** The visitor's phone on the owner's page with the script tag, scrolled to the estimator. */
async function visitorOnOwnerSite(page: Page, url: string): Promise<Locator> {
  await page.goto(url);
  const element = page.locator('tree-estimator');
  await element.scrollIntoViewIfNeeded();
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  await expectVisitorWords(element);
  return element;
}

async function choosePhoto(element: Locator) {
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  await expect(element.getByRole('group', { name: 'How tall is the tree?' })).toBeVisible();
}

/** The guide price as numbers, from "about £610 - £740 inc VAT". */
async function priceRange(element: Locator): Promise<{ min: number; max: number }> {
  const text = await element.locator('#guide-price').innerText();
  const [min, max] = [...text.matchAll(/£([\d,]+(?:\.\d{2})?)/g)].map((m) => Number(m[1]!.replace(/,/g, '')));
  if (min === undefined) throw new Error(`no price in: ${text}`);
  return { min, max: max ?? min };
}

async function funnelToday(page: Page, businessName: string) {
  const { businesses } = (await (await page.request.get('/api/businesses')).json()) as { businesses: { id: number; name: string }[] };
  const id = businesses.find((b) => b.name === businessName)?.id;
  expect(id, `business ${businessName}`).toBeDefined();
  const body = (await (await page.request.get(`/api/businesses/${id}/funnel?days=1`)).json()) as { days: Record<string, number | string>[] };
  return body.days.at(-1)!;
}

test('no AI key: a photo and taps give a price at the business rate, the quote request carries the answers, the funnel counts it', async ({ page, context, browser }) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
  const url = host.setPage('/taps.html', 'Oakfield Garden Services', owner.snippet);
  const visitor = await (await browser.newContext({ viewport: PHONE })).newPage();
  const started = Date.now();
  const element = await visitorOnOwnerSite(visitor, url);

  await choosePhoto(element);
  // No model reads sizes here: the size questions are asked outright, nothing left to the photo.
  await expect(element.getByText('Let the photo decide')).toHaveCount(0);
  await tap(element, 'How tall is the tree?', 'About a two-storey house');
  await tap(element, 'How thick is the trunk?', 'Up to a dinner plate');
  await tap(element, 'What could the tree hit if it fell?', 'Fence or shed');
  await tap(element, 'Are there power lines near the tree?', 'No');
  await tap(element, 'How can a crew get to the tree?', 'Side gate only');
  await tap(element, 'Grind out the stump too?', 'Yes');
  await tap(element, 'Take the wood and waste away?', 'Yes');
  await expectVisitorWords(element);
  await expectFitsPhone(visitor);
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');
  await visitor.screenshot({ path: test.info().outputPath('homeowner-questions-390.png'), fullPage: true });
  // Nothing typed: "Anything else we should know?" stays empty.
  await expect(element.getByLabel('Anything else we should know?')).toHaveValue('');

  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  expect(Date.now() - started).toBeLessThan(60_000);
  await expect(element.locator('#guide-price')).toHaveText(/^about £[\d,]+( - £[\d,]+)?$/);
  const price = await priceRange(element);
  expect(price.min).toBeGreaterThan(0);
  // What the price includes follows the answers: the stump ground out, the waste taken away.
  const includes = element.getByRole('heading', { name: 'What the price includes' }).locator('xpath=ancestor::section[1]');
  await expect(includes).toContainText('Stump grinding below ground level');
  await expect(includes).toContainText('Removal of all wood, brush and chippings');
  await expect(includes).not.toContainText('Not included');
  await expectVisitorWords(element);
  await expectFitsPhone(visitor);
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');
  await visitor.screenshot({ path: test.info().outputPath('homeowner-results-390.png'), fullPage: true });

  const since = Date.now();
  await element.getByLabel('Name').fill('Sam Homeowner');
  await element.getByLabel('Phone').fill('07700 900456');
  await element.getByLabel('Postcode').fill('ls6 2ab');
  await tap(element, 'How would you like to hear back? (optional)', 'Call me');
  await tap(element, 'When is best to reach you? (optional)', 'Evening');
  await element.getByRole('button', { name: 'Request a quote' }).click();
  await expect(element.getByText('Thank you! Your request has been sent.')).toBeVisible();
  await expectVisitorWords(element);

  // The owner's e-mail and Business Admin carry every answer and how to reach the visitor.
  const { mail } = await waitForMail(owner.email, { since });
  for (const said of ['About as tall as a two-storey house', 'Up to a dinner plate', 'Fence or shed', 'Side gate only', 'Grind out the stump too?', 'Evening', '07700 900456']) {
    expect(mail.text, said).toContain(said);
  }
  await page.goto('/admin/businesses');
  const card = page.getByRole('article', { name: owner.businessName });
  for (const said of ['Sam Homeowner', 'About as tall as a two-storey house', 'Side gate only', 'Evening']) await expect(card).toContainText(said);

  // The funnel for today: the visitor's load, photo, estimate and quote request.
  const today = await funnelToday(page, owner.businessName);
  expect(today).toMatchObject({ photos: 1, estimates: 1, needsDetails: 0, leads: 1 });
  expect(today.loads).toBeGreaterThanOrEqual(1);
  await visitor.context().close();
});

test('no AI key: measuring the tree on the photo gives a price', async ({ page, context, browser }) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
  const url = host.setPage('/measure.html', 'Oakfield Garden Services', owner.snippet);
  const visitor = await (await browser.newContext({ viewport: PHONE, hasTouch: true })).newPage();
  const element = await visitorOnOwnerSite(visitor, url);
  const chunks: string[] = [];
  visitor.on('request', (req) => {
    if (/measure-panel/.test(req.url())) chunks.push(req.url());
  });

  await choosePhoto(element);
  expect(chunks, 'the measuring chunk loads only when asked for').toEqual([]);
  await element.getByRole('button', { name: 'Measure on the photo' }).click();
  const photo = element.getByRole('application', { name: 'Your tree photo' });
  await expect(photo).toHaveAttribute('aria-busy', 'false');
  expect(chunks.length).toBe(1);

  // A door 2 m tall beside the trunk, then the tree four times its height, then the trunk.
  const taps: [number, number][] = [
    [0.2, 0.55], [0.2, 0.75], // the door: top, bottom
    [0.5, 0.05], [0.5, 0.85], // the tree: top, base
    [0.47, 0.8], [0.53, 0.8], // the trunk: left, right
  ];
  for (const [fx, fy] of taps) {
    await photo.scrollIntoViewIfNeeded();
    const box = (await photo.boundingBox())!;
    await visitor.touchscreen.tap(box.x + fx * box.width, box.y + fy * box.height);
  }
  await expect(element.getByTestId('measured-height')).toContainText(/About \d+(\.\d)? m/);
  await expect(element.getByTestId('measured-trunk')).toContainText(/About \d+ cm/);
  await expectVisitorWords(element);
  await expectFitsPhone(visitor);
  await expectNoSeriousAxeViolations(visitor, 'tree-estimator');
  await visitor.screenshot({ path: test.info().outputPath('homeowner-measure-390.png'), fullPage: true });
  await element.getByRole('button', { name: 'Use these sizes' }).click();
  await expect(element.getByText(/Measured on your photo: about .* tall/)).toBeVisible();

  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  // The measured height is the one used: the door's 2 m against the tree's four door heights,
  // in the business's units (metric unless it chose otherwise) with feet in brackets.
  await expect(element.getByRole('heading', { name: 'Your tree' }).locator('xpath=ancestor::section[1]')).toContainText(/Height\s*8 m \(26 ft\)/);
  expect((await priceRange(element)).min).toBeGreaterThan(0);
  await expectVisitorWords(element);
  await visitor.context().close();
});

test('no AI key: a photo with no size is priced as a typical garden tree, a visit recommended, never a second screen', async ({ page, context, browser }) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
  const url = host.setPage('/later.html', 'Oakfield Garden Services', owner.snippet);
  const visitor = await (await browser.newContext({ viewport: PHONE })).newPage();
  const element = await visitorOnOwnerSite(visitor, url);
  await choosePhoto(element);
  // docs/analysis.md, Not sure and unanswered: a size left blank is "Not sure", checked as such.
  await expect(element.getByRole('group', { name: 'How tall is the tree?' }).getByRole('radio', { name: /^Not sure/ })).toBeChecked();
  await element.getByRole('button', { name: 'Get my price' }).click();

  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  await expect(element.getByRole('heading', { name: 'What we assumed' })).toBeVisible();
  await expect(element).toContainText(/We did not know the tree's height, so we priced a typical garden tree/);
  await expect(element).toContainText("We'll confirm the price when we see the tree");
  expect((await priceRange(element)).min).toBeGreaterThan(0);
  await expectVisitorWords(element);
  const today = await funnelToday(page, owner.businessName);
  expect(today).toMatchObject({ photos: 1, estimates: 1, needsDetails: 0 });
  await visitor.context().close();
});

test.describe('with a vision model', () => {
  let openai: FakeOpenAI;
  let app: AppServer;
  let logDir: string;

  test.beforeAll(async () => {
    openai = await startFakeOpenAI();
    logDir = await mkdtemp(join(tmpdir(), 'treeanalyzer-e2e-vision-'));
    // A second app on the same data: the same owners and businesses, but a model reads photos.
    app = await startAppServer({
      repoRoot,
      dataDir: e2eEnv('dataDir'),
      smtpPort: await freePort(),
      logFile: join(logDir, 'server.log'),
      env: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: openai.url },
    });
  });
  test.afterAll(async () => {
    await app?.stop();
    await openai?.close();
    await rm(logDir, { recursive: true, force: true });
  });

  test('"Let the photo decide" and site taps give a price that follows the site answers', async ({ page, context, browser }) => {
    const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
    // The same snippet, served by the app that has a model.
    const snippet = owner.snippet.replaceAll(e2eEnv('baseURL'), app.baseURL);
    const url = host.setPage('/vision.html', 'Oakfield Garden Services', snippet);
    const visitor = await (await browser.newContext({ viewport: PHONE })).newPage();

    const estimate = async (answers: [string, string][]) => {
      const element = await visitorOnOwnerSite(visitor, url);
      await choosePhoto(element);
      // The photo decides unless the visitor knows better.
      for (const question of ['How tall is the tree?', 'How thick is the trunk?']) {
        await expect(element.getByRole('group', { name: question }).getByRole('radio', { name: /Let the photo decide/ })).toBeChecked();
      }
      for (const [question, answer] of answers) await tap(element, question, answer);
      await expectVisitorWords(element);
      await element.getByRole('button', { name: 'Get my price' }).click();
      await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
      await expectVisitorWords(element);
      return { element, price: await priceRange(element) };
    };

    const easy = await estimate([
      ['What could the tree hit if it fell?', 'Nothing'],
      ['Are there power lines near the tree?', 'No'],
      ['How can a crew get to the tree?', 'A van can get to it'],
      ['Grind out the stump too?', 'No'],
    ]);
    await expect(easy.element).toContainText('Not included');
    const hard = await estimate([
      ['What could the tree hit if it fell?', 'Building'],
      ['Are there power lines near the tree?', 'Yes'],
      ['How can a crew get to the tree?', 'Through the house'],
      ['Grind out the stump too?', 'Yes'],
    ]);
    await expect(hard.element).toContainText('Stump grinding below ground level');
    await expect(hard.element).toContainText(/power lines/i);
    await visitor.screenshot({ path: test.info().outputPath('vision-results-390.png'), fullPage: true });
    // Same photo, same model reading: the site answers alone make the harder job dearer.
    expect(hard.price.min).toBeGreaterThan(easy.price.min);
    expect(hard.price.max).toBeGreaterThan(easy.price.max);
    expect(openai.requests.length).toBe(2);
    await visitor.context().close();
  });
});
