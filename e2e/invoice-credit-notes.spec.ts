import { readFile } from 'node:fs/promises';
import { invoiceResponseSchema, type Invoice } from '../core/invoices';
import { jobResponseSchema } from '../core/jobs';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * The customer's invoice page with a payment, a part refund and a credit note, on a 390 px phone
 * (docs/product.md, Getting paid: figures that add up, credit notes): the sums read down paid,
 * refunded, credited, to pay; each payment, refund and credit note is listed with its day; the
 * credit notes download as PDFs, and each came by e-mail with its PDF. The surgeon's steps go
 * through the API here.
 */
const PHONE = { width: 390, height: 844 };
const origin = () => ({ Origin: e2eEnv('baseURL') });
const BANK = { accountName: 'Hazel Tree Care Ltd', sortCode: '40-11-62', accountNumber: '71234567' };
const invoiceOf = async (answer: Promise<unknown>): Promise<Invoice> => invoiceResponseSchema.parse(await answer).invoice;

test('a payment, a part refund and a credit note read down to what is owed, each dated, the credit notes as PDFs', async ({ page, browser }) => {
  const owner = await signedInAccount(page);
  const email = `credit-${owner.username}@example.test`;
  await ok(
    page.request.patch('/api/system-settings', {
      data: { bankDetails: BANK, companyProfile: { tradingName: 'Hazel Tree Care', phone: '01328 555011', email: 'office@hazel.example', address: '2 Mill Yard, Fakenham', vatNumber: '', quoteValidityDays: 30 } },
      headers: origin(),
    }),
  );
  const { job } = jobResponseSchema.parse(await ok(page.request.post('/api/jobs', { data: { customer: { name: 'Mr Sam Hazel', email, siteAddress: '4 Acacia Avenue\nLittle Snoring NR21 0AA' } }, headers: origin() }), 201));
  await ok(page.request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Reduce the beech crown by a third', price: '720' }, headers: origin() }), 201);
  const quotedAt = Date.now();
  await ok(page.request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const quoteToken = /\/quote\/([A-Za-z0-9_-]{43})/.exec((await waitForMail(email, { since: quotedAt })).mail.text ?? '')?.[1];
  await ok(page.request.post(`/api/quotes/${quoteToken}/accept`, { data: { name: 'Sam Hazel', acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: false }, headers: origin() }));
  const draft = await invoiceOf(ok(page.request.post(`/api/jobs/${job.id}/invoices`, { data: { kind: 'final' }, headers: origin() }), 201));
  const issued = await invoiceOf(ok(page.request.post(`/api/invoices/${draft.id}/issue`, { headers: origin() })));
  const sentAt = Date.now();
  await ok(page.request.post(`/api/invoices/${issued.id}/send`, { data: {}, headers: origin() }));
  const link = /https?:\/\/\S+\/invoice\/[A-Za-z0-9_-]{43}/.exec((await waitForMail(email, { since: sentAt, subject: /Invoice/ })).mail.text ?? '')?.[0];
  expect(link).toBeTruthy();

  // £300 paid, £50 of it refunded (with its credit note), then a credit note of £60 for work not done.
  const paid = await invoiceOf(ok(page.request.post(`/api/invoices/${issued.id}/payments`, { data: { amount: '300', paidOn: issued.issuedOn, method: 'bank_transfer' }, headers: origin() }), 201));
  const refundedAt = Date.now();
  await ok(page.request.post(`/api/invoices/${issued.id}/payments/${paid.payments[0]!.id}/refund`, { data: { amount: '50', reason: 'Logs left on site' }, headers: origin() }));
  const refundMail = (await waitForMail(email, { since: refundedAt, subject: /Refund of £50\.00/ })).mail;
  expect(refundMail.text).toContain('has refunded £50.00 to you');
  const creditedAt = Date.now();
  const credited = await invoiceOf(ok(page.request.post(`/api/invoices/${issued.id}/credit-notes`, { data: { amount: '60', reason: 'Hedge not cut after all' }, headers: origin() }), 201));
  const [refundNote, note] = credited.creditNotes;
  expect(refundMail.attachments.map((a) => a.filename)).toEqual([`credit-note-${refundNote!.number}.pdf`]);
  const creditMail = (await waitForMail(email, { since: creditedAt, subject: new RegExp(`Credit note ${note!.number}`) })).mail;
  expect(creditMail.text).toContain(`has issued credit note ${note!.number} for £60.00`);
  expect(creditMail.attachments.map((a) => a.filename)).toEqual([`credit-note-${note!.number}.pdf`]);

  const phone = await browser.newContext({ viewport: PHONE });
  const customer = await phone.newPage();
  await customer.goto(link!);
  await expect(customer.getByRole('heading', { level: 1, name: `Invoice ${issued.number}` })).toBeVisible();
  // 720 - 110 credited - 300 paid + 50 refunded = 360.
  await expect(customer.getByText(/£360\.00 is due by/)).toBeVisible();
  const work = customer.getByRole('region', { name: 'Work invoiced' });
  const totals = await work.locator('dl.totals > div').allInnerTexts();
  expect(totals.map((row) => row.replace(/\s+/g, ' ').trim())).toEqual(['Total £720.00', 'Credited -£110.00', 'Paid -£300.00', 'Refunded to you +£50.00', 'To pay £360.00']);
  const history = customer.getByRole('region', { name: 'Payments, refunds and credit notes' });
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(new Date(`${issued.issuedOn}T12:00:00Z`));
  const lines = (await history.locator('li .line').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
  expect(lines).toEqual([
    `${day}: Payment received £300.00`,
    `${day}: Refunded to you £50.00`,
    `${day}: Credit note ${refundNote!.number} £50.00`,
    `${day}: Credit note ${note!.number} £60.00`,
  ]);
  await expect(history.getByText('Hedge not cut after all')).toBeVisible();
  expect(await customer.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectNoSeriousAxeViolations(customer);
  await keepScreenshot(customer, 'invoice-credit-notes-390');

  // Each credit note downloads as its PDF from the page.
  const [download] = await Promise.all([customer.waitForEvent('download'), history.getByRole('link', { name: `Download credit note ${note!.number} (PDF)` }).click()]);
  expect(download.suggestedFilename()).toBe(`credit-note-${note!.number}.pdf`);
  expect((await readFile((await download.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
  await phone.close();

  // The surgeon's job page lists both credit notes on the invoice, each with its PDF; the month's "Paid" is £250.00.
  await page.setViewportSize(PHONE);
  await page.goto(`/jobs/${job.id}`);
  const notes = page.getByRole('region', { name: 'Invoices' }).getByRole('list', { name: 'Credit notes' }).getByRole('listitem');
  await expect(notes).toHaveCount(2);
  await expect(notes.nth(1)).toContainText(`${note!.number} on`);
  await expect(notes.nth(1)).toContainText('£60.00. Hedge not cut after all');
  const [owned] = await Promise.all([page.waitForEvent('download'), notes.nth(1).getByRole('link', { name: `PDF of credit note ${note!.number}` }).click()]);
  expect(owned.suggestedFilename()).toBe(`credit-note-${note!.number}.pdf`);
  await keepScreenshot(page, 'invoice-credit-notes-owner-390');
  await page.goto('/invoices');
  await expect(page.getByRole('region', { name: /^This month:/ }).getByText('£250.00')).toBeVisible();
});
