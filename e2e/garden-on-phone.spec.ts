import { fileURLToPath } from 'node:url';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { leadListSchema, funnelResponseSchema } from '../core/business';
import { LEAD_THANKS, OPERATOR_WORDS } from '../core/embed';
import { NO_VISIT_HEADING, SURVEYOR_WORDS, VISIT_HEADING } from '../core/homeowner-guide';
import { ownerCopiesSnippet } from './embed-owner';
import { openFileChooser } from './file-chooser';
import { expect, test } from './fixtures';
import { PHONE, polePhoto, tapEveryPoint } from './fixtures/pole-photo';
import { shownText } from './visitor-text';
import { hostChrome, startHostPage, stepAndPhotoBetweenBars } from './fixtures/host-page';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import type { HostSite } from './rig/host-site';

/*
 * The estimator on a homeowner's phone, end to end (docs/product.md, Embed widget): a 360 x 740
 * touch screen, the tree surgeon's page with a sticky header and a cookie banner fixed to the
 * bottom, the owner's iframe snippet. Two trees in one visit: the first by taps (a photo, the
 * sizes, "Sycamore" from the list a tap of the species box opens, the garden), the second
 * measured on its photo with a finger; a postcode, one request for both. The owner's lead,
 * e-mail, funnel and Business Admin carry both trees. At every step the visitor reads none of
 * the operator's or the trade's words, nothing scrolls sideways, and no tap reaches the banner.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/elm-beside-building.jpg', import.meta.url));
const VISITOR = { name: 'Rowan Gardener', phone: '07700 900789', postcode: 'LS6 2AB' };

let host: HostSite;
test.beforeAll(async () => {
  host = await startHostPage();
});
test.afterAll(async () => {
  await host.close();
});

/** The visitor's phone on the owner's page, the estimator inside the owner's iframe. */
interface Visit {
  visitor: Page;
  frame: FrameLocator;
  element: Locator;
}

/**
 * What must hold at every step: the visitor reads what the step is about (so the text checked is
 * really the estimator's) and none of the operator's or the trade's words; neither the page nor the
 * frame scrolls sideways; the banner took no press and its settings never opened. Then the step is
 * kept as the visitor's screen as it is, and as the whole page.
 */
async function checkStep({ visitor, frame, element }: Visit, step: string, says: string | RegExp) {
  const text = await shownText(element);
  expect(text, `${step}: the estimator's own words`).toMatch(says);
  expect(text, `${step}: the operator's words reach the visitor`).not.toMatch(OPERATOR_WORDS);
  expect(text, `${step}: the trade's working reaches the visitor`).not.toMatch(SURVEYOR_WORDS);
  const sideways = () => document.scrollingElement!.scrollWidth <= window.innerWidth;
  expect(await visitor.evaluate(sideways), `${step}: the host page scrolls sideways`).toBe(true);
  expect(await frame.locator(':root').evaluate(sideways), `${step}: the estimator scrolls sideways`).toBe(true);
  const chrome = await hostChrome(visitor);
  expect(chrome.bannerPresses, `${step}: a tap reached the cookie banner`).toBe(0);
  expect(chrome.settingsOpen, `${step}: the cookie settings opened`).toBe(false);
  await visitor.screenshot({ path: test.info().outputPath(`garden-${step}-screen.png`) });
  await keepScreenshot(visitor, `garden-${step}`);
}

/** One tap on one answer of one question (a group named by its words). */
async function tapAnswer(element: Locator, question: string, answer: string) {
  await element.getByRole('group', { name: question }).getByText(answer, { exact: true }).tap();
  await expect(element.getByRole('group', { name: question }).getByRole('radio', { name: new RegExp(`^${answer}`) })).toBeChecked();
}

/** "Choose a photo", and the phone's picker hands it the file. */
async function choosePhoto({ visitor, element }: Visit, path: string) {
  await (await openFileChooser(visitor, () => element.getByRole('button', { name: 'Choose a photo' }).tap())).setFiles(path);
  await expect(element.getByRole('group', { name: 'How tall is the tree?' })).toBeVisible();
}

/** "about £610 - £740 inc VAT" as pence. */
function pence(text: string): { min: number; max: number } {
  const [min, max] = [...text.matchAll(/£([\d,]+)/g)].map((m) => Number(m[1]!.replace(/,/g, '')) * 100);
  if (min === undefined) throw new Error(`no price in: ${text}`);
  return { min, max: max ?? min };
}

const GUIDE_PRICE = /^about £[\d,]+( - £[\d,]+)?( inc VAT)?$/;

test('a homeowner on a phone prices two trees (by taps, and measured on the photo) and sends one request; the owner gets both', async ({ page, context, browser }, testInfo) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Embed');
  expect(owner.snippet).toContain('<iframe');
  const url = host.setPage('/garden.html', 'Oakfield Tree Surgeons', owner.snippet);
  const phone = await browser.newContext(PHONE);
  const visitor = await phone.newPage();
  const cdp = await phone.newCDPSession(visitor);
  await visitor.goto(url);
  await visitor.locator('iframe').scrollIntoViewIfNeeded();
  const frame = visitor.frameLocator('iframe');
  const element = frame.locator('tree-estimator');
  const visit: Visit = { visitor, frame, element };
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  // A phone: the camera or the gallery, never a word of dragging.
  await expect(element.getByRole('button', { name: 'Take a photo' })).toBeVisible();
  await checkStep(visit, '1-upload', /A photo of your tree/);
  expect(await shownText(element)).not.toMatch(/\b(drag|drop)\b/i);

  // Tree 1, by taps.
  await choosePhoto(visit, PHOTO);
  await tapAnswer(element, 'How tall is the tree?', 'About a two-storey house');
  await tapAnswer(element, 'How thick is the trunk?', 'Up to a dinner plate');
  await element.getByRole('searchbox', { name: /What kind of tree is it/ }).tap();
  await tapAnswer(element, 'Kind of tree', 'Sycamore');
  await tapAnswer(element, 'What could the tree hit if it fell?', 'Fence or shed');
  await tapAnswer(element, 'Are there power lines near the tree?', 'Not sure');
  await tapAnswer(element, 'How can a crew get to the tree?', 'Side gate only');
  await tapAnswer(element, 'Grind out the stump too?', 'Yes');
  await checkStep(visit, '2-questions', /About your tree/);

  await element.getByRole('button', { name: 'Get my price' }).tap();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  await expect(element.locator('#guide-price')).toHaveText(GUIDE_PRICE);
  const first = pence(await element.locator('#guide-price').innerText());
  expect(first.min).toBeGreaterThan(0);
  await expect(element.locator('section[aria-labelledby="guide-price"]')).toContainText('Sycamore');
  // The next step, in the visitor's words.
  const nextStep = element.locator('section[aria-labelledby="next-step"]');
  await expect(nextStep).toBeVisible();
  expect([VISIT_HEADING, NO_VISIT_HEADING]).toContain(await element.locator('#next-step').innerText());
  await checkStep(visit, '3-results-1', /Your guide price/);

  // "Add another tree": a new photo, the garden's answers kept.
  await element.getByRole('button', { name: 'Add another tree' }).tap();
  await expect(element.getByRole('heading', { name: 'Tree 2' })).toBeVisible();
  await expect(element).toContainText('Your first tree is on your list.');
  await expect(element).toContainText('The questions about the garden keep your answers from before');
  await expect(element.getByRole('button', { name: 'Take a photo' })).toBeVisible();
  await expect(element.getByRole('button', { name: 'Choose a photo' })).toBeVisible();
  await checkStep(visit, '4-upload-2', /A photo of the next tree/);
  expect(await shownText(element)).not.toMatch(/\b(drag|drop)\b/i);

  // Tree 2, measured on its photo with a finger.
  await choosePhoto(visit, await polePhoto(testInfo.outputPath('pole.jpg')));
  await expect(element.getByRole('group', { name: 'Are there power lines near the tree?' }).getByRole('radio', { name: 'Not sure' })).toBeChecked();
  await expect(element.getByRole('group', { name: 'How can a crew get to the tree?' }).getByRole('radio', { name: 'Side gate only' })).toBeChecked();
  await element.getByRole('button', { name: 'Measure on the photo' }).tap();
  const photo = element.getByRole('application', { name: 'Your tree photo' });
  await expect(photo).toHaveAttribute('aria-busy', 'false');
  await expect(element.getByLabel('A door (2.0 m)')).toBeChecked();
  const step = element.getByTestId('measure-step');
  // The host scrolls the step line and the whole photo between its header and its banner.
  const inView = () => stepAndPhotoBetweenBars(visitor, step, photo);
  await expect.poll(inView).toBe(true);
  await visitor.screenshot({ path: testInfo.outputPath('garden-5-measuring-start-screen.png') });
  await tapEveryPoint(element, photo, cdp, inView);
  await expect(step).toContainText('All done');
  await expect(element.getByTestId('measured-height')).toContainText(/About 1[12]\.\d m \(\d+ ft\) tall/);
  await expect(element.getByTestId('measured-trunk')).toContainText(/About (4\d|5\d) cm \(\d+ in\) across/);
  await checkStep(visit, '5-measuring', /All done/);

  await element.getByRole('button', { name: 'Use these sizes' }).tap();
  await expect(element.getByText(/Measured on your photo: about 1[12]\.\d m \(\d+ ft\) tall/)).toBeVisible();
  // The size questions say the measured sizes are the ones used, with no tile shown as chosen.
  for (const question of ['How tall is the tree?', 'How thick is the trunk?']) {
    const group = element.getByRole('group', { name: question });
    await expect(group).toContainText('From your measuring: about');
    await expect(group.getByRole('radio', { checked: true })).toHaveCount(0);
  }
  await element.getByRole('button', { name: 'Get my price' }).tap();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  await expect(element.locator('#guide-price')).toHaveText(GUIDE_PRICE);
  const second = pence(await element.locator('#guide-price').innerText());
  await checkStep(visit, '6-results-2', /Tree 2/);

  // The list: both trees with their prices, and the total of the two.
  const list = element.getByRole('list', { name: 'Trees priced' });
  await list.scrollIntoViewIfNeeded();
  await expect(element.getByRole('heading', { name: '2 trees to quote' })).toBeVisible();
  const trees = list.getByRole('listitem');
  await expect(trees).toHaveCount(2);
  await expect(trees.nth(0)).toContainText('Tree 1');
  await expect(trees.nth(0)).toContainText('Sycamore');
  await expect(trees.nth(0)).toContainText(/about £[\d,]+/);
  await expect(trees.nth(1)).toContainText('Tree 2 (just priced)');
  await expect(trees.nth(1)).toContainText(/about 1[12](\.\d)? m/);
  await expect(trees.nth(1)).toContainText(/about £[\d,]+/);
  const total = pence(await element.getByTestId('trees-total').innerText());
  expect(total).toEqual({ min: first.min + second.min, max: first.max + second.max });
  await checkStep(visit, '7-list', /2 trees to quote/);

  // One request for both, with the postcode.
  await element.getByLabel('Name').fill(VISITOR.name);
  await element.getByLabel('Phone').fill(VISITOR.phone);
  await element.getByLabel('Postcode').fill('ls6 2ab');
  const since = Date.now();
  await element.getByRole('button', { name: 'Request a quote for 2 trees' }).tap();
  await expect(element.getByText(LEAD_THANKS)).toBeVisible();
  await checkStep(visit, '8-thanks', LEAD_THANKS);
  await phone.close();

  // The owner: one lead of two trees, the e-mail numbering them, the funnel counting them.
  const { businesses } = (await (await page.request.get('/api/businesses')).json()) as { businesses: { id: number; name: string }[] };
  const businessId = businesses.find((b) => b.name === owner.businessName)?.id;
  expect(businessId, owner.businessName).toBeDefined();
  const { leads } = leadListSchema.parse(await (await page.request.get(`/api/businesses/${businessId}/leads`)).json());
  expect(leads).toHaveLength(1);
  const [lead] = leads;
  expect(lead).toMatchObject({ name: VISITOR.name, phone: VISITOR.phone, postcode: VISITOR.postcode, outsideArea: false });
  expect(lead!.trees).toHaveLength(2);
  for (const tree of lead!.trees) expect(tree.estimate).not.toBeNull();

  const { mail } = await waitForMail(owner.email, { since, timeoutMs: 30_000 });
  for (const said of ['Tree 1 of 2', 'Tree 2 of 2', 'Total for 2 trees', VISITOR.postcode, VISITOR.phone]) expect(mail.text, said).toContain(said);

  const funnel = funnelResponseSchema.parse(await (await page.request.get(`/api/businesses/${businessId}/funnel?days=1`)).json());
  expect(funnel.days.at(-1)).toMatchObject({ leads: 1, trees: 2, photos: 2, estimates: 2 });

  // Business Admin on the owner's phone: the request with both trees.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/businesses');
  const card = page.getByRole('article', { name: owner.businessName });
  const request = card.getByRole('listitem').filter({ hasText: VISITOR.name }).first();
  await expect(request).toContainText('2 trees');
  await expect(request).toContainText(VISITOR.postcode);
  const items = request.getByRole('list', { name: `Trees in the request from ${VISITOR.name}` }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText('Tree 1 of 2');
  await expect(items.nth(0)).toContainText('Sycamore');
  await expect(items.nth(1)).toContainText('Tree 2 of 2');
  await expect(request).toContainText(/Total for 2 trees: £[\d,]+\.\d{2} - £[\d,]+\.\d{2}/);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth), 'Business Admin scrolls sideways at 390 px').toBe(true);
  await items.nth(0).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('garden-9-admin-390-screen.png') });
  await keepScreenshot(page, 'garden-9-admin-390');
});
