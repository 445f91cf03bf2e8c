import type { BrowserContext, CDPSession, FrameLocator, Locator, Page } from '@playwright/test';
import { ownerCopiesSnippet } from './embed-owner';
import { expect, test } from './fixtures';
import { fingerTap, onScreen, PHONE, polePhoto, TAPS, tapEveryPoint } from './fixtures/pole-photo';
import { hostChrome, startHostPage, stepAndPhotoBetweenBars } from './fixtures/host-page';
import { keepScreenshot } from './keep-screenshot';
import type { HostSite } from './rig/host-site';

/*
 * Measuring on the photo on a real tree surgeon's page (docs/product.md, Embed widget,
 * measuring): a 360 x 740 touch phone, a sticky site header and a cookie banner fixed to the
 * bottom. With the script tag, measuring opens full-screen above both; in the iframe, the host
 * page scrolls the photo and its step line into the part of the screen the header and banner
 * leave. Every tap is a finger's (a contact area, as a phone reports it), including taps on the
 * photo's very top and bottom rows; no tap reaches the banner, and no point is lost.
 */
let host: HostSite;
test.beforeAll(async () => {
  host = await startHostPage();
});
test.afterAll(async () => {
  await host.close();
});

async function visitorOn(browserContext: BrowserContext): Promise<{ visitor: Page; cdp: CDPSession }> {
  const visitor = await browserContext.newPage();
  return { visitor, cdp: await browserContext.newCDPSession(visitor) };
}

/** The estimator's own parts, in the element or in the frame. */
async function startMeasuring(scope: Locator | FrameLocator, photoPath: string) {
  const element = scope.locator('tree-estimator');
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  await element.locator('input[type="file"]').setInputFiles(photoPath);
  const open = element.getByRole('button', { name: 'Measure on the photo' });
  await open.tap();
  const photo = element.getByRole('application', { name: 'Your tree photo' });
  await expect(photo).toHaveAttribute('aria-busy', 'false');
  await element.getByLabel('A door (2.0 m)').check();
  return { element, photo, step: element.getByTestId('measure-step') };
}

async function expectSizes(element: Locator) {
  // The taps beside the top and bottom rows are points on those rows: the tree is the photo's height.
  const top = element.getByTestId('measure-point-height-top');
  const base = element.getByTestId('measure-point-height-base');
  await expect(top).toHaveAttribute('style', /top: 0%/);
  await expect(base).toHaveAttribute('style', /top: 100%/);
  // 12 m and 0.5 m, a few pixels either way.
  await expect(element.getByTestId('measured-height')).toContainText(/About 1[12]\.\d m \(\d+ ft\) tall/);
  await expect(element.getByTestId('measured-trunk')).toContainText(/About (4\d|5\d) cm \(\d+ in\) across/);
}

test('script tag on a phone: measuring opens full-screen above the sticky header and the cookie banner; edge taps keep every point', async ({ page, context, browser }, testInfo) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Script Tag');
  const url = host.setPage('/script.html', 'Oakfield Tree Surgeons', owner.snippet);
  const browserContext = await browser.newContext(PHONE);
  const { visitor, cdp } = await visitorOn(browserContext);
  await visitor.goto(url);
  const { element, photo, step } = await startMeasuring(visitor.locator('body'), await polePhoto(testInfo.outputPath('pole.jpg')));

  const dialog = element.locator('dialog');
  await expect(dialog).toBeVisible();
  // The whole viewport, in the top layer: nothing of the host's page is on top of it.
  expect(await dialog.boundingBox()).toEqual({ x: 0, y: 0, width: 360, height: 740 });
  // The shadow root's styles reach the dialog and its ::backdrop.
  expect(await dialog.evaluate((d) => [getComputedStyle(d).backgroundColor, getComputedStyle(d, '::backdrop').backgroundColor])).toEqual([
    'rgb(255, 255, 255)',
    expect.stringMatching(/^(oklab|oklch|rgba|color)\(.*\/ 0\.7\)$|^rgba\(.*, 0\.7\)$/),
  ]);
  // The visitor's screen as it is (a full-page picture would stretch the viewport under the dialog).
  await visitor.screenshot({ path: testInfo.outputPath('measure-host-script-open.png') });

  for (const [index, tap] of TAPS.entries()) {
    await expect(step).toContainText(`Step ${index + 1} of 6`);
    await photo.scrollIntoViewIfNeeded();
    const at = await onScreen(photo, tap);
    // The step line is on screen, not under anything, and so is the point about to be tapped.
    const stepBox = (await step.boundingBox())!;
    expect(stepBox.y).toBeGreaterThanOrEqual(0);
    const topmost = (px: number, py: number) =>
      visitor.evaluate(([px, py]) => {
        const root = document.querySelector('tree-estimator')!.shadowRoot!;
        return root.elementFromPoint(px!, py!)?.closest('[data-testid]')?.getAttribute('data-testid') ?? null;
      }, [px, py]);
    expect(await topmost(stepBox.x + 4, stepBox.y + stepBox.height / 2)).toBe('measure-step');
    expect(await topmost(at.x, at.y)).toBe(tap.past ? 'measure-photo-box' : 'measure-photo');
    await fingerTap(cdp, at.x, at.y);
    await expect(element.locator('[data-testid^="measure-point-"]')).toHaveCount(index + 1);
  }
  await expect(step).toContainText('All done');
  await expectSizes(element);
  await visitor.screenshot({ path: testInfo.outputPath('measure-host-script-done.png') });

  // Done: back to the questions, the points kept, focus on the button that opened it.
  await dialog.getByRole('button', { name: 'Done' }).tap();
  await expect(dialog).toHaveCount(0);
  await expect(element.getByText(/Measured on your photo: about 1[12]\.\d m \(\d+ ft\) tall, a trunk about \d+ cm/)).toBeVisible();
  await expect(element.getByRole('button', { name: 'Measure again' })).toBeFocused();
  // Opened again, the six points are still there; Escape closes it the same way.
  await element.getByRole('button', { name: 'Measure again' }).tap();
  const points = element.locator('[data-testid^="measure-point-"]');
  await expect(points).toHaveCount(6);
  // "Start again" is never final: "Undo last tap" right after it brings every point back.
  await dialog.getByRole('button', { name: 'Start again' }).tap();
  await expect(points).toHaveCount(0);
  await expect(step).toContainText('Step 1 of 6');
  await dialog.getByRole('button', { name: 'Undo last tap' }).tap();
  await expect(points).toHaveCount(6);
  await expect(step).toContainText('All done');
  await visitor.keyboard.press('Escape');
  await expect(element.locator('dialog')).toHaveCount(0);
  await expect(element.getByRole('button', { name: 'Measure again' })).toBeFocused();
  await keepScreenshot(visitor, 'measure-host-script-closed');

  const chrome = await hostChrome(visitor);
  expect(chrome.settingsOpen).toBe(false);
  expect(chrome.bannerPresses).toBe(0);
  await browserContext.close();
});

test('iframe on a phone: the host scrolls the photo and its step line between the sticky header and the cookie banner; edge taps keep every point', async ({ page, context, browser }, testInfo) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Embed');
  const url = host.setPage('/iframe.html', 'Oakfield Tree Surgeons', owner.snippet);
  const browserContext = await browser.newContext(PHONE);
  const { visitor, cdp } = await visitorOn(browserContext);
  await visitor.goto(url);
  await visitor.locator('iframe').scrollIntoViewIfNeeded();
  const { element, photo, step } = await startMeasuring(visitor.frameLocator('iframe'), await polePhoto(testInfo.outputPath('pole.jpg')));
  await expect(element.locator('dialog')).toHaveCount(0);
  // Once more from the top of the page, the door already chosen: only the host's own scrolling
  // can bring the photo, which lies below the fold under the button, into view.
  await element.getByRole('button', { name: 'Close measuring' }).tap();
  await visitor.evaluate(() => window.scrollTo(0, 0));
  const reopen = element.getByRole('button', { name: 'Measure on the photo' });
  await reopen.scrollIntoViewIfNeeded();
  const scrolledFrom = await visitor.evaluate(() => window.scrollY);
  await reopen.tap();
  await expect(photo).toHaveAttribute('aria-busy', 'false');

  // The host scrolled by itself: the step line and the whole photo lie between the header and the banner.
  const inView = () => stepAndPhotoBetweenBars(visitor, step, photo);
  await expect.poll(inView).toBe(true);
  expect(await visitor.evaluate(() => window.scrollY)).toBeGreaterThan(scrolledFrom);
  // The visitor's screen as it is (a full-page picture would resize the viewport and move the page).
  await visitor.screenshot({ path: testInfo.outputPath('measure-host-iframe-open.png') });

  // No scrolling by the test: the taps land where the host put the photo.
  await tapEveryPoint(element, photo, cdp, inView);
  await expect(step).toContainText('All done');
  await expectSizes(element);
  await visitor.screenshot({ path: testInfo.outputPath('measure-host-iframe-done.png') });
  await keepScreenshot(visitor, 'measure-host-iframe-done');

  await element.getByRole('button', { name: 'Use these sizes' }).tap();
  await expect(element.getByText(/Measured on your photo: about 1[12]\.\d m \(\d+ ft\) tall/)).toBeVisible();
  const chrome = await hostChrome(visitor);
  expect(chrome.settingsOpen).toBe(false);
  expect(chrome.bannerPresses).toBe(0);
  await browserContext.close();
});
