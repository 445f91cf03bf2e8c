import type { APIRequestContext } from '@playwright/test';
import { invoiceResponseSchema, type Invoice } from '../core/invoices';
import { jobResponseSchema } from '../core/jobs';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { runInvoiceRemindersAt, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * The customer's side of getting paid, on a 390 px phone (docs/product.md, Getting paid): the
 * invoice e-mail's link opens what is owed and how to pay (with and without JavaScript), a
 * receipt follows a payment, an overdue reminder (the hourly run, with an injected clock) links
 * to the same invoice, and the quote page lists it. The surgeon's steps go through the API here;
 * e2e/invoices-dashboard.spec.ts drives them in the dashboard.
 */
const PHONE = { width: 390, height: 844 };
const origin = () => ({ Origin: e2eEnv('baseURL') });
const BANK = { accountName: 'Rowan Tree Care Ltd', sortCode: '40-11-62', accountNumber: '71234567' };

/** A job of one line sent to `email` and accepted through the link's API; the quote link's token. */
async function acceptedJob(request: APIRequestContext, email: string): Promise<{ jobId: number; quoteToken: string }> {
  const { job } = jobResponseSchema.parse(await ok(request.post('/api/jobs', { data: { customer: { name: 'Mrs Jo Rowan', email, siteAddress: '12 Acacia Avenue\nLittle Snoring NR21 0AA' } }, headers: origin() }), 201));
  await ok(request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Fell the leaning sycamore and grind its stump', price: '720' }, headers: origin() }), 201);
  const since = Date.now();
  await ok(request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const { mail } = await waitForMail(email, { since });
  const quoteToken = /\/quote\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(quoteToken, mail.text).toBeTruthy();
  await ok(request.post(`/api/quotes/${quoteToken}/accept`, { data: { name: 'Jo Rowan', acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: false }, headers: origin() }));
  return { jobId: job.id, quoteToken: quoteToken! };
}

const invoiceOf = async (answer: Promise<unknown>): Promise<Invoice> => invoiceResponseSchema.parse(await answer).invoice;

test('the customer opens the invoice from the e-mail, pays by transfer, gets a receipt, then an overdue reminder for the rest', async ({ page, browser }) => {
  const owner = await signedInAccount(page);
  const email = `invoice-${owner.username}@example.test`;
  await ok(page.request.patch('/api/system-settings', { data: { bankDetails: BANK, companyProfile: { tradingName: 'Rowan Tree Care', phone: '01328 555010', email: 'office@rowan.example', address: '1 Mill Yard, Fakenham', vatNumber: '', quoteValidityDays: 30 } }, headers: origin() }));
  const { jobId, quoteToken } = await acceptedJob(page.request, email);
  const draft = await invoiceOf(ok(page.request.post(`/api/jobs/${jobId}/invoices`, { data: { kind: 'final' }, headers: origin() }), 201));
  const issued = await invoiceOf(ok(page.request.post(`/api/invoices/${draft.id}/issue`, { headers: origin() })));
  const sentAt = Date.now();
  await ok(page.request.post(`/api/invoices/${issued.id}/send`, { data: {}, headers: origin() }));
  const { mail } = await waitForMail(email, { since: sentAt, subject: new RegExp(`Invoice ${issued.number} from Rowan Tree Care`) });
  expect(mail.replyTo?.text).toContain('office@rowan.example');
  expect(mail.attachments.map((a) => a.filename)).toEqual([`invoice-${issued.number}.pdf`]);
  const link = /https?:\/\/\S+\/invoice\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeTruthy();

  // On the customer's phone: what is owed, by when, and how to pay, each detail with a Copy button.
  const phone = await browser.newContext({ viewport: PHONE, permissions: ['clipboard-read', 'clipboard-write'] });
  const customer = await phone.newPage();
  await customer.goto(link!);
  await expect(customer.getByRole('heading', { level: 1, name: `Invoice ${issued.number}` })).toBeVisible();
  await expect(customer.getByText(/£720\.00 is due by/)).toBeVisible();
  const pay = customer.getByRole('region', { name: 'How to pay' });
  for (const value of [BANK.accountName, BANK.sortCode, BANK.accountNumber, issued.number!]) await expect(pay.getByText(value, { exact: true })).toBeVisible();
  await pay.getByRole('button', { name: 'Copy the reference' }).click();
  await expect(pay.getByRole('button', { name: 'Copy the reference' })).toHaveText('Copied');
  expect(await customer.evaluate(() => navigator.clipboard.readText())).toBe(issued.number);
  expect(await customer.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectNoSeriousAxeViolations(customer);
  await keepScreenshot(customer, 'invoice-customer-390');

  // Without JavaScript the details are there to select, and no dead Copy button shows.
  const plain = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
  const noScript = await plain.newPage();
  await noScript.goto(link!);
  await expect(noScript.getByRole('region', { name: 'How to pay' }).getByText(BANK.accountNumber, { exact: true })).toBeVisible();
  await expect(noScript.getByRole('button', { name: /Copy/ })).toHaveCount(0);
  await keepScreenshot(noScript, 'invoice-customer-360-no-js');
  await plain.close();

  // The surgeon sees it viewed, records a part payment; the customer gets a receipt.
  expect((await invoiceOf(ok(page.request.get(`/api/invoices/${issued.id}`)))).status).toBe('viewed');
  const paidAt = Date.now();
  await ok(page.request.post(`/api/invoices/${issued.id}/payments`, { data: { amount: '300', paidOn: issued.issuedOn, method: 'bank_transfer', reference: issued.number }, headers: origin() }), 201);
  const receipt = await waitForMail(email, { since: paidAt, subject: /Payment received/ });
  expect(receipt.mail.text).toContain('£420.00 is still to pay');
  await customer.reload();
  await expect(customer.getByText(/£420\.00 is due by/)).toBeVisible();

  // Four days past the due date (the hourly run, its clock moved on): the first reminder.
  const remindedAt = Date.now();
  const later = new Date(`${issued.dueOn}T12:00:00Z`);
  later.setUTCDate(later.getUTCDate() + 4);
  expect(await runInvoiceRemindersAt(later)).toBeGreaterThanOrEqual(1);
  const reminder = await waitForMail(email, { since: remindedAt, subject: new RegExp(`Reminder: ${issued.number}`) });
  expect(reminder.mail.text).toContain('£420.00 is still to pay');
  expect(reminder.mail.attachments.map((a) => a.filename)).toEqual([`invoice-${issued.number}.pdf`]);
  const reminderLink = /https?:\/\/\S+\/invoice\/[A-Za-z0-9_-]{43}/.exec(reminder.mail.text ?? '')?.[0];
  await customer.goto(reminderLink!);
  await expect(customer.getByRole('heading', { level: 1, name: `Invoice ${issued.number}` })).toBeVisible();

  // The quote page lists the invoice, and opens it under the quote's own link.
  await customer.goto(`/quote/${quoteToken}`);
  const invoices = customer.getByRole('region', { name: 'Invoices' });
  await invoices.getByRole('link', { name: `Invoice ${issued.number}` }).click();
  await expect(customer.getByText(/£420\.00 is due by/)).toBeVisible();
  await phone.close();
});
