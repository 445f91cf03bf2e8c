import { jobResponseSchema, type Job } from '../core/jobs';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * The job page on a 390 px phone, as a surgeon walked it: a new job's customer e-mail saved on the
 * page goes straight into "Send the quote to" (it stayed empty, and Send answered 400 until a
 * reload); and when the customer asks for a change, their words head the page beside the status,
 * not only at the foot of the versions sent; a change made after sending is listed until it is sent again.
 */
const PHONE = { width: 390, height: 844 };
const origin = () => ({ Origin: e2eEnv('baseURL') });

test("a new job's saved customer e-mail fills the send box; a change asked for heads the page", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  const email = `send-box-${owner.username}@example.test`;
  const { job } = await ok<{ job: Job }>(page.request.post('/api/jobs', { data: { customer: { name: 'Ada Hawthorn' } }, headers: origin() }), 201);
  await ok(page.request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Crown lift the sycamore to 3 m', price: '250' }, headers: origin() }), 201);

  await page.goto(`/jobs/${job.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${job.reference} for Ada Hawthorn` })).toBeVisible();
  const sendBox = page.getByLabel('Send the quote to');
  const sendButton = page.getByRole('button', { name: 'Send quote' });
  // No address anywhere yet: nothing to send to, and the button says so by being off.
  await expect(sendBox).toHaveValue('');
  await expect(sendButton).toBeDisabled();

  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await expect(sendButton).toBeDisabled();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  await expect(sendBox).toHaveValue(email);
  await expect(sendButton).toBeEnabled();
  await keepScreenshot(page, 'job-send-box-filled-390');

  const since = Date.now();
  await sendButton.click();
  await expect(page.getByText(`was e-mailed to ${email}`)).toBeVisible();
  const { mail } = await waitForMail(email, { since });
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();

  // The customer asks for a change; the surgeon opens the job and reads it first, beside the status.
  const words = 'Please leave the logs stacked by the shed.\nAnd can you start after 9?';
  await ok(page.request.post(`/api/quotes/${token}/changes`, { data: { message: words }, headers: origin() }));
  await page.goto(`/jobs/${job.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${job.reference} for Ada Hawthorn` })).toBeVisible();
  const asked = page.getByRole('region', { name: 'Change asked for' });
  await expect(asked).toContainText('Ada Hawthorn asked for a change to version 1 on');
  await expect(asked).toContainText('Please leave the logs stacked by the shed. And can you start after 9?');
  await expect(page.getByText('Changes requested', { exact: true }).first()).toBeInViewport();
  await expect(asked).toBeInViewport();
  // It stands above the customer's details and the items, where the page starts.
  const askedBox = (await asked.boundingBox())!;
  const customerBox = (await page.getByLabel('E-mail', { exact: true }).boundingBox())!;
  expect(askedBox.y).toBeLessThan(customerBox.y);
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'job-change-asked-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // The surgeon changes the price; until it is sent again, the page says what the customer would not be accepting.
  const line = jobResponseSchema.parse(await ok(page.request.get(`/api/jobs/${job.id}`))).job.items[0]!;
  await ok(page.request.patch(`/api/jobs/${job.id}`, { data: { items: [{ id: line.id, price: '275' }] }, headers: origin() }));
  await page.reload();
  const changed = page.getByRole('region', { name: 'Changed since sent' });
  await expect(changed).toContainText('Changed since version 1 was sent');
  await expect(changed).toContainText('Crown lift the sycamore to 3 m: £250.00 → £275.00');
  await expect(changed).toContainText('The customer can still accept only version 1 as it was sent.');

  // Sent again, the request is answered and the changes offered: both notices go, the history keeps the request.
  await page.getByRole('button', { name: 'Send again' }).click();
  await expect(page.getByText('Sent', { exact: true }).first()).toBeVisible();
  await expect(asked).toHaveCount(0);
  await expect(changed).toHaveCount(0);
  const sentAgain = jobResponseSchema.parse(await ok(page.request.get(`/api/jobs/${job.id}`))).job;
  expect(sentAgain.versions.map((v) => v.version)).toEqual([2, 1]);
});
