import { fileURLToPath } from 'node:url';
import type { BrowserContext, CDPSession, FrameLocator, Locator, Page } from '@playwright/test';
import { ownerCopiesSnippet } from './embed-owner';
import { expect, test } from './fixtures';
import { BANNER_HEIGHT, hostChrome, startHostPage } from './fixtures/host-page';
import { fingerTap } from './fixtures/pole-photo';
import { waitForMail } from './mailbox';
import type { HostSite } from './rig/host-site';

/*
 * A homeowner on a tree surgeon's page with a cookie banner fixed to its foot (docs/embedding.md):
 * taps on "Side gate only", the Postcode field and "Request a quote for 2 trees" once went to the
 * banner. Each control that takes focus scrolls just clear of the banner, with the script tag and
 * in the iframe; with the script tag the estimator keeps room at its foot so its send button can
 * be scrolled above the banner even at the page's end. Every tap is a finger's on a 390 px phone,
 * and the banner counts every press it gets. The thanks show the request's reference, and the
 * acknowledgement e-mail gives the same one.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

let host: HostSite;
test.beforeAll(async () => {
  host = await startHostPage();
});
test.afterAll(async () => {
  await host.close();
});

/** Scrolls the host page so `control`'s top sits 20 px below the banner's top edge: hidden, as a visitor scrolling past would leave it. */
async function hideUnderBanner(page: Page, control: Locator) {
  const box = (await control.boundingBox())!;
  const { banner } = await hostChrome(page);
  await page.evaluate((by) => window.scrollBy({ top: by, behavior: 'instant' }), box.y - (banner!.top + 20));
}

/** Focuses `control` (as the phone's "next field" or a screen reader would), then taps its centre with a finger; the box it was tapped at. */
async function focusThenTap(page: Page, cdp: CDPSession, control: Locator, box: Locator = control) {
  await hideUnderBanner(page, box);
  await control.focus();
  const { header, banner } = await hostChrome(page);
  await expect
    .poll(async () => {
      const b = (await box.boundingBox())!;
      return b.y >= header!.bottom && b.y + b.height <= banner!.top;
    }, { message: 'the control scrolls clear of the header and the banner' })
    .toBe(true);
  const b = (await box.boundingBox())!;
  await fingerTap(cdp, b.x + b.width / 2, b.y + b.height / 2);
}

async function visitorOn(context: BrowserContext, url: string) {
  const page = await context.newPage();
  await page.goto(url);
  return { page, cdp: await context.newCDPSession(page) };
}

async function priceTree(element: Locator, answers: boolean) {
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  await expect(element.getByRole('group', { name: 'How tall is the tree?' })).toBeVisible();
  await element.getByRole('group', { name: 'How tall is the tree?' }).getByText('Taller than a house', { exact: false }).first().click();
  if (answers) await element.getByRole('group', { name: 'Grind out the stump too?' }).getByText('Yes', { exact: true }).click();
  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
}

async function requestFlow(page: Page, cdp: CDPSession, scope: Locator | FrameLocator, email: string) {
  const element = scope.locator('tree-estimator');
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  await element.locator('input[type="file"]').setInputFiles(PHOTO);
  const pill = element.getByRole('group', { name: 'How can a crew get to the tree?' }).locator('label', { hasText: 'Side gate only' });
  const sideGate = pill.locator('input');
  await expect(sideGate).toBeAttached();
  // The pill's radio takes focus; the pill (its label) is what must be clear and what the finger taps.
  await focusThenTap(page, cdp, sideGate, pill);
  await expect(sideGate).toBeChecked();
  expect((await hostChrome(page)).bannerPresses).toBe(0);
  // The homeowner's words: a van, not a vehicle that can reach.
  await expect(element.getByRole('group', { name: 'How can a crew get to the tree?' }).getByLabel('A van can get to it')).toBeAttached();
  await element.getByRole('group', { name: 'How tall is the tree?' }).getByText('Taller than a house', { exact: false }).first().click();
  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  // The band chosen reads back as the band, not its middle.
  await expect(element.getByRole('heading', { name: 'Your tree' }).locator('xpath=ancestor::section[1]')).toContainText('8 to 15 m');
  await expect(element.getByText(/11\.\d m/)).toHaveCount(0);
  await element.getByRole('button', { name: 'Add another tree' }).click();
  await priceTree(element, true);

  await element.getByLabel('Name').fill('Jo Banner');
  await element.getByLabel('E-mail').fill(email);
  const postcode = element.getByLabel('Postcode');
  await focusThenTap(page, cdp, postcode);
  await expect(postcode).toBeFocused();
  await postcode.pressSequentially('LS6 2AB');
  expect((await hostChrome(page)).bannerPresses).toBe(0);

  const send = element.getByRole('button', { name: 'Request a quote for 2 trees' });
  await focusThenTap(page, cdp, send);
  const thanks = element.getByRole('status').filter({ hasText: 'Your reference' });
  await expect(thanks).toBeVisible();
  expect((await hostChrome(page)).bannerPresses).toBe(0);
  return (await element.getByTestId('lead-reference').innerText()).trim();
}

for (const snippet of ['Copy Script Tag', 'Copy Embed'] as const) {
  test(`${snippet === 'Copy Script Tag' ? 'script tag' : 'iframe'}: fields and the send button scroll clear of the cookie banner; the thanks and the e-mail give one reference`, async ({ page, context, browser }, testInfo) => {
    const owner = await ownerCopiesSnippet(page, context, host, snippet);
    const url = host.setPage(`/banner-${snippet === 'Copy Script Tag' ? 'script' : 'frame'}.html`, 'Oakfield Tree Surgeons', owner.snippet);
    const visitorContext = await browser.newContext(PHONE);
    const { page: visitor, cdp } = await visitorOn(visitorContext, url);
    const scope = snippet === 'Copy Script Tag' ? visitor.locator('body') : visitor.frameLocator('iframe');
    const email = `jo-${Date.now().toString(36)}@home.test`;
    const since = Date.now();
    const reference = await requestFlow(visitor, cdp, scope, email);
    expect(reference).toMatch(/^R-\d{6}$/);
    await visitor.screenshot({ path: testInfo.outputPath(`banner-thanks-${snippet === 'Copy Script Tag' ? 'script' : 'frame'}-390.png`) });

    if (snippet === 'Copy Script Tag') {
      // At the very end of the page the estimator's foot is above the banner: nothing of it is left under it.
      await visitor.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
      const foot = await visitor.locator('tree-estimator').evaluate((el) => el.shadowRoot!.querySelector('section > div')!.getBoundingClientRect().bottom);
      expect(foot).toBeLessThanOrEqual(844 - BANNER_HEIGHT);
    }
    await visitorContext.close();

    const { mail } = await waitForMail(email, { since });
    expect(mail.text).toContain(`Your reference: ${reference}`);
    expect(mail.text).toContain('Tree 2 (kind not sure), 8 to 15 m tall');
  });
}
