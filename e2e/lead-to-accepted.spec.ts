import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { jobResponseSchema, type Job } from '../core/jobs';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { waitForMail } from './mailbox';
import { grantCredits, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';
import { keepScreenshot } from './keep-screenshot';

/*
 * From a website lead to an accepted quote, all on a 390 px phone (docs/product.md, Jobs and
 * quotes): a visitor's quote request; the surgeon makes a job of it in Business Admin, adds a
 * second tree from History and an optional hedge line, sets and rounds the prices and sends; the
 * customer opens the link from the e-mail, ticks the hedge, asks for an early start and accepts
 * with their name; the surgeon sees Accepted with the right total and has the e-mail.
 */
const PHONE = { width: 390, height: 844 };
const VISITOR_PHOTO = fileURLToPath(new URL('./fixtures/photos/redbud-small-tree.jpg', import.meta.url));
const OWN_PHOTO = fileURLToPath(new URL('./fixtures/photos/bigleaf-maple.jpg', import.meta.url));
const CUSTOMER = 'Łukasz Wójcik';
const HEDGE = 'Reduce the beech hedge along the drive by 1 m';
const origin = () => ({ Origin: e2eEnv('baseURL') });

async function jobById(page: Page, id: string): Promise<Job> {
  const res = await page.request.get(`/api/jobs/${id}`);
  expect(res.status()).toBe(200);
  return jobResponseSchema.parse(await res.json()).job;
}

const pence = (pounds: string) => Math.round(Number(pounds) * 100);
const gbp = (p: number) => `£${(p / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

test("a visitor's lead becomes a job of two trees and an optional hedge, sent, and accepted by the customer on their phone", async ({ page, browser, playwright }) => {
  // Two analyses, two browsers, several page loads and axe: minutes on a loaded 2-core box.
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  grantCredits(owner.username, 40);
  const settings = await page.request.patch('/api/system-settings', {
    data: {
      hourlyRate: '90',
      pricing: { crewSize: 2, minimumCharge: '0', travel: '0', wastePerTonne: '0', stumpGrinding: '0', accessPlatform: '0', trafficManagement: '0', vatMode: 'inc' },
      companyProfile: { tradingName: 'Hazel & Holm Tree Surgery', phone: '01632 960 777', email: 'quotes@hazelholm.example', address: '2 Orchard Row\nLittle Snoring\nNR21 0AA', vatNumber: 'GB123456789', quoteValidityDays: 30 },
    },
    headers: origin(),
  });
  expect(settings.status(), await settings.text()).toBe(200);

  // The visitor on the business's site: an estimate of their tree and a quote request.
  const slug = `journey-${Date.now().toString(36)}`;
  const created = await page.request.post('/api/businesses', {
    data: { name: 'Hazel & Holm Tree Surgery', slug, hourlyRate: '90.00', aiInstructions: null, allowedOrigins: [], dailyCap: 50, accentColor: '#1d4ed8' },
    headers: origin(),
  });
  expect(created.status(), await created.text()).toBe(201);
  const customerEmail = `lukasz-${owner.username}@example.test`;
  const visitor = await playwright.request.newContext({ baseURL: e2eEnv('baseURL') });
  const analysed = await visitor.post(`/api/analyze-tree?businessSlug=${slug}`, {
    multipart: { image: { name: 'tree.jpg', mimeType: 'image/jpeg', buffer: await readFile(VISITOR_PHOTO) }, description: 'redbud, 6 inch trunk, 15 ft' },
    timeout: 30_000,
  });
  expect(analysed.status(), await analysed.text()).toBe(201);
  const { analysis, leadToken } = (await analysed.json()) as { analysis: { id: number }; leadToken: string };
  const lead = await visitor.post(`/api/businesses/${slug}/leads`, {
    data: { analysisId: analysis.id, leadToken, name: CUSTOMER, email: customerEmail, phone: '01632 960 123', postcode: 'LS6 2AB' },
  });
  expect(lead.status(), await lead.text()).toBe(201);
  await visitor.dispose();

  // The surgeon's own analysis of a second tree in the same garden, in History.
  const own = await page.request.post('/api/analyze-tree', {
    multipart: { image: { name: 'maple.jpg', mimeType: 'image/jpeg', buffer: await readFile(OWN_PHOTO) }, description: 'maple, 14 inch trunk, 38 ft tall' },
    headers: origin(),
    timeout: 30_000,
  });
  expect(own.status(), await own.text()).toBe(201);

  // Business Admin: the lead becomes a job with the visitor's tree and details.
  await page.goto('/admin/businesses');
  const leadRow = page.getByRole('listitem').filter({ hasText: CUSTOMER });
  await leadRow.getByRole('button', { name: `Make a job for ${CUSTOMER}` }).click();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  const id = page.url().split('/').at(-1)!;
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`for ${CUSTOMER}$`) })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveValue(customerEmail);
  const items = page.getByRole('list', { name: /^Items/ }).getByRole('listitem');
  await expect(items).toHaveCount(1);
  await keepScreenshot(page, 'journey-1-job-from-lead-390');

  // A second tree from History, into this job.
  await page.getByRole('link', { name: 'Add trees from History' }).click();
  await expect(page).toHaveURL(new RegExp(`/history\\?job=${id}$`));
  const boxes = page.getByRole('checkbox', { name: /^Tick for a job/ });
  await expect(boxes).toHaveCount(2);
  // Newest first: the surgeon's maple, then the visitor's redbud (already in the job).
  await boxes.first().check();
  await page.getByRole('button', { name: 'Add to a job' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to a job' });
  await expect(dialog.getByRole('radio', { name: new RegExp(`for ${CUSTOMER}`) })).toBeChecked();
  await keepScreenshot(page, 'journey-2-add-to-job-390');
  await dialog.getByRole('button', { name: 'Add to the job' }).click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${id}$`));
  await expect(items).toHaveCount(2);
  await expect(items.nth(1).getByRole('img', { name: /^Photo of the / })).toBeVisible();

  // An optional typed hedge line.
  const add = page.getByRole('region', { name: 'Add a line' });
  await add.getByLabel('What will be done').fill(HEDGE);
  await add.getByLabel('Price (£)').fill('173.50');
  await add.getByLabel('Optional: the customer chooses').check();
  await add.getByRole('button', { name: 'Add the line' }).click();
  await expect(items).toHaveCount(3);

  // Set the first tree's price, then round every price by the rule in Pricing (£5 unless changed).
  await items.nth(0).getByLabel('Price (£)').fill('612.34');
  await page.getByRole('button', { name: /^Round prices/ }).click();
  await expect(items.nth(0).getByLabel('Price (£)')).toHaveValue('610.00');
  await expect(items.nth(2).getByLabel('Price (£)')).toHaveValue('175.00');
  const priced = await jobById(page, id);
  for (const item of priced.items) expect(pence(item.price) % 500).toBe(0);
  const included = pence(priced.items[0]!.price) + pence(priced.items[1]!.price);
  expect(pence(priced.totals.gross)).toBe(included);
  await expect(page.getByRole('complementary', { name: 'Total and save' }).getByText(`${gbp(included)} inc VAT`, { exact: true })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'journey-3-priced-390');

  // Send to the lead's e-mail.
  const sentAt = Date.now();
  await expect(page.getByLabel('Send the quote to')).toHaveValue(customerEmail);
  await page.getByRole('button', { name: 'Send quote' }).click();
  await expect(page.getByText(`Version 1 sent to ${customerEmail}`)).toBeVisible();
  await expect(page.getByText('Sent', { exact: true }).first()).toBeVisible();

  // The customer's phone: the link from the e-mail, no account.
  const { mail } = await waitForMail(customerEmail, { since: sentAt, subject: /^Your quote from/ });
  expect(mail.subject).toBe(`Your quote from Hazel & Holm Tree Surgery: ${priced.reference}`);
  const link = /https?:\/\/\S+\/quote\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeTruthy();
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const phone = await context.newPage();
  await phone.goto(link!);
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText(priced.reference ? `Quote ${priced.reference}` : /Quote/);
  await expect(phone.getByText(CUSTOMER).first()).toBeVisible();
  await expect(phone.getByRole('img', { name: /^Photo of the / })).toHaveCount(2);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const totals = phone.locator('dl.totals');
  await expect(totals).toContainText(`Total including VAT${gbp(included)}`);
  await keepScreenshot(phone, 'journey-4-customer-opens-390');

  // Tick the hedge: the total changes; ask for an early start; accept with the full name.
  const withHedge = included + 17_500;
  await phone.getByLabel('Add this optional item').check();
  await expect(totals).toContainText(`Total including VAT${gbp(withHedge)}`);
  const accept = phone.getByRole('group', { name: 'Accept the quote' });
  await accept.getByLabel('Your full name').fill(CUSTOMER);
  await accept.getByLabel('I accept the terms of this quote').check();
  await accept.getByLabel('Start the work within my 14-day cancellation period').check();
  await expectNoSeriousAxeViolations(phone);
  await keepScreenshot(phone, 'journey-5-customer-accepts-390');
  const acceptedAt = Date.now();
  await accept.getByRole('button', { name: 'Accept the quote' }).click();
  const status = phone.getByRole('region', { name: 'Accepted' });
  await expect(status).toContainText(`Accepted by ${CUSTOMER} on`);
  await expect(status).toContainText(`Total: ${gbp(withHedge)} including VAT.`);
  await expect(status).toContainText('You asked for the work to start within your 14-day cancellation period.');
  await keepScreenshot(phone, 'journey-6-customer-accepted-390');
  // The customer's confirmation, with the cancellation notice on a durable medium.
  const confirmation = await waitForMail(customerEmail, { since: acceptedAt });
  expect(confirmation.mail.subject).toBe(`You accepted quote ${priced.reference} from Hazel & Holm Tree Surgery`);
  expect(confirmation.mail.text).toContain('cancel');
  await context.close();

  // The surgeon: Accepted, with the hedge in the total, locked; and the e-mail saying so.
  const news = await waitForMail(owner.email, { since: acceptedAt });
  expect(news.mail.subject).toBe(`Quote ${priced.reference} accepted by ${CUSTOMER}`);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(`for ${CUSTOMER}$`) })).toBeVisible();
  await expect(page.getByText('Accepted', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(`Accepted`, { exact: false }).filter({ hasText: `by ${CUSTOMER}` }).first()).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Total and save' }).getByText(`${gbp(withHedge)} inc VAT`, { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Accepted: locked' })).toBeVisible();
  const accepted = await jobById(page, id);
  expect(accepted.status).toBe('accepted');
  expect(pence(accepted.totals.gross)).toBe(withHedge);
  expect(accepted.acceptance).toMatchObject({ name: CUSTOMER, startEarly: true, optionalItemIds: [accepted.items[2]!.id] });
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'journey-7-owner-accepted-390');
});
