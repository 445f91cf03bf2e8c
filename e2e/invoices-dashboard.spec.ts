import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { settingsResponseSchema } from '../core/settings';
import { lastCalendarMonth } from '../core/invoice-summary';
import { ukToday } from '../core/job-booking';
import type { Job } from '../core/jobs';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * Getting paid on a 390 px phone (docs/product.md, Getting paid), as a surgeon walks it: bank
 * details, payment terms and a deposit rule saved in Settings; on the accepted job, a 20% deposit
 * (the rule fills it in) issued and paid, then the final invoice with a line agreed on site,
 * issued and part paid; the Invoices page then shows both, with their statuses and the sums.
 */
const PHONE = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };
const origin = () => ({ Origin: e2eEnv('baseURL') });

/** A two-line job (£1,200.00, no VAT: a new account has no VAT number), sent and accepted through its link. */
async function acceptedJob(request: APIRequestContext, email: string): Promise<Job> {
  const { job } = await ok<{ job: Job }>(request.post('/api/jobs', { data: { customer: { name: 'Mrs Jo Rowan', email, siteAddress: '12 Acacia Avenue, Little Snoring' } }, headers: origin() }), 201);
  await ok(request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Fell the ash by the drive in sections', price: '1000' }, headers: origin() }), 201);
  await ok(request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Grind out the stump', price: '200' }, headers: origin() }), 201);
  const since = Date.now();
  await ok(request.post(`/api/jobs/${job.id}/send`, { data: {}, headers: origin() }));
  const { mail } = await waitForMail(email, { since });
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1];
  expect(token, mail.text).toBeTruthy();
  await ok(request.post(`/api/quotes/${token}/accept`, { data: { name: 'Jo Rowan', acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: false }, headers: origin() }));
  return job;
}

/** One invoice on the job's panel, by the start of its heading ("Draft", "INV-0001"). */
function invoiceCard(panel: Locator, page: Page, name: string): Locator {
  return panel.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name} ·`) }) });
}

test('Getting paid: settings saved, a deposit and the final invoice issued and paid, the Invoices page adds them up', async ({ page }) => {
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  const email = `invoices-${owner.username}@example.test`;
  const job = await acceptedJob(page.request, email);

  // Settings → Getting paid: bank details, 14 days, a 20% deposit on jobs over £500.
  await page.goto('/settings');
  const gettingPaid = page.getByRole('region', { name: 'Getting paid' });
  await expect(gettingPaid).toBeVisible();
  const bank = gettingPaid.getByRole('form', { name: 'Bank details' });
  await bank.getByLabel('Account name', { exact: true }).fill('Oak & Ash Tree Care');
  await bank.getByLabel('Sort code').fill('12-34-56');
  await bank.getByLabel('Account number', { exact: true }).fill('1234567');
  await bank.getByRole('button', { name: 'Save Bank Details' }).click();
  await expect(bank.getByText('An account number is 8 digits')).toBeVisible();
  await bank.getByLabel('Account number', { exact: true }).fill('12345678');
  await bank.getByRole('button', { name: 'Save Bank Details' }).click();
  await expect(gettingPaid.getByRole('button', { name: 'Replace bank details' })).toBeVisible();
  await expect(gettingPaid.getByText('12-34-56')).toBeVisible();
  await expect(gettingPaid.getByText('ending 5678')).toBeAttached();

  const terms = gettingPaid.getByRole('form', { name: 'Payment terms and deposits' });
  await terms.getByRole('radio', { name: '14 days' }).check();
  await terms.getByRole('checkbox', { name: 'Suggest a deposit on larger jobs' }).check();
  await terms.getByLabel('Deposit (%)').fill('20');
  await terms.getByLabel('For jobs over (£)').fill('500');
  await terms.getByRole('checkbox', { name: 'Add statutory interest when a business customer pays late' }).check();
  await terms.getByLabel('Bank of England base rate (%)').fill('4.75');
  await terms.getByRole('button', { name: 'Save Payment Terms' }).click();
  await expect(page.getByText('Payment Terms Saved')).toBeVisible();
  const settings = settingsResponseSchema.parse(await ok(page.request.get('/api/system-settings')));
  expect(settings).toMatchObject({
    paymentTermsDays: 14,
    depositRule: { percent: 20, overAmount: '500.00' },
    lateInterest: { baseRatePercent: 4.75 },
    bankDetails: { accountName: 'Oak & Ash Tree Care', sortCode: '12-34-56', accountNumber: '****5678' },
  });
  // The standard quote terms follow the payment terms just saved.
  const quoteTerms = page.getByRole('form', { name: 'Quote terms' });
  await quoteTerms.getByRole('button', { name: 'Use the standard terms' }).click();
  await expect(quoteTerms.getByLabel('Your terms')).toHaveValue(/within 14 days of our invoice/);
  await gettingPaid.scrollIntoViewIfNeeded();
  await keepScreenshot(page, 'invoices-settings-390');

  // The job's Invoices panel: a deposit, the rule's 20% filled in.
  await page.goto(`/jobs/${job.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${job.reference} for Mrs Jo Rowan` })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Invoices' });
  await expect(panel.getByText('No invoices yet.')).toBeVisible();
  await panel.getByRole('button', { name: 'Make deposit invoice' }).click();
  const depositDialog = page.getByRole('dialog', { name: 'Make a deposit invoice' });
  await expect(depositDialog.getByLabel('Deposit (%)')).toHaveValue('20');
  await expect(depositDialog.getByText('That is £240.00 of the accepted £1,200.00.')).toBeVisible();
  await keepScreenshot(page, 'invoices-deposit-dialog-390');
  await depositDialog.getByRole('button', { name: 'Make deposit invoice' }).click();
  await expect(depositDialog).toBeHidden();

  const draft = invoiceCard(panel, page, 'Draft');
  await expect(draft).toContainText('Deposit invoice (20%)');
  await expect(draft).toContainText('£240.00');
  await draft.getByRole('button', { name: 'Issue' }).click();
  const deposit = invoiceCard(panel, page, 'INV-0001');
  await expect(deposit.getByText('Issued', { exact: true })).toBeVisible();
  await expect(deposit.getByRole('link', { name: 'Download PDF' })).toHaveAttribute('href', /\/api\/invoices\/\d+\/invoice\.pdf$/);
  // Sent to the customer's address on the accepted quote, with the PDF.
  await deposit.getByRole('button', { name: 'Send' }).click();
  const send = page.getByRole('dialog', { name: 'Send INV-0001' });
  await expect(send.getByLabel('Send to')).toHaveValue(email);
  const sentAt = Date.now();
  await send.getByRole('button', { name: 'Send the invoice' }).click();
  await expect(send).toBeHidden();
  await expect(deposit.getByRole('button', { name: 'Send again' })).toBeVisible();
  const { mail: invoiceMail } = await waitForMail(email, { since: sentAt });
  expect(invoiceMail.attachments.some((a) => a.contentType === 'application/pdf')).toBe(true);

  await deposit.getByRole('button', { name: 'Record a payment' }).click();
  const payDeposit = page.getByRole('dialog', { name: 'Record a payment' });
  await expect(payDeposit.getByLabel('Amount (£)')).toHaveValue('240.00');
  await expect(payDeposit.getByLabel('Reference (optional)')).toHaveValue('INV-0001');
  await expect(payDeposit.getByRole('radio', { name: 'Bank transfer' })).toBeChecked();
  await keepScreenshot(page, 'invoices-payment-dialog-390');
  await payDeposit.getByRole('button', { name: 'Record the payment' }).click();
  await expect(payDeposit).toBeHidden();
  await expect(deposit.getByText('Paid', { exact: true })).toBeVisible();
  await expect(deposit.getByRole('list', { name: 'Payments' }).getByText(/^£240\.00 paid by bank transfer on .* \(INV-0001\)$/)).toBeVisible();

  // The final invoice, with a line agreed on site: £1,200 + £150 less the £240 deposit.
  await panel.getByRole('button', { name: 'Make final invoice' }).click();
  const finalDialog = page.getByRole('dialog', { name: 'Make the final invoice' });
  await finalDialog.getByRole('button', { name: 'Add a line agreed on site' }).click();
  const line = finalDialog.getByRole('group', { name: 'Line agreed on site 1' });
  await expect(line.getByLabel('Description')).toBeFocused();
  await line.getByLabel('Description').fill('Take down the dead cherry by the gate');
  await line.getByLabel('Price (£)').fill('150');
  await line.getByLabel('Note (optional)').fill('Agreed with Mrs Rowan on the day');
  await keepScreenshot(page, 'invoices-final-dialog-390');
  await finalDialog.getByRole('button', { name: 'Make final invoice' }).click();
  await expect(finalDialog).toBeHidden();
  const finalDraft = invoiceCard(panel, page, 'Draft');
  await expect(finalDraft).toContainText('Final invoice');
  await expect(finalDraft).toContainText('£1,110.00');
  await finalDraft.getByRole('button', { name: 'Issue' }).click();
  const final = invoiceCard(panel, page, 'INV-0002');
  await expect(final.getByText('Issued', { exact: true })).toBeVisible();
  await final.getByText(/^Lines/).click();
  await expect(final.getByText('Take down the dead cherry by the gate')).toBeVisible();

  await final.getByRole('button', { name: 'Record a payment' }).click();
  const payFinal = page.getByRole('dialog', { name: 'Record a payment' });
  await expect(payFinal.getByLabel('Amount (£)')).toHaveValue('1110.00');
  await payFinal.getByLabel('Amount (£)').fill('2000');
  await payFinal.getByRole('button', { name: 'Record the payment' }).click();
  // The server's sentence, under the field it is about.
  await expect(payFinal.getByText(/more than the £1,110\.00 still owed/)).toBeVisible();
  await payFinal.getByLabel('Amount (£)').fill('500');
  await payFinal.getByRole('radio', { name: 'Cheque' }).check();
  await payFinal.getByRole('button', { name: 'Record the payment' }).click();
  await expect(payFinal).toBeHidden();
  await expect(final.getByText('Part paid', { exact: true })).toBeVisible();
  await expect(final).toContainText('£610.00');
  await expect(panel.getByText(/^£1,350\.00 invoiced in all; £610\.00 still owed\.$/)).toBeVisible();
  await final.getByText('History').click();
  await expect(final.getByText(/^Issued as INV-0002 on /)).toBeVisible();
  await expectNoSeriousAxeViolations(page, '[data-invoices-panel]');
  await panel.scrollIntoViewIfNeeded();
  await keepScreenshot(page, 'invoices-panel-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // The Invoices page, from the header's menu.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'Invoices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invoices' })).toBeVisible();
  await expect(page).toHaveTitle('Invoices · TreeAnalyzer Pro');
  await expect(page.getByRole('heading', { name: 'Owed to you: £610.00' })).toBeVisible();
  const owed = page.getByRole('region', { name: 'Owed to you: £610.00' });
  await expect(owed.getByRole('definition').first()).toHaveText('£610.00');
  const month = page.getByRole('region', { name: /^This month:/ });
  await expect(month).toContainText('Invoiced£1,350.00');
  await expect(month).toContainText('Paid£740.00');

  const rows = page.getByRole('list', { name: 'Invoices' }).getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'INV-0001' })).toContainText('Paid');
  await expect(rows.filter({ hasText: 'INV-0002' })).toContainText('Part paid');
  await expect(rows.filter({ hasText: 'INV-0002' })).toContainText('£610.00');
  await expect(page.getByRole('button', { name: 'Part paid 1' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'All 2' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByLabel('Search by customer or number').fill('INV-0002');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('INV-0002');
  await page.getByLabel('Search by customer or number').fill('');
  await expect(rows).toHaveCount(2);
  await page.getByRole('button', { name: 'Paid 1', exact: true }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('INV-0001');
  await page.getByRole('button', { name: 'All 2' }).click();
  await expect(rows).toHaveCount(2);

  // The accountant's export: last calendar month, as a plain link the browser downloads.
  const period = lastCalendarMonth(ukToday(new Date()));
  const csv = page.getByRole('link', { name: 'Download CSV' });
  await expect(csv).toHaveAttribute('href', `/api/invoices/export.csv?format=xero&from=${period.from}&to=${period.to}`);
  await page.getByRole('radio', { name: 'QuickBooks Online: invoices' }).check();
  await expect(csv).toHaveAttribute('href', /format=quickbooks&/);
  const file = await page.request.get((await csv.getAttribute('href'))!);
  expect(file.status(), await file.text()).toBe(200);
  // QuickBooks takes credit notes in a file of their own, and the page says how to import the two.
  await expect(page.getByText('QuickBooks imports invoices and credit notes separately')).toBeVisible();
  await page.getByRole('radio', { name: 'QuickBooks Online: credit notes' }).check();
  await expect(csv).toHaveAttribute('href', /format=quickbooks-credit-notes&/);

  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'invoices-page-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

  // A row opens its job.
  await rows.filter({ hasText: 'INV-0002' }).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: `${job.reference} for Mrs Jo Rowan` })).toBeVisible();

  // The same screens on a wide screen; Settings reached inside the app, its copy read before the invoices were issued.
  await page.setViewportSize(WIDE);
  await expect(invoiceCard(page.getByRole('region', { name: 'Invoices' }), page, 'INV-0002')).toBeVisible();
  await keepScreenshot(page, 'invoices-panel-1280');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('region', { name: 'Getting paid' })).toBeVisible();
  // Two numbers taken: the form shows the next one, not the one read before they were issued.
  await expect(page.getByLabel('Next invoice number')).toHaveValue('3');
  await expect(page.getByText('Your next invoice will be INV-0003.')).toBeVisible();
  await keepScreenshot(page, 'invoices-settings-1280');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invoices' }).click();
  await expect(page.getByRole('list', { name: 'Invoices' }).getByRole('listitem')).toHaveCount(2);
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'invoices-page-1280');

  // Corrections on the issued final invoice: a payment removed with its reason, then a part credited.
  await page.getByRole('list', { name: 'Invoices' }).getByRole('listitem').filter({ hasText: 'INV-0002' }).getByRole('link').click();
  const wideFinal = invoiceCard(page.getByRole('region', { name: 'Invoices' }), page, 'INV-0002');
  await wideFinal.getByRole('button', { name: 'Remove the payment of £500.00' }).click();
  const removeDialog = page.getByRole('dialog', { name: 'Remove this payment?' });
  await removeDialog.getByRole('button', { name: 'Remove the payment' }).click();
  await expect(removeDialog.getByText('Say why')).toBeVisible();
  await removeDialog.getByLabel('Why is it removed?').fill('The cheque bounced');
  await removeDialog.getByRole('button', { name: 'Remove the payment' }).click();
  await expect(removeDialog).toBeHidden();
  await expect(wideFinal.getByText('Issued', { exact: true })).toBeVisible();
  await wideFinal.getByRole('button', { name: 'Credit note' }).click();
  const creditDialog = page.getByRole('dialog', { name: 'Make a credit note' });
  await creditDialog.getByRole('radio', { name: 'Part of it' }).check();
  await creditDialog.getByLabel('Amount to credit (£)').fill('100');
  await creditDialog.getByLabel('Reason').fill('The stump was left for another day');
  await creditDialog.getByRole('button', { name: 'Make the credit note' }).click();
  await expect(creditDialog).toBeHidden();
  await expect(wideFinal).toContainText('£1,010.00');
  await wideFinal.getByText('History').click();
  await expect(wideFinal.getByText(/^Payment of £500\.00 removed on .*: The cheque bounced$/)).toBeVisible();
  await expect(wideFinal.getByText(/^Credit note CN-0001 for £100\.00 on .*: The stump was left for another day$/)).toBeVisible();
  await expectNoSeriousAxeViolations(page, '[data-invoices-panel]');
});
