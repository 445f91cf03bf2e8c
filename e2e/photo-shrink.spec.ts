import type { Page, Request } from '@playwright/test';
import sharp from 'sharp';
import type { AnalysisList } from '../core/analysis';
import { SEND_MAX_EDGE } from '../core/photo-shrink';
import { STORED_MAX_EDGE } from '../server/images/normalise';
import { readGpsLatitude } from '../testing/images';
import { expect, test } from './fixtures';
import { grantCredits, signedInAccount } from './operator';
import { distanceFromUpright, PHONE, phonePhoto } from './phone-photo';
import { e2eEnv } from './rig/env';

/*
 * The phone's photo is made smaller on the device before it is sent (docs/product.md, The photo on
 * its way): a 12-megapixel portrait photo, stored sideways with EXIF orientation 6 and the GPS
 * position it was taken at, is chosen in the widget and in the dashboard. What reaches the server,
 * read from the request itself, is a JPEG at the edge the browser sends (1024 px, the model's own,
 * within the server's stored edge, which stays the guard), upright, with no metadata at all; and a
 * price still shows. Chromium's copy is clean enough for the server to keep as it came
 * (server/images/clean-jpeg.ts): the owner's stored photo is the sent bytes, unchanged.
 */

interface Sent {
  name: string;
  bytes: Buffer;
}

/** The image part of a multipart POST /api/analyze-tree, as the browser sent it. */
function imageOf(request: Request): Sent {
  const body = request.postDataBuffer();
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(request.headers()['content-type'] ?? '');
  if (!body || !boundary) throw new Error('the analysis was not sent as multipart');
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  for (let start = body.indexOf(delimiter.subarray(2)); start >= 0; ) {
    const next = body.indexOf(delimiter, start + delimiter.length - 2);
    if (next < 0) break;
    const part = body.subarray(start + delimiter.length, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('latin1');
    if (/name="image"/.test(headers)) {
      return { name: /filename="([^"]*)"/.exec(headers)?.[1] ?? '', bytes: Buffer.from(part.subarray(headerEnd + 4)) };
    }
    start = next + 2;
  }
  throw new Error('no image part in the analysis request');
}

/** Lets the page's analysis requests through, keeping the image of the last one as it was sent. */
async function watchUploads(page: Page): Promise<() => Sent> {
  let sent: Sent | undefined;
  await page.route(
    (url) => url.pathname === '/api/analyze-tree',
    async (route) => {
      if (route.request().method() === 'POST') sent = imageOf(route.request());
      await route.continue();
    },
  );
  return () => {
    if (!sent) throw new Error('no analysis was sent');
    return sent;
  };
}

async function expectShrunkUprightAndBare(sent: Sent, chosen: Buffer) {
  expect(SEND_MAX_EDGE, 'the browser sends no more than the long edge the server stores').toBeLessThanOrEqual(STORED_MAX_EDGE);
  const meta = await sharp(sent.bytes).metadata();
  expect(meta.format).toBe('jpeg');
  // Upright: the portrait shape the phone showed (3024 x 4032), not the sideways 4032 x 3024 stored.
  expect({ width: meta.width, height: meta.height }).toEqual({
    width: Math.round((PHONE.width * SEND_MAX_EDGE) / PHONE.height),
    height: SEND_MAX_EDGE,
  });
  const { upright, turned } = await distanceFromUpright(sent.bytes);
  expect(upright, 'the picture itself is the right way up').toBeLessThan(turned / 4);
  // No metadata: no EXIF (so no GPS, camera or orientation), no XMP, no ICC-borne text.
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.orientation ?? 1).toBe(1);
  expect(await readGpsLatitude(sent.bytes)).toBeUndefined();
  expect(sent.bytes.includes('TestPhone')).toBe(false);
  // The original never left: what went is a fraction of what was chosen.
  expect(sent.bytes.length).toBeLessThan(chosen.length / 2);
  expect(sent.name).toBe('IMG_0042.jpg');
}

test('a 12-megapixel phone photo chosen in the widget is sent at 1024 px, upright and without its GPS, and priced', async ({ page, browser }) => {
  // Generous: the 12 MP photo is made in the test and a loaded two-core box makes sign-up alone take seconds.
  const chosen = await phonePhoto();
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  const businessName = `Shrinking Trees ${Date.now().toString(36)}`;
  const slug = businessName.toLowerCase().replace(/ /g, '-');
  const created = await page.request.post('/api/businesses', {
    data: { name: businessName, slug, hourlyRate: '40.00', aiInstructions: null },
    headers: { Origin: e2eEnv('baseURL') },
  });
  expect(created.status(), await created.text()).toBe(201);

  const visitor = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  const sent = await watchUploads(visitor);
  await visitor.goto(`/embed/${slug}`);
  const element = visitor.locator('tree-estimator');
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();
  // Drawing 12 MP on a loaded two-core box can keep the page busy for seconds: more than the usual 10 s to choose.
  await element.locator('input[type="file"]').setInputFiles({ name: 'IMG_0042.JPG', mimeType: 'image/jpeg', buffer: chosen });
  // The visitor still sees the photo they chose, by its own name.
  await expect(element.getByRole('button', { name: 'Remove IMG_0042.JPG' })).toBeVisible();
  await element.getByRole('button', { name: 'Get my price' }).click();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
  await expect(element.locator('#guide-price')).toContainText(/£[\d,]+/);

  await expectShrunkUprightAndBare(sent(), chosen);
  await visitor.context().close();
});

test('the same photo chosen in the dashboard is previewed and sent small, upright and bare, and analysed', async ({ page }) => {
  // Generous: the 12 MP photo is made in the test and a loaded two-core box makes sign-up alone take seconds.
  const chosen = await phonePhoto();
  const account = await signedInAccount(page);
  grantCredits(account.username, 10);
  const sent = await watchUploads(page);
  await page.goto('/');
  await page.getByLabel('Tree photo', { exact: true }).setInputFiles({ name: 'IMG_0042.JPG', mimeType: 'image/jpeg', buffer: chosen });
  // The preview names the copy that will be sent, and its size: well under the 2.5 MB chosen.
  await expect(page.getByText('IMG_0042.jpg', { exact: true })).toBeVisible();
  await expect(page.getByText(/^\d+ KB$/)).toBeVisible();
  await expect(page.getByText('Preparing photo…')).toHaveCount(0);
  await page.getByLabel('Project Details').fill('elm, 20 inch trunk, 50 ft tall');
  await page.getByRole('button', { name: 'Begin Professional Analysis' }).click();
  await expect(page.getByRole('heading', { name: 'Analysis Results' })).toBeVisible();

  const copy = sent();
  await expectShrunkUprightAndBare(copy, chosen);
  // Kept as it came: the owner's photo of the analysis is the browser's copy, byte for byte.
  const history = await page.request.get('/api/analyses');
  const [latest] = ((await history.json()) as AnalysisList).analyses;
  const stored = await page.request.get(latest!.imageUrl);
  expect(stored.status()).toBe(200);
  expect(Buffer.from(await stored.body()).equals(copy.bytes), 'the stored photo is the copy sent').toBe(true);
});
