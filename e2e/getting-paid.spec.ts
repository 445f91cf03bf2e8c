import type { Locator, Page } from '@playwright/test';
import { invoiceListSchema } from '../core/invoices';
import { addDays, ukToday } from '../core/job-booking';
import { jobResponseSchema, type Job } from '../core/jobs';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { runInvoiceRemindersAt, signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * From accepted to paid on a 390 px phone (docs/product.md, Getting paid): an accepted job with an
 * optional item the customer chose → a 20% deposit invoice issued and sent → the customer opens
 * the link from the e-mail and sees the bank details and the reference → the surgeon records the
 * transfer → a receipt → booked and done → the final invoice with a line agreed on site, less the
 * deposit → a part payment → an overdue reminder (the hourly run with an injected clock) → the
 * rest paid → the Invoices page shows it paid and this month's paid value.
 */
const PHONE = { width: 390, height: 844 };
const origin = () => ({ Origin: e2eEnv('baseURL') });
const BANK = { accountName: 'Hazel & Holly Trees Ltd', sortCode: '30-90-21', accountNumber: '44556677' };

function invoiceCard(panel: Locator, page: Page, name: string): Locator {
  return panel.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name} ·`) }) });
}

const linkIn = (text: string | undefined) => /https?:\/\/\S+\/invoice\/[A-Za-z0-9_-]{43}/.exec(text ?? '')?.[0];

/** Records a payment in the card's dialog: `amount` (or what is owed), by bank transfer. */
async function recordPayment(page: Page, card: Locator, amount?: string): Promise<void> {
  await card.getByRole('button', { name: 'Record a payment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record a payment' });
  if (amount) await dialog.getByLabel('Amount (£)').fill(amount);
  await dialog.getByRole('button', { name: 'Record the payment' }).click();
  await expect(dialog).toBeHidden();
}

test('a deposit and the final invoice of an accepted job, from the customer’s link to paid in full on the Invoices page', async ({ page, browser }) => {
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  const email = `paid-${owner.username}@example.test`;
  await ok(
    page.request.patch('/api/system-settings', {
      data: { bankDetails: BANK, companyProfile: { tradingName: 'Hazel & Holly Trees', phone: '01632 960123', email: 'office@hazel.example', address: '4 Copse Lane, Ludlow', vatNumber: '', quoteValidityDays: 30 } },
      headers: origin(),
    }),
  );

  // An accepted quote: £1,000 of work and an optional £200 hedge the customer ticks.
  const { job } = jobResponseSchema.parse(await ok(page.request.post('/api/jobs', { data: { customer: { name: 'Mr Sam Hazel', email, siteAddress: '9 Orchard Close, Ludlow SY8 1AA' } }, headers: origin() }), 201));
  await ok(page.request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Fell the ash by the drive in sections', price: '1000' }, headers: origin() }), 201);
  const withHedge = jobResponseSchema.parse(
    await ok(page.request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Trim the beech hedge', price: '200', optional: true }, headers: origin() }), 201),
  ).job;
  const quoteSentAt = Date.now();
  await ok(page.request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const quoteMail = await waitForMail(email, { since: quoteSentAt });
  const quoteToken = /\/quote\/([A-Za-z0-9_-]{43})/.exec(quoteMail.mail.text ?? '')?.[1];
  const hedge = withHedge.items.find((item: Job['items'][number]) => item.optional)!;
  await ok(page.request.post(`/api/quotes/${quoteToken}/accept`, { data: { name: 'Sam Hazel', acceptTerms: true, optionalItemIds: [hedge.id], startWithinCancellationPeriod: false }, headers: origin() }));

  // A 20% deposit of the £1,200 accepted, issued and sent.
  await page.goto(`/jobs/${job.id}`);
  const panel = page.getByRole('region', { name: 'Invoices' });
  await panel.getByRole('button', { name: 'Make deposit invoice' }).click();
  const depositDialog = page.getByRole('dialog', { name: 'Make a deposit invoice' });
  await depositDialog.getByLabel('Deposit (%)').fill('20');
  await expect(depositDialog.getByText('That is £240.00 of the accepted £1,200.00.')).toBeVisible();
  await depositDialog.getByRole('button', { name: 'Make deposit invoice' }).click();
  await expect(depositDialog).toBeHidden();
  await invoiceCard(panel, page, 'Draft').getByRole('button', { name: 'Issue' }).click();
  const deposit = invoiceCard(panel, page, 'INV-0001');
  await expect(deposit.getByText('Issued', { exact: true })).toBeVisible();
  await deposit.getByRole('button', { name: 'Send' }).click();
  const send = page.getByRole('dialog', { name: 'Send INV-0001' });
  const sentAt = Date.now();
  await send.getByRole('button', { name: 'Send the invoice' }).click();
  await expect(send).toBeHidden();
  await keepScreenshot(page, 'paid-1-deposit-sent-390');

  // The customer opens the link in the e-mail on their phone: the bank details and the reference.
  const invoiceMail = await waitForMail(email, { since: sentAt, subject: /INV-0001/ });
  expect(invoiceMail.mail.attachments.map((a) => a.filename)).toEqual(['invoice-INV-0001.pdf']);
  const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
  await phone.goto(linkIn(invoiceMail.mail.text)!);
  await expect(phone.getByText(/£240\.00 is due by/)).toBeVisible();
  const pay = phone.getByRole('region', { name: 'How to pay' });
  for (const value of [BANK.accountName, BANK.sortCode, BANK.accountNumber, 'INV-0001']) await expect(pay.getByText(value, { exact: true })).toBeVisible();
  await expectNoSeriousAxeViolations(phone);
  await keepScreenshot(phone, 'paid-2-customer-deposit-390');

  // The transfer arrives: recorded, and the customer gets a receipt.
  const paidAt = Date.now();
  await recordPayment(page, deposit);
  await expect(deposit.getByText('Paid', { exact: true })).toBeVisible();
  const receipt = await waitForMail(email, { since: paidAt, subject: /Payment received/ });
  expect(receipt.mail.text).toContain('is now paid in full');

  // Booked and done (the booking's own walk is e2e/job-booking.spec.ts).
  // The first day after the customer's 14-day cancellation period: they did not ask to start early.
  await ok(page.request.post(`/api/jobs/${job.id}/book`, { data: { date: addDays(ukToday(new Date()), 15) }, headers: origin() }));
  await ok(page.request.post(`/api/jobs/${job.id}/done`, { data: { actuals: [] }, headers: origin() }));

  // The final invoice: the accepted £1,200, a line agreed on site, less the £240 deposit.
  await page.reload();
  await panel.getByRole('button', { name: 'Make final invoice' }).click();
  const finalDialog = page.getByRole('dialog', { name: 'Make the final invoice' });
  await finalDialog.getByRole('button', { name: 'Add a line agreed on site' }).click();
  const line = finalDialog.getByRole('group', { name: 'Line agreed on site 1' });
  await line.getByLabel('Description').fill('Second stump ground, agreed on the day');
  await line.getByLabel('Price (£)').fill('90');
  await finalDialog.getByRole('button', { name: 'Make final invoice' }).click();
  await expect(finalDialog).toBeHidden();
  await invoiceCard(panel, page, 'Draft').getByRole('button', { name: 'Issue' }).click();
  const final = invoiceCard(panel, page, 'INV-0002');
  await expect(final.getByText('Issued', { exact: true })).toBeVisible();
  await expect(final).toContainText('£1,050.00');
  await final.getByText(/^Lines/).click();
  await expect(final.getByText('Trim the beech hedge')).toBeVisible();
  await expect(final.getByText(/Less deposit invoiced on INV-0001/)).toBeVisible();
  await final.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('dialog', { name: 'Send INV-0002' }).getByRole('button', { name: 'Send the invoice' }).click();
  await expect(final.getByRole('button', { name: 'Send again' })).toBeVisible();

  // A part payment, then nothing until four days past the due date: the first reminder.
  await recordPayment(page, final, '400');
  await expect(final.getByText('Part paid', { exact: true })).toBeVisible();
  const issued = invoiceListSchema.parse(await ok(page.request.get(`/api/jobs/${job.id}/invoices`))).invoices.find((invoice) => invoice.number === 'INV-0002')!;
  const remindedAt = Date.now();
  const late = new Date(`${issued.dueOn}T12:00:00Z`);
  late.setUTCDate(late.getUTCDate() + 4);
  expect(await runInvoiceRemindersAt(late)).toBeGreaterThanOrEqual(1);
  const reminder = await waitForMail(email, { since: remindedAt, subject: /Reminder: INV-0002/ });
  expect(reminder.mail.text).toContain('£650.00 is still to pay');
  await phone.goto(linkIn(reminder.mail.text)!);
  await expect(phone.getByText(/£650\.00 is due by/)).toBeVisible();
  await keepScreenshot(phone, 'paid-3-customer-reminder-390');

  // The rest paid: the Invoices page shows it paid, and this month's paid value.
  await page.reload();
  await recordPayment(page, invoiceCard(panel, page, 'INV-0002'));
  await expect(invoiceCard(panel, page, 'INV-0002').getByText('Paid', { exact: true })).toBeVisible();
  await keepScreenshot(page, 'paid-4-panel-390');
  await page.goto('/invoices');
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
  const rows = page.getByRole('list', { name: 'Invoices' }).getByRole('listitem');
  await expect(rows.filter({ hasText: 'INV-0002' })).toContainText('Paid');
  await expect(rows.filter({ hasText: 'INV-0001' })).toContainText('Paid');
  await expect(page.getByRole('region', { name: /^This month:/ })).toContainText('Paid£1,290.00');
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'paid-5-invoices-page-390');
  await phone.context().close();
});
