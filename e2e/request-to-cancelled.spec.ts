import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { jobResponseSchema, type Job } from '../core/jobs';
import { ownerCopiesSnippet } from './embed-owner';
import { expectNoSeriousAxeViolations } from './axe';
import { openFileChooser } from './file-chooser';
import { expect, test } from './fixtures';
import { hostChrome, startHostPage } from './fixtures/host-page';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { e2eEnv } from './rig/env';
import type { HostSite } from './rig/host-site';

/*
 * A homeowner's request to a cancelled agreement, on 390 px phones (docs/product.md, Jobs and quotes): three trees priced
 * on the surgeon's page (its cookie banner fixed at the foot), their sizes "Not sure"; the
 * acknowledgement e-mail from the business with the request's reference; the job made from the
 * request titled by the trees' kinds and carrying the stump grinding asked for; sent, accepted,
 * then cancelled online from the customer's page within the 14 days; the surgeon sees Cancelled
 * and both sides have their e-mail, each with Reply-To the other.
 */
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const PHOTOS = ['elm-beside-building.jpg', 'redbud-small-tree.jpg', 'bigleaf-maple.jpg'].map((name) => fileURLToPath(new URL(`./fixtures/photos/${name}`, import.meta.url)));
const VISITOR = { name: 'Robin Hart', phone: '07700 900456', postcode: 'LS6 2AB' };
const PROFILE_EMAIL = 'office@oakfield.example';
const origin = () => ({ Origin: e2eEnv('baseURL') });

let host: HostSite;
test.beforeAll(async () => {
  host = await startHostPage();
});
test.afterAll(async () => {
  await host.close();
});

async function tapAnswer(element: Locator, question: string, answer: string) {
  const group = element.getByRole('group', { name: question });
  await group.getByText(answer, { exact: true }).first().tap();
  await expect(group.getByRole('radio', { name: new RegExp(`^${answer}`) })).toBeChecked();
}

/** One tree: its photo, both sizes "Not sure", a kind or none, and its guide price. */
async function priceTree(visitor: Page, element: Locator, photo: string, kind: string | null, stump: boolean) {
  await (await openFileChooser(visitor, () => element.getByRole('button', { name: 'Choose a photo' }).tap())).setFiles(photo);
  await expect(element.getByRole('group', { name: 'How tall is the tree?' })).toBeVisible();
  await tapAnswer(element, 'How tall is the tree?', 'Not sure');
  await tapAnswer(element, 'How thick is the trunk?', 'Not sure');
  if (kind) {
    await element.getByRole('searchbox', { name: /What kind of tree is it/ }).tap();
    await tapAnswer(element, 'Kind of tree', kind);
  }
  if (stump) await tapAnswer(element, 'Grind out the stump too?', 'Yes');
  await element.getByRole('button', { name: 'Get my price' }).tap();
  await expect(element.getByRole('heading', { name: 'Your guide price' })).toBeVisible();
}

async function jobById(page: Page, id: string): Promise<Job> {
  const res = await page.request.get(`/api/jobs/${id}`);
  expect(res.status()).toBe(200);
  return jobResponseSchema.parse(await res.json()).job;
}

const fromName = (mail: ParsedMail) => mail.from?.value[0]?.name;
const replyTo = (mail: ParsedMail) => mail.replyTo?.value[0]?.address;

test("a homeowner's three-tree request becomes a job, is sent, accepted and cancelled online; the surgeon sees Cancelled and both e-mails", async ({ page, context, browser }) => {
  const owner = await ownerCopiesSnippet(page, context, host, 'Copy Embed');
  const profile = await page.request.patch('/api/system-settings', {
    data: { companyProfile: { tradingName: 'Oakfield Tree Surgeons', phone: '01632 960 000', email: PROFILE_EMAIL, address: '3 Mill Lane\nLeeds', vatNumber: '', quoteValidityDays: 30 } },
    headers: origin(),
  });
  expect(profile.status(), await profile.text()).toBe(200);

  // The homeowner's phone, on the surgeon's page with its cookie banner.
  const url = host.setPage('/cancel-journey.html', 'Oakfield Tree Surgeons', owner.snippet);
  const phone = await browser.newContext(PHONE);
  const visitor = await phone.newPage();
  await visitor.goto(url);
  await visitor.locator('iframe').scrollIntoViewIfNeeded();
  const element = visitor.frameLocator('iframe').locator('tree-estimator');
  await expect(element.getByRole('heading', { name: 'Get a guide price for your tree' })).toBeVisible();

  await priceTree(visitor, element, PHOTOS[0]!, 'Sycamore', true);
  for (const photo of PHOTOS.slice(1)) {
    await element.getByRole('button', { name: 'Add another tree' }).tap();
    await priceTree(visitor, element, photo, null, false);
  }
  await expect(element.getByRole('heading', { name: '3 trees to quote' })).toBeVisible();

  const email = `robin-${Date.now().toString(36)}@home.test`;
  await element.getByLabel('Name').fill(VISITOR.name);
  await element.getByLabel('E-mail').fill(email);
  await element.getByLabel('Phone').fill(VISITOR.phone);
  await element.getByLabel('Postcode').fill(VISITOR.postcode);
  const since = Date.now();
  await element.getByRole('button', { name: 'Request a quote for 3 trees' }).tap();
  const reference = element.getByTestId('lead-reference');
  await expect(reference).toHaveText(/^R-\d{6}$/);
  expect((await hostChrome(visitor)).bannerPresses, 'a tap reached the cookie banner').toBe(0);
  await keepScreenshot(visitor, 'cancel-journey-1-thanks-390');
  const ref = (await reference.innerText()).trim();
  await phone.close();

  // The acknowledgement, from the business, with the same reference; a reply reaches the business.
  const ack = (await waitForMail(email, { since, subject: /^Your quote request to/, timeoutMs: 30_000 })).mail;
  expect(ack.text).toContain(ref);
  expect(ack.text).toContain(VISITOR.postcode);
  expect(fromName(ack)).toBe(owner.businessName);
  expect(replyTo(ack)).toBe(PROFILE_EMAIL);

  // The surgeon makes a job of the request in Business Admin, on a phone.
  await page.setViewportSize(PHONE.viewport);
  await page.goto('/admin/businesses');
  const request = page.getByRole('listitem').filter({ hasText: VISITOR.name }).first();
  await request.getByRole('button', { name: `Make a job for ${VISITOR.name}` }).click();
  await expect(page).toHaveURL(/\/jobs\/\d+$/);
  const id = page.url().split('/').at(-1)!;
  const made = await jobById(page, id);
  expect(made.items).toHaveLength(3);
  expect(made.items[0]!.description).toMatch(/sycamore/i);
  expect(made.items[0]!.description).toMatch(/stump/i);
  expect(made.items[1]!.description).toContain('Tree 2 (kind not sure)');
  expect(made.items[2]!.description).toContain('Tree 3 (kind not sure)');
  await expect(page.getByRole('list', { name: /^Items/ }).getByRole('listitem')).toHaveCount(3);

  // Sent to the address from the request.
  const sentAt = Date.now();
  await expect(page.getByLabel('Send the quote to')).toHaveValue(email);
  await page.getByRole('button', { name: 'Send quote' }).click();
  await expect(page.getByText(`Version 1 sent to ${email}`)).toBeVisible();
  const quoteMail = (await waitForMail(email, { since: sentAt, subject: /^Your quote from/ })).mail;
  expect(replyTo(quoteMail)).toBe(PROFILE_EMAIL);
  const link = /https?:\/\/\S+\/quote\/[A-Za-z0-9_-]{43}/.exec(quoteMail.text ?? '')?.[0];
  expect(link, quoteMail.text).toBeTruthy();

  // The customer accepts on their phone, then thinks better of it and cancels from the same page.
  const customerPhone = await browser.newContext(PHONE);
  const customer = await customerPhone.newPage();
  await customer.goto(link!);
  await expect(customer.getByRole('heading', { level: 1 })).toHaveText(`Quote ${made.reference}`);
  const accept = customer.getByRole('group', { name: 'Accept the quote' });
  await accept.getByLabel('Your full name').fill(VISITOR.name);
  await accept.getByLabel('I accept the terms of this quote').check();
  await accept.getByRole('button', { name: 'Accept the quote' }).click();
  await expect(customer.getByRole('region', { name: 'Accepted' })).toContainText(`Accepted by ${VISITOR.name} on`);
  const cancelForm = customer.getByRole('group', { name: 'Cancel this agreement' });
  await cancelForm.scrollIntoViewIfNeeded();
  await expect(cancelForm).toContainText('You can cancel until the end of');
  await expectNoSeriousAxeViolations(customer);
  await keepScreenshot(customer, 'cancel-journey-2-accepted-390');
  const cancelledAt = Date.now();
  await cancelForm.getByLabel('Your full name').fill(VISITOR.name);
  await cancelForm.getByLabel('I am cancelling this agreement').check();
  await cancelForm.getByRole('button', { name: 'Cancel this agreement' }).click();
  const cancelled = customer.getByRole('region', { name: 'Cancelled', exact: true });
  await expect(cancelled).toContainText(`was cancelled by ${VISITOR.name} on this page`);
  expect(await customer.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
  await keepScreenshot(customer, 'cancel-journey-3-cancelled-390');
  await customerPhone.close();

  // Both sides are told, each able to reply to the other.
  const toCustomer = (await waitForMail(email, { since: cancelledAt, subject: /^Cancelled: quote/ })).mail;
  expect(fromName(toCustomer)).toBe(owner.businessName);
  expect(replyTo(toCustomer)).toBe(PROFILE_EMAIL);
  const toOwner = (await waitForMail(owner.email, { since: cancelledAt, subject: /cancelled by/ })).mail;
  expect(replyTo(toOwner)).toBe(email);
  expect(toOwner.text).toContain('refund');

  // The surgeon's job page: Cancelled, how and when, locked.
  await page.reload();
  const panel = page.getByRole('region', { name: 'Cancelled', exact: true });
  await expect(panel).toContainText(`${VISITOR.name} cancelled online, from their quote page`);
  await expect(panel).toContainText('within their 14-day cancellation period');
  await expect(page.getByRole('status').filter({ hasText: 'Cancelled: locked' })).toBeVisible();
  const after = await jobById(page, id);
  expect(after.status).toBe('cancelled');
  expect(after.cancellation).toMatchObject({ via: 'online', name: VISITOR.name, withinPeriod: true });
  await expectNoSeriousAxeViolations(page);
  await panel.scrollIntoViewIfNeeded();
  await keepScreenshot(page, 'cancel-journey-4-owner-cancelled-390');
});
