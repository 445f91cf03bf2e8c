import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { waitForMail } from './mailbox';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import { keepScreenshot } from './keep-screenshot';
import { ok } from './api-answer';

/*
 * The customer's quote page (docs/product.md, Jobs and quotes: the customer's page) in a real
 * Chromium on a 390 px phone: the surgeon sends a quote of a tree and an optional hedge; the
 * customer opens the link from the e-mail, ticks the hedge and sees the total change, asks for an
 * early start and accepts with their name, and sees the accepted quote. And the same answer with
 * JavaScript off, by the plain form.
 */
const PHOTO = fileURLToPath(new URL('./fixtures/photos/elm-beside-building.jpg', import.meta.url));
const PHONE = { width: 390, height: 844 };
const HEDGE = 'Reduce the beech hedge along the drive by 1 m';
const ORIGIN = () => ({ Origin: e2eEnv('baseURL') });

/** The surgeon's side over the API: a priced tree and an optional hedge, sent to `email`. Returns the job's id. */
async function sendQuote(request: APIRequestContext, email: string): Promise<number> {
  await ok(
    request.patch('/api/system-settings', {
      data: { companyProfile: { tradingName: 'Hazel & Holm Tree Surgery', phone: '01632 960 777', email: 'quotes@hazelholm.example', address: '2 Orchard Row\nLittle Snoring\nNR21 0AA', vatNumber: '', quoteValidityDays: 30 } },
      headers: ORIGIN(),
    }),
  );
  const { analysis } = await ok<{ analysis: { id: number } }>(
    request.post('/api/analyze-tree', {
      multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(PHOTO) }, description: 'oak, 16 inch trunk, 40 ft tall' },
      headers: ORIGIN(),
      timeout: 30_000,
    }),
    201,
  );
  const { job } = await ok<{ job: { id: number; items: { id: number }[] } }>(
    request.post('/api/jobs', { data: { analysisIds: [analysis.id], customer: { name: 'Mrs Jo Rowan', email, siteAddress: '12 Acacia Avenue\nLittle Snoring\nNR21 0AB' } }, headers: ORIGIN() }),
    201,
  );
  await ok(request.patch(`/api/jobs/${job.id}`, { data: { items: [{ id: job.items[0]!.id, price: '600' }] }, headers: ORIGIN() }));
  await ok(request.post(`/api/jobs/${job.id}/lines`, { data: { description: HEDGE, price: '175', optional: true }, headers: ORIGIN() }), 201);
  await ok(request.post(`/api/jobs/${job.id}/send`, { data: { email }, headers: ORIGIN() }));
  return job.id;
}

/** The link in the customer's e-mail. */
async function quoteLinkFor(email: string, since: number): Promise<string> {
  const { mail } = await waitForMail(email, { since });
  const link = /https?:\/\/\S+\/quote\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeTruthy();
  return link!;
}

/** The customer: a phone with no session of any account. */
async function customerPhone(browser: Browser, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, javaScriptEnabled });
  return context.newPage();
}

test('the customer opens the quote from the e-mail, ticks the optional hedge, asks for an early start and accepts', async ({ page, browser }) => {
  // Two browsers, an analysis and axe twice: 60 s is seen on a loaded 2-core box.
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 20);
  const email = `customer-${owner.username}@example.test`;
  const since = Date.now();
  const jobId = await sendQuote(page.request, email);
  const link = await quoteLinkFor(email, since);

  const phone = await customerPhone(browser);
  await phone.goto(link);
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText(/^Quote Q-\d{6}$/);
  await expect(phone.getByText('Hazel & Holm Tree Surgery').first()).toBeVisible();
  await expect(phone.getByRole('img', { name: 'Photo of the tree' })).toBeVisible();
  // Nothing wider than the phone.
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const totals = phone.locator('dl.totals');
  await expect(totals).toContainText('Total£600.00');
  await expect(phone.getByText('Optional items chosen')).toBeHidden();
  await keepScreenshot(phone, 'quote-page-390-open');

  // JavaScript on: ticking the hedge changes the total at once.
  await phone.getByLabel('Add this optional item').check();
  await expect(totals).toContainText('Optional items chosen£175.00');
  await expect(totals).toContainText('Total£775.00');
  await expect(phone.getByRole('group', { name: 'Accept the quote' })).toContainText('accept for £775.00');
  await phone.getByLabel('Add this optional item').uncheck();
  await expect(totals).toContainText('Total£600.00');
  await phone.getByLabel('Add this optional item').check();
  await expectNoSeriousAxeViolations(phone);

  const accept = phone.getByRole('group', { name: 'Accept the quote' });
  await accept.getByLabel('Your full name').fill('Jo Rowan');
  await accept.getByLabel('I accept the terms of this quote').check();
  await accept.getByLabel('Start the work within my 14-day cancellation period').check();
  await keepScreenshot(phone, 'quote-page-390-filled');
  await accept.getByRole('button', { name: 'Accept the quote' }).click();

  await expect(phone.getByRole('heading', { name: 'Accepted', level: 2 })).toBeVisible();
  await expect(phone).toHaveURL(link);
  const status = phone.getByRole('region', { name: 'Accepted' });
  await expect(status).toContainText('Accepted by Jo Rowan on');
  await expect(status).toContainText(`Optional items chosen: ${HEDGE} (£175.00).`);
  await expect(status).toContainText('Total: £775.00.');
  await expect(status).toContainText('You asked for the work to start within your 14-day cancellation period.');
  await expect(phone.getByRole('button', { name: 'Accept the quote' })).toHaveCount(0);
  await expectNoSeriousAxeViolations(phone);
  await keepScreenshot(phone, 'quote-page-390-accepted');

  const { job } = await ok<{ job: { status: string; totals: { gross: string } } }>(page.request.get(`/api/jobs/${jobId}`));
  expect(job.status).toBe('accepted');
  expect(job.totals.gross).toBe('775.00');
  await phone.context().close();
});

test('with JavaScript off, the plain form accepts with the hedge ticked and the server adds it to the total', async ({ page, browser }) => {
  // Two browsers, an analysis and axe twice: 60 s is seen on a loaded 2-core box.
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 20);
  const email = `nojs-${owner.username}@example.test`;
  const since = Date.now();
  const jobId = await sendQuote(page.request, email);
  const link = await quoteLinkFor(email, since);

  const phone = await customerPhone(browser, false);
  await phone.goto(link);
  await phone.getByLabel('Add this optional item').check();
  // No script: the total stays as sent until the server adds the hedge.
  await expect(phone.locator('dl.totals')).toContainText('Total£600.00');
  const accept = phone.getByRole('group', { name: 'Accept the quote' });
  await accept.getByLabel('Your full name').fill('Sam Rowan');
  // The browser's own check stops a submit without the tick; the server's message is tested over HTTP.
  await accept.getByLabel('I accept the terms of this quote').check();
  await accept.getByRole('button', { name: 'Accept the quote' }).click();
  await expect(phone.getByRole('heading', { name: 'Accepted', level: 2 })).toBeVisible();
  await expect(phone.getByRole('region', { name: 'Accepted' })).toContainText('Total: £775.00.');
  await keepScreenshot(phone, 'quote-page-390-nojs-accepted');
  const { job } = await ok<{ job: { status: string; totals: { gross: string } } }>(page.request.get(`/api/jobs/${jobId}`));
  expect(job.totals.gross).toBe('775.00');
  await phone.context().close();
});
