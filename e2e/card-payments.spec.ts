import type { Locator, Page } from '@playwright/test';
import type { PaymentsSetup } from '../core/card-payments';
import { addDays, ukToday } from '../core/job-booking';
import { invoiceListSchema } from '../core/invoices';
import { jobResponseSchema } from '../core/jobs';
import { ok } from './api-answer';
import { expectNoSeriousAxeViolations } from './axe';
import { expect, test } from './fixtures';
import { keepScreenshot } from './keep-screenshot';
import { waitForMail } from './mailbox';
import { signedInAccount } from './operator';
import { e2eEnv } from './rig/env';

/*
 * Customers' card payments on a 390 px phone with the demo provider (the e2e server has no Stripe
 * keys; docs/product.md, Card payments): Settings says card payments are a demo → a 10% deposit
 * rule over £500 → a £1,200 job whose page says what the quote asks, sent → the customer opens the
 * quote from the e-mail and accepts with "Accept and pay the £120.00 deposit" → the demo's page,
 * one tap → back on the quote, "Deposit paid" → the owner's e-mail says so → booked and done →
 * the final invoice less the deposit, issued and sent → the customer pays it by card on the demo
 * page → "Paid in full" → the owner refunds £25.00 of it with a reason: the refund and its credit
 * note on the job's invoice. Then a second job asking its own 20% deposit (set on its page), paid
 * twice (a bank transfer, then the card from the quote page) and cancelled: the Invoices page
 * lists the card payment to refund (marked as refunded) and the refund due after the
 * cancellation, and the job says so until its payment is refunded. Last,
 * Settings under Stripe Connect, its answers stood in for: Connect with Stripe, back with what
 * Stripe still needs in words, then taking payments.
 */
const PHONE = { width: 390, height: 844 };
const origin = () => ({ Origin: e2eEnv('baseURL') });

function invoiceCard(panel: Locator, page: Page, name: string): Locator {
  return panel.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: new RegExp(`^${name} ·`) }) });
}

const invoiceLinkIn = (text: string | undefined) => /https?:\/\/\S+\/invoice\/[A-Za-z0-9_-]{43}/.exec(text ?? '')?.[0];
const quoteLinkIn = (text: string | undefined) => /https?:\/\/\S+\/quote\/[A-Za-z0-9_-]{43}/.exec(text ?? '')?.[0];

test.describe.configure({ mode: 'serial' });

test('card payments on the demo provider: a deposit on acceptance, the final invoice, part of it refunded, money to pay back, and Connect’s set-up', async ({ page, browser }) => {
  await page.setViewportSize(PHONE);
  const owner = await signedInAccount(page);
  const email = `card-${owner.username}@example.test`;
  await ok(
    page.request.patch('/api/system-settings', {
      data: { companyProfile: { tradingName: 'Rowan & Ash Tree Care', phone: '01632 960456', email: 'office@rowan.example', address: '2 Mill Lane, Hereford', vatNumber: '', quoteValidityDays: 30 } },
      headers: origin(),
    }),
  );

  // Settings → Getting paid: bank details, a 10% deposit on jobs over £500, and card payments said to be a demo.
  await page.goto('/settings#getting-paid');
  const gettingPaid = page.getByRole('region', { name: 'Getting paid' });
  const bank = gettingPaid.getByRole('form', { name: 'Bank details' });
  await bank.getByLabel('Account name').fill('Rowan & Ash Tree Care Ltd');
  await bank.getByLabel('Sort code').fill('40-11-62');
  await bank.getByLabel('Account number').fill('31926819');
  await bank.getByRole('button', { name: 'Save Bank Details' }).click();
  await expect(gettingPaid.getByRole('button', { name: 'Replace bank details' })).toBeVisible();
  const terms = gettingPaid.getByRole('form', { name: 'Payment terms and deposits' });
  await terms.getByRole('checkbox', { name: 'Suggest a deposit on larger jobs' }).check();
  await terms.getByLabel('Deposit (%)').fill('10');
  await terms.getByLabel('For jobs over (£)').fill('500');
  await terms.getByRole('button', { name: 'Save Payment Terms' }).click();
  await expect(page.getByText(/a 10% deposit is suggested on jobs over £500\.00/)).toBeVisible();
  // Back from Stripe's onboarding with a link that had expired (Connect only, but the page says it on any install).
  await page.goto('/settings?payments=failed#getting-paid');
  await expect(page.getByRole('alert').filter({ hasText: 'The link to Stripe expired before the set-up was finished.' })).toBeVisible();
  const card = gettingPaid.getByRole('heading', { level: 3, name: 'Card payments' });
  await expect(card).toBeVisible();
  await expect(gettingPaid.getByText('Demo card payments (no money moves)')).toBeVisible();
  await expect(gettingPaid.getByText(/Card payments on this install are a demo: .* no money moves\. To take real card payments, ask whoever runs this install to connect it to Stripe\./)).toBeVisible();
  // Said in the surgeon's words, not as a file of the install's documentation.
  await expect(gettingPaid.getByText(/docs\/payments\.md/)).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'card-1-settings-390');

  // A £1,200 job: its page says what the quote will ask, and it is sent from there.
  const { job } = jobResponseSchema.parse(await ok(page.request.post('/api/jobs', { data: { customer: { name: 'Ms Robin Ash', email, siteAddress: '5 Weir Road, Hereford HR4 0AA' } }, headers: origin() }), 201));
  await ok(page.request.post(`/api/jobs/${job.id}/lines`, { data: { description: 'Reduce the crown of the copper beech by 2 m', price: '1200' }, headers: origin() }), 201);
  await page.goto(`/jobs/${job.id}`);
  const deposit = page.getByRole('region', { name: 'Deposit on acceptance' });
  await expect(deposit).toContainText('The quote asks a 10% deposit on totals over £500.00.');
  await expect(deposit.getByRole('radio', { name: /^Follow my deposit rule \(a 10% deposit on totals over £500\.00\)/ })).toBeChecked();
  await deposit.scrollIntoViewIfNeeded();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'card-2-job-deposit-390');
  const quoteSentAt = Date.now();
  await page.getByRole('region', { name: 'Send the quote' }).getByRole('button', { name: 'Send quote' }).click();
  await expect(page.getByText(/Version 1 sent to/)).toBeVisible();

  // The customer opens the quote from the e-mail and accepts, paying the deposit by card.
  const quoteMail = await waitForMail(email, { since: quoteSentAt });
  const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
  await phone.goto(quoteLinkIn(quoteMail.mail.text)!);
  const accept = phone.getByRole('group', { name: 'Accept the quote' });
  await expect(accept).toContainText('A deposit of £120.00 (10% of the total) is asked when you accept.');
  await accept.getByLabel('Your full name').fill('Robin Ash');
  await accept.getByLabel('I accept the terms of this quote').check();
  await expect(accept.getByRole('button', { name: 'Pay by bank transfer instead' })).toBeVisible();
  const paidAt = Date.now();
  await accept.getByRole('button', { name: 'Accept and pay the £120.00 deposit' }).click();
  await expect(phone).toHaveURL(/\/pay\/demo\//);
  await expect(phone.getByText('This is a demo.')).toBeVisible();
  await expectNoSeriousAxeViolations(phone);
  await keepScreenshot(phone, 'card-3-demo-deposit-390');
  await phone.getByRole('button', { name: 'Pay £120.00 (demo)' }).click();
  await expect(phone).toHaveURL(/\/quote\//);
  const paid = phone.getByRole('status', { name: 'Deposit paid' });
  await expect(paid).toContainText('Your deposit of £120.00 has been paid.');
  await keepScreenshot(phone, 'card-4-quote-deposit-paid-390');

  // The owner's e-mail says so; the customer has a receipt.
  const ownerMail = await waitForMail(owner.email, { since: paidAt, subject: /^Deposit paid: £120\.00 for INV-0001/ });
  expect(ownerMail.mail.text).toContain('paid £120.00 by card towards deposit invoice INV-0001.');
  await waitForMail(email, { since: paidAt, subject: /Payment received: £120\.00 for INV-0001/ });

  // The job page: the deposit invoice paid by card online. Booked and done (the booking's own walk is e2e/job-booking.spec.ts).
  await page.reload();
  const panel = page.getByRole('region', { name: 'Invoices' });
  const depositCard = invoiceCard(panel, page, 'INV-0001');
  await expect(depositCard.getByText('Paid', { exact: true })).toBeVisible();
  await expect(depositCard.getByRole('list', { name: 'Payments' })).toContainText(/£120\.00 paid by card \(online\) on /);
  await expect(page.getByRole('region', { name: 'Deposit on acceptance' })).toHaveCount(0);
  // The first day after the customer's 14-day cancellation period: they did not ask to start early.
  await ok(page.request.post(`/api/jobs/${job.id}/book`, { data: { date: addDays(ukToday(new Date()), 15) }, headers: origin() }));
  await ok(page.request.post(`/api/jobs/${job.id}/done`, { data: { actuals: [] }, headers: origin() }));

  // The final invoice: the accepted £1,200 less the £120 deposit, issued and sent.
  await page.reload();
  await panel.getByRole('button', { name: 'Make final invoice' }).click();
  const finalDialog = page.getByRole('dialog', { name: 'Make the final invoice' });
  await finalDialog.getByRole('button', { name: 'Make final invoice' }).click();
  await expect(finalDialog).toBeHidden();
  await invoiceCard(panel, page, 'Draft').getByRole('button', { name: 'Issue' }).click();
  const final = invoiceCard(panel, page, 'INV-0002');
  await expect(final.getByText('Issued', { exact: true })).toBeVisible();
  await expect(final).toContainText('£1,080.00');
  await final.getByText(/^Lines/).click();
  await expect(final.getByText(/Less deposit invoiced on INV-0001/)).toBeVisible();
  const sentAt = Date.now();
  await final.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('dialog', { name: 'Send INV-0002' }).getByRole('button', { name: 'Send the invoice' }).click();
  await expect(final.getByRole('button', { name: 'Send again' })).toBeVisible();

  // The customer opens the invoice from the e-mail and pays it by card.
  const invoiceMail = await waitForMail(email, { since: sentAt, subject: /INV-0002/ });
  await phone.goto(invoiceLinkIn(invoiceMail.mail.text)!);
  await phone.getByRole('button', { name: 'Pay £1,080.00 by card' }).click();
  await expect(phone.getByText('This is a demo.')).toBeVisible();
  await phone.getByRole('button', { name: 'Pay £1,080.00 (demo)' }).click();
  await expect(phone.getByText('Paid in full. Thank you.')).toBeVisible();
  await expectNoSeriousAxeViolations(phone);
  await keepScreenshot(phone, 'card-5-invoice-paid-390');

  // The owner refunds £25.00 of the card payment, with a reason: back to the card, with a credit note.
  await page.reload();
  const payments = invoiceCard(panel, page, 'INV-0002').getByRole('list', { name: 'Payments' });
  await expect(payments).toContainText(/£1,080\.00 paid by card \(online\) on /);
  await payments.getByRole('button', { name: 'Refund the payment of £1,080.00' }).click();
  const refund = page.getByRole('dialog', { name: 'Refund this payment' });
  await expect(refund.getByLabel('Amount to refund (£)')).toHaveValue('1080.00');
  await expect(refund.getByText('At most £1,080.00, what is left of this payment.')).toBeVisible();
  await expect(refund.getByText(/goes back to the customer’s card: on this install’s demo card payments, no money moves\. A credit note for the same amount is issued/)).toBeVisible();
  await refund.getByRole('button', { name: 'Refund' }).click();
  await expect(refund.getByText('Say why')).toBeVisible();
  await refund.getByLabel('Amount to refund (£)').fill('2000');
  await refund.getByLabel('Reason').fill('The log pile was left for the customer');
  await refund.getByRole('button', { name: 'Refund' }).click();
  await expect(refund.getByText('At most £1,080.00 of this payment can be refunded: what was paid and not yet refunded.')).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'card-6-refund-dialog-390');
  await refund.getByLabel('Amount to refund (£)').fill('25');
  await refund.getByRole('button', { name: 'Refund' }).click();
  await expect(refund).toBeHidden();
  await expect(page.getByText('Refund made')).toBeVisible();
  const refunds = payments.getByRole('list', { name: 'Refunds of £1,080.00' });
  await expect(refunds).toContainText(/^£25\.00 refunded on .*: The log pile was left for the customer \(credit note CN-0001\)$/);
  // Refunded in part: it stays in the record, and £1,055.00 of it can still be refunded.
  await expect(payments.getByRole('button', { name: 'Remove the payment of £1,080.00' })).toHaveCount(0);
  await expect(payments.getByRole('button', { name: 'Refund the payment of £1,080.00' })).toHaveCount(0);
  await payments.getByRole('button', { name: 'Refund the £1,055.00 left of the payment of £1,080.00' }).click();
  await expect(refund.getByLabel('Amount to refund (£)')).toHaveValue('1055.00');
  await expect(refund.getByText(/£25\.00 refunded so far: £1,055\.00 left\./)).toBeVisible();
  await refund.getByRole('button', { name: 'Cancel' }).click();
  await expect(refund).toBeHidden();
  const finalCard = invoiceCard(panel, page, 'INV-0002');
  await finalCard.getByText('History').click();
  await expect(finalCard.getByText(/^Credit note CN-0001 for £25\.00 on .*: Refund: The log pile was left for the customer$/)).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await finalCard.scrollIntoViewIfNeeded();
  await keepScreenshot(page, 'card-7-refunded-390');

  // A second job, under the rule's £500: this job asks its own 20% deposit, set on its page before sending.
  const otherEmail = `card2-${owner.username}@example.test`;
  const other = jobResponseSchema.parse(await ok(page.request.post('/api/jobs', { data: { customer: { name: 'Mr Lee Hazel', email: otherEmail, siteAddress: '8 Weir Road, Hereford HR4 0AB' } }, headers: origin() }), 201)).job;
  await ok(page.request.post(`/api/jobs/${other.id}/lines`, { data: { description: 'Grind the sycamore stump', price: '300' }, headers: origin() }), 201);
  await page.goto(`/jobs/${other.id}`);
  const ownDeposit = page.getByRole('region', { name: 'Deposit on acceptance' });
  await expect(ownDeposit).toContainText("The quote asks a 10% deposit on totals over £500.00. This job's £300.00 is not over that, so none is asked.");
  await ownDeposit.getByRole('radio', { name: 'A percentage of the accepted total' }).check();
  await ownDeposit.getByLabel('Deposit (%)').fill('20');
  await ownDeposit.getByRole('button', { name: 'Set the deposit' }).click();
  await expect(ownDeposit).toContainText('The quote asks a 20% deposit.');
  const otherSentAt = Date.now();
  await page.getByRole('region', { name: 'Send the quote' }).getByRole('button', { name: 'Send quote' }).click();
  await expect(page.getByText(/Version 1 sent to/)).toBeVisible();
  const otherQuote = quoteLinkIn((await waitForMail(otherEmail, { since: otherSentAt })).mail.text)!;
  // Accepted to pay by bank transfer: the £60.00 deposit invoice is made and issued (INV-0003).
  const token = /\/quote\/([A-Za-z0-9_-]{43})/.exec(otherQuote)?.[1];
  await ok(page.request.post(`/api/quotes/${token}/accept`, { data: { name: 'Lee Hazel', acceptTerms: true, optionalItemIds: [], startWithinCancellationPeriod: false, payDeposit: 'bank' }, headers: origin() }));
  const third = invoiceListSchema.parse(await ok(page.request.get(`/api/jobs/${other.id}/invoices`))).invoices[0]!;
  expect([third.number, third.totals.gross]).toEqual(['INV-0003', '60.00']);

  // The customer starts paying it by card from the quote page; the owner records their bank transfer meanwhile; the card payment then arrives for an invoice already paid.
  await phone.goto(otherQuote);
  await phone.getByRole('button', { name: 'Pay the £60.00 deposit by card' }).click();
  await expect(phone.getByText('This is a demo.')).toBeVisible();
  await ok(page.request.post(`/api/invoices/${third.id}/payments`, { data: { amount: '60.00', paidOn: ukToday(new Date()), method: 'bank_transfer' }, headers: origin() }), 201);
  await phone.getByRole('button', { name: 'Pay £60.00 (demo)' }).click();
  await expect(phone.getByRole('status', { name: 'Deposit paid' })).toBeVisible();
  // And the customer cancels within their 14 days, by phone: the £60.00 is to be paid back.
  await ok(page.request.post(`/api/jobs/${other.id}/cancel`, { data: { receivedOn: ukToday(new Date()), via: 'phone' }, headers: origin() }));

  // The Invoices page lists both, above the invoices.
  await page.goto('/invoices');
  const toRefund = page.getByRole('region', { name: 'Card payments to refund' });
  await expect(toRefund.getByRole('listitem')).toHaveCount(1);
  await expect(toRefund).toContainText('£60.00 · INV-0003');
  await expect(toRefund).toContainText('The invoice was already paid or credited');
  const due = page.getByRole('region', { name: 'Refunds due after a cancellation' });
  await expect(due).toContainText(/Mr Lee Hazel: £60\.00 to refund by \w{3} \d{1,2} \w+ \d{4}/);
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'card-8-invoices-to-refund-390');
  await toRefund.getByRole('button', { name: /^Mark as refunded/ }).click();
  const resolve = page.getByRole('dialog', { name: 'Mark as refunded' });
  await resolve.getByLabel('Note').fill('Refunded in full in Stripe');
  await resolve.getByRole('button', { name: 'Mark as refunded' }).click();
  await expect(resolve).toBeHidden();
  await expect(toRefund).toHaveCount(0);

  // The job says what is to refund and by when, until its payment is refunded (by the business: it was a bank transfer).
  await due.getByRole('link', { name: 'Open the job for Mr Lee Hazel' }).click();
  const owing = page.getByText(/^£60\.00 to refund by .*: the customer cancelled on /);
  await expect(owing).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await keepScreenshot(page, 'card-9-job-refund-due-390');
  const otherPanel = page.getByRole('region', { name: 'Invoices' });
  await invoiceCard(otherPanel, page, 'INV-0003').getByRole('button', { name: 'Refund the payment of £60.00' }).click();
  const refundBank = page.getByRole('dialog', { name: 'Refund this payment' });
  await expect(refundBank).toContainText('This payment was not taken online: pay the customer back yourself');
  await refundBank.getByLabel('Reason').fill('Cancelled within 14 days');
  await refundBank.getByRole('button', { name: 'Refund' }).click();
  await expect(refundBank).toBeHidden();
  await expect(owing).toHaveCount(0);
  await expect(invoiceCard(otherPanel, page, 'INV-0003').getByRole('list', { name: 'Refunds of £60.00' })).toContainText('(credit note CN-0002)');
  await phone.context().close();

  // Under Stripe Connect (the e2e server runs the demo, so the set-up's answers are stood in for here):
  // Connect with Stripe, back with Stripe still needing details, then taking payments.
  let setup: PaymentsSetup = { provider: 'connect', connected: false, chargesEnabled: false, detailsSubmitted: false, requirements: [], applicationFeePercent: '1.5', accountId: null };
  await page.route('**/api/payments-setup', (route) => route.fulfill({ json: setup }));
  await page.route('**/api/payments-setup/onboarding', (route) => route.fulfill({ json: { url: `${e2eEnv('baseURL')}/settings?payments=returned#getting-paid` } }));
  await page.goto('/settings#getting-paid');
  await expect(gettingPaid.getByText('Your own Stripe account (Stripe Connect)')).toBeVisible();
  await expect(gettingPaid.getByText('This install keeps 1.5% of each card payment (your customers never see it).')).toBeVisible();
  setup = { ...setup, connected: true, detailsSubmitted: true, requirements: ['external_account', 'individual.dob.day', 'individual.dob.month', 'business_profile.url'], accountId: 'acct_1TestConnect' };
  await gettingPaid.getByRole('button', { name: 'Connect with Stripe' }).click();
  await expect(page).toHaveURL(/\/settings\?payments=returned#getting-paid$/);
  await expect(gettingPaid.getByRole('button', { name: 'Continue set-up with Stripe' })).toBeVisible();
  await expect(gettingPaid.getByRole('list').filter({ hasText: 'a bank account for payouts' }).getByRole('listitem')).toHaveText(['a bank account for payouts', 'your date of birth', "your business's website"]);
  await expectNoSeriousAxeViolations(page);
  await gettingPaid.getByRole('heading', { level: 3, name: 'Card payments' }).scrollIntoViewIfNeeded();
  await keepScreenshot(page, 'card-10-settings-connect-390');
  setup = { ...setup, chargesEnabled: true, requirements: [] };
  await page.reload();
  await expect(gettingPaid.getByText('Taking card payments')).toBeVisible();
  await expect(gettingPaid).toContainText('through your Stripe account acct_1TestConnect.');
  await page.unroute('**/api/payments-setup');
  await page.unroute('**/api/payments-setup/onboarding');
});
