import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';

/*
 * Tree details and measuring on the photo (docs/analysis.md, Tree details, sizes and species), in a
 * real Chromium against the real server and its local (no AI key) estimator: a generated photo
 * holding a 2 m reference bar and a 12 m pole 0.5 m wide at 100 px a metre; the user taps them
 * and the estimate is priced from what was measured. Without any size, the answer is the
 * "needs details" stage and no credits are taken.
 */
const PX_PER_M = 100;
const WIDTH = 1200;
const HEIGHT = 1600;
const GROUND_Y = 1500;
/** The reference bar: 2 m tall, standing on the ground at x = 200. */
const BAR = { x: 200, top: GROUND_Y - 2 * PX_PER_M, bottom: GROUND_Y };
/** The pole: 12 m tall, 0.5 m wide, centred on x = 700. */
const POLE = { left: 700 - 0.25 * PX_PER_M, right: 700 + 0.25 * PX_PER_M, top: GROUND_Y - 12 * PX_PER_M, base: GROUND_Y };
const CHEST_Y = GROUND_Y - 1.3 * PX_PER_M;

/**
 * A mostly green, textured "foliage" photo (so the server's vegetation and blur checks pass)
 * with the bar (white and red bands) and the pole (bark brown) drawn to the same scale.
 */
async function testPhoto(path: string): Promise<string> {
  const data = Buffer.alloc(WIDTH * HEIGHT * 3);
  let seed = 7;
  const noise = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      const n = noise();
      let rgb = y >= GROUND_Y ? [90 + n * 40, 120 + n * 50, 50 + n * 30] : [30 + n * 60, 90 + n * 90, 25 + noise() * 40];
      if (x >= POLE.left && x < POLE.right && y >= POLE.top && y < POLE.base) rgb = [110 + n * 20, 80 + n * 15, 55 + n * 10];
      if (Math.abs(x - BAR.x) < 10 && y >= BAR.top && y < BAR.bottom) {
        rgb = Math.floor((y - BAR.top) / 50) % 2 === 0 ? [240, 240, 240] : [220, 30, 30];
      }
      data.set(rgb.map(Math.round), (y * WIDTH + x) * 3);
    }
  }
  await sharp(data, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toFile(path);
  return path;
}

/** Taps a point given in the photo's natural pixels, wherever the photo is drawn now. */
async function tap(page: Page, photo: Locator, x: number, y: number) {
  // Until the photo has its size the frame has a placeholder's shape and ignores taps.
  await expect(photo).toHaveAttribute('aria-busy', 'false');
  const box = await photo.boundingBox();
  if (!box) throw new Error('the measuring photo is not on screen');
  await page.mouse.click(box.x + (x / WIDTH) * box.width, box.y + (y / HEIGHT) * box.height);
}

/** The first number in a text, e.g. 12 from "12.0 m (39 ft)". */
async function numberIn(locator: Locator): Promise<number> {
  const text = (await locator.textContent()) ?? '';
  const match = /(\d+(?:\.\d+)?)/.exec(text);
  if (!match) throw new Error(`no number in "${text}"`);
  return Number(match[1]);
}

async function choosePhoto(page: Page, path: string) {
  await page.goto('/');
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles(path);
  await expect(page.getByRole('heading', { name: 'Tree details (optional)' })).toBeVisible();
}

test('measure a 12 m pole against a 2 m bar on the photo, and the estimate uses the measurement', async ({ page }, testInfo) => {
  // An axe pass, a full analysis and a generated photo: about 20 s alone, more beside another worker.
  const account = await signedInAccount(page);
  grantCredits(account.username, 20);
  // Tall enough that the whole photo shows at a scale where a tap is accurate to a few pixels.
  await page.setViewportSize({ width: 1280, height: 1400 });
  await choosePhoto(page, await testPhoto(testInfo.outputPath('pole.jpg')));
  await expect(page.getByTestId('credits-badge')).toContainText('20 credits');

  await page.getByRole('button', { name: 'Measure on the photo' }).click();
  await expect(page.getByRole('button', { name: 'Measure on the photo' })).toHaveAttribute('aria-expanded', 'true');
  await page.getByLabel('Something else').check();
  await page.getByLabel('Reference length (m)').fill('2');
  await expectNoSeriousAxeViolations(page, 'section[aria-labelledby="upload-stage-title"]');

  const photo = page.getByTestId('measure-photo');
  await photo.scrollIntoViewIfNeeded();
  const step = page.getByTestId('measure-step');
  await expect(step).toContainText('Step 1 of 6: Tap the top of your reference');
  await tap(page, photo, BAR.x, BAR.top);
  await expect(step).toContainText('Step 2 of 6');
  await tap(page, photo, BAR.x, BAR.bottom);
  await expect(step).toContainText('Step 3 of 6: Tap the very top of the tree');
  await tap(page, photo, 700, POLE.top);
  await tap(page, photo, 700, POLE.base);
  await expect(step).toContainText('Step 5 of 6');
  await tap(page, photo, POLE.left, CHEST_Y);
  await tap(page, photo, POLE.right, CHEST_Y);
  await expect(step).toContainText('All points placed');

  // 12 m within 5 %, 0.5 m within 10 %, both units shown.
  const height = page.getByTestId('measured-height');
  await expect(height).toContainText(/m \(\d+ ft\)/);
  expect(await numberIn(height)).toBeGreaterThanOrEqual(11.4);
  expect(await numberIn(height)).toBeLessThanOrEqual(12.6);
  const trunk = page.getByTestId('measured-trunk');
  await expect(trunk).toContainText(/cm \(\d+ in\)/);
  expect(await numberIn(trunk)).toBeGreaterThanOrEqual(45);
  expect(await numberIn(trunk)).toBeLessThanOrEqual(55);

  // The three lines are drawn over the photo, each labelled.
  const tool = page.getByTestId('measure-tool');
  await expect(tool.locator('svg [data-line]')).toHaveCount(3);
  await expect(tool.getByTestId('measure-label-reference')).toHaveText('Reference 2 m');
  await expect(tool.getByTestId('measure-label-height')).toContainText(/^Height 1[12]\.\d m$/);
  await expect(tool.getByTestId('measure-label-trunk')).toContainText(/^Trunk \d+ cm$/);
  await expect(page.getByTestId('tree-details')).toContainText(/Measured: height 1[12]\.\d m \(\d+ ft\), trunk \d+ cm \(\d+ in\)/);

  // Redo one line, then measure it again.
  await page.getByRole('button', { name: 'Redo trunk' }).click();
  await expect(step).toContainText('Step 5 of 6');
  await expect(tool.locator('svg [data-line]')).toHaveCount(2);
  await tap(page, photo, POLE.left, CHEST_Y);
  await tap(page, photo, POLE.right, CHEST_Y);
  await expect(tool.locator('svg [data-line]')).toHaveCount(3);

  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
  await expect(page.getByRole('heading', { name: 'Analysis Results' })).toBeVisible();
  const results = page.getByRole('main');
  // 12 m is 39.4 ft and 0.5 m is 19.7 in; a few pixels either way moves them by one. Shown in
  // the account's metric with feet and inches in brackets.
  const resultHeight = results.getByRole('definition').filter({ hasText: /^[\d.]+ m \(\d+ ft\)$/ });
  const feet = Number(/\((\d+) ft\)/.exec((await resultHeight.textContent()) ?? '')?.[1]);
  expect(feet).toBeGreaterThanOrEqual(38);
  expect(feet).toBeLessThanOrEqual(40);
  const resultTrunk = results.getByRole('definition').filter({ hasText: /^\d+ cm \(\d+ in\)$/ });
  const inches = Number(/\((\d+) in\)/.exec((await resultTrunk.textContent()) ?? '')?.[1]);
  expect(inches).toBeGreaterThanOrEqual(19);
  expect(inches).toBeLessThanOrEqual(21);
  await expect(results.getByTestId('source-height')).toHaveText('Source: Measured on your photo');
  await expect(results.getByTestId('source-diameter')).toHaveText('Source: Measured on your photo');
  await expect(results.locator('svg [data-line]')).toHaveCount(3);
  await expect(results.getByTestId('measure-label-height')).toBeVisible();
  await expect(results).toContainText('Worked out from the details and measurements you gave');
  await expect(page.getByTestId('credits-badge')).toContainText('10 credits');
});

test('a photo with no size from anywhere asks for one, takes no credits, and goes back to Tree details with everything kept', async ({ page }, testInfo) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 20);
  await choosePhoto(page, await testPhoto(testInfo.outputPath('pole.jpg')));
  await page.getByLabel('Project Details').fill('Needs to come down before winter');
  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();

  const stage = page.getByTestId('needs-details');
  await expect(page.getByRole('heading', { name: 'More Details Needed' })).toBeFocused();
  await expect(stage).toContainText("Add the tree's height and trunk size, or measure them on the photo");
  await expect(stage).toContainText('No credits were used');
  await expect(page.getByText('Analysis Failed')).toHaveCount(0);
  await expect(page.getByTestId('credits-badge')).toContainText('20 credits');
  await expectNoSeriousAxeViolations(page, 'main');

  await page.getByRole('button', { name: 'Add Tree Details' }).click();
  await expect(page.getByRole('heading', { name: 'Tree details (optional)' })).toBeFocused();
  await expect(page.getByText('pole.jpg')).toBeVisible();
  await expect(page.getByLabel('Project Details')).toHaveValue('Needs to come down before winter');
  await expect(page.getByTestId('credits-badge')).toContainText('20 credits');
});

test('species, sizes and measuring work from the keyboard', async ({ page }, testInfo) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  await choosePhoto(page, await testPhoto(testInfo.outputPath('pole.jpg')));

  const species = page.getByRole('combobox', { name: 'Species' });
  await species.fill('leyland');
  await expect(species).toHaveAttribute('aria-expanded', 'true');
  const list = page.getByRole('listbox', { name: 'Species' });
  await expect(list.getByRole('option', { name: /Leyland cypress/ })).toHaveAttribute('aria-selected', 'true');
  await species.press('ArrowUp');
  await expect(list.getByRole('option', { name: /Not sure/ })).toHaveAttribute('aria-selected', 'true');
  await species.press('ArrowDown');
  await species.press('Enter');
  await expect(species).toHaveValue('Leyland cypress');
  await expect(species).toHaveAttribute('aria-expanded', 'false');
  await species.fill('scots p');
  await species.press('Escape');
  await expect(species).toHaveValue('Leyland cypress');

  // A typed height in metres with its conversion; a trunk band; a typed size wins over a measured one.
  await page.getByLabel('Height', { exact: true }).fill('9');
  const heightUnit = page.getByRole('group', { name: 'Height unit' });
  await heightUnit.getByRole('radio', { name: 'ft' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(heightUnit.getByRole('radio', { name: 'm' })).toBeChecked();
  await expect(page.getByTestId('tree-details')).toContainText('About 30 ft.');
  await page.getByLabel('Or pick a trunk size').selectOption({ label: 'Up to a dinner plate (7 to 27 cm)' });

  await page.getByRole('button', { name: 'Measure on the photo' }).click();
  const photo = page.getByTestId('measure-photo');
  // Keys wait for the photo's size (on a busy box the decode can take a moment).
  await expect(photo).toHaveAttribute('aria-busy', 'false');
  await photo.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('measure-step')).toContainText('Step 2 of 6: Tap the bottom of the door');
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('measured-reference')).toHaveText('A door (2.0 m)');
  const top = page.getByRole('button', { name: 'Reference top' });
  const before = await top.boundingBox();
  await top.focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  const after = await top.boundingBox();
  expect(after!.y).toBeLessThan(before!.y);
  await photo.focus();
  await page.keyboard.press('Enter');
  for (let i = 0; i < 8; i += 1) await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('measured-height')).toContainText(/m \(\d+ ft\)/);
  await expect(page.getByTestId('measure-tool')).toContainText('You typed a height: the typed one is used.');
});

test('Tree details and the measuring tool fit a 375 px phone', async ({ page }, testInfo) => {
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  await page.setViewportSize({ width: 375, height: 740 });
  await choosePhoto(page, await testPhoto(testInfo.outputPath('pole.jpg')));
  await page.getByRole('combobox', { name: 'Species' }).fill('o');
  await page.getByRole('button', { name: 'Measure on the photo' }).click();
  await page.getByLabel('Something else').check();
  const photo = page.getByTestId('measure-photo');
  await photo.scrollIntoViewIfNeeded();
  await tap(page, photo, BAR.x, BAR.top);
  await tap(page, photo, BAR.x, BAR.bottom);
  await tap(page, photo, 700, POLE.top);
  await tap(page, photo, 700, POLE.base);
  await expect(page.getByTestId('measure-tool').locator('svg [data-line]')).toHaveCount(2);
  const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(overflow).toBeLessThanOrEqual(375);
  await expectNoSeriousAxeViolations(page, 'section[aria-labelledby="upload-stage-title"]');
});
