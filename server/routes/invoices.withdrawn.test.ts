import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_LINK_MESSAGES, type Invoice } from '../../core/invoices';
import { invoiceLinks } from '../../db/schema';
import { invoiceOf } from '../../testing/invoices';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';
import { sendDueInvoiceReminders } from '../invoices/reminders';
import { createLogger } from '../log';

/*
 * Withdrawn means withdrawn (docs/security.md, Customer links): an invoice sent to a wrong
 * address has its links withdrawn; after that, recording a payment, a refund or a credit note and
 * the overdue reminder send nothing there and make no new link. What was due waits on the invoice, and goes
 * to the address the surgeon types when they send it again.
 */
let server: TestServer;
let owner: TestClient;
const CUSTOMER = 'sam.customer@example.com';
const WRONG = 'sam.customer@exampel.com';
const DAY = 86_400_000;

beforeAll(async () => {
  server = await startTestServer();
  owner = (await ownerWithProfile(server)).client;
  const saved = await owner.request('PATCH', '/api/system-settings', { bankDetails: { accountName: 'Birch Brothers Ltd', sortCode: '40-11-62', accountNumber: '71234567' } });
  expect(saved.status).toBe(200);
});
afterAll(() => server.close());

const outbox = (): string[] => outboxMessages(server.dataDir).map((m) => m.text);
const remind = () =>
  sendDueInvoiceReminders({ db: server.db, clock: server.clock, mailer: server.mailer, config: server.config, photos: server.photos, logger: createLogger({ destination: { write: () => undefined } }) });
const linksOf = (invoiceId: number) => server.db.select().from(invoiceLinks).where(eq(invoiceLinks.invoiceId, invoiceId)).all().length;
const tokenIn = (mail: string) => mail.match(/\/invoice\/([A-Za-z0-9_-]{43})/)?.[1] ?? '';
const opens = async (token: string) => (await fetch(`${server.url}/api/invoice-links/${token}`)).status;

/** An issued final invoice of £480, e-mailed to the wrong address and its links withdrawn. */
async function withdrawnInvoice(): Promise<{ invoice: Invoice; wrongToken: string }> {
  const { job, token } = await sentLinesJob(server, owner, { name: 'Sam Customer', email: CUSTOMER }, [{ description: 'Fell the sycamore', price: '480' }]);
  expect((await acceptQuote(server, token)).status).toBe(200);
  const draft = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
  const issued = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
  const before = outbox().length;
  await invoiceOf(await owner.post(`/api/invoices/${issued.id}/send`, { email: WRONG }));
  await mailSettled(server);
  const wrongToken = tokenIn(outbox().slice(before).find((m) => addressedTo(m, WRONG))!);
  const withdrawn = await invoiceOf(await owner.post(`/api/invoices/${issued.id}/revoke`));
  expect(withdrawn.linksWithdrawnAt).not.toBeNull();
  return { invoice: withdrawn, wrongToken };
}

describe('after the links are withdrawn', () => {
  it('a payment, a refund, a credit note and the overdue reminder e-mail nobody and make no link; sent again to a typed address, what waited goes there', async () => {
    const { invoice, wrongToken } = await withdrawnInvoice();
    expect(await opens(wrongToken)).toBe(410);
    const links = linksOf(invoice.id);
    await mailSettled(server);
    const before = outbox().length;

    const first = await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments`, { amount: '80', paidOn: invoice.issuedOn, method: 'bank_transfer' }), 201);
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments/${first.payments[0]!.id}/refund`, { amount: '30', reason: 'Overpaid by mistake' }));
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/credit-notes`, { amount: '20', reason: 'Logs left on site' }), 201);
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments`, { amount: '100', paidOn: invoice.issuedOn, method: 'cash' }), 201);
    // Due 7 days after issue; the first reminder 3 days after that.
    server.clock.advance(10 * DAY);
    expect(remind()).toBe(0);
    expect(remind()).toBe(0);
    await mailSettled(server);
    expect(outbox().slice(before)).toEqual([]);
    expect(linksOf(invoice.id)).toBe(links);
    const waiting = await invoiceOf(await owner.get(`/api/invoices/${invoice.id}`));
    expect(waiting.heldMail.map((held) => held.kind)).toEqual(['receipt', 'credit_note', 'credit_note', 'receipt', 'reminder']);
    expect(waiting.status).toBe('overdue');

    // Sending again needs the address typed: the one on file may be the wrong person's.
    const untyped = await owner.post(`/api/invoices/${invoice.id}/send`, {});
    expect(untyped.status).toBe(400);
    expect((await untyped.json()).message).toBe(INVOICE_LINK_MESSAGES.confirmAddress);
    for (const email of [['x@example.com'], 'not an address', `${'a'.repeat(250)}@example.com`]) {
      expect((await owner.post(`/api/invoices/${invoice.id}/send`, { email })).status).toBe(400);
    }
    await mailSettled(server);
    expect(outbox().slice(before)).toEqual([]);

    const sent = await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/send`, { email: CUSTOMER }));
    expect(sent).toMatchObject({ sentTo: CUSTOMER, linksWithdrawnAt: null, heldMail: [] });
    await mailSettled(server);
    const mails = outbox().slice(before);
    expect(mails.every((m) => addressedTo(m, CUSTOMER))).toBe(true);
    expect(mails.filter((m) => m.includes(`has sent you an invoice`))).toHaveLength(1);
    const receipts = mails.filter((m) => m.includes('has received your payment'));
    // Background mail goes out side by side: the order of arrival is not the test's.
    expect(receipts.map((m) => /payment of (£[\d.]+)/.exec(m)?.[1]).sort()).toEqual(['£100.00', '£80.00']);
    // The refund's e-mail and the credit note's, each with its credit note's PDF.
    const refunded = mails.filter((m) => m.includes('has refunded £30.00 to you'));
    expect(refunded).toHaveLength(1);
    const credited = mails.filter((m) => /has issued credit note \S+ for £20\.00/.test(m));
    expect(credited).toHaveLength(1);
    for (const mail of [...refunded, ...credited]) expect(mail).toMatch(/filename="?credit-note-[A-Za-z0-9-]+\.pdf/);
    const reminders = mails.filter((m) => m.includes(`was due on`));
    expect(reminders).toHaveLength(1);
    // £480 less £150 kept, the refund's £30 credit note and the £20 one.
    expect(reminders[0]).toContain('£280.00 is still to pay');
    expect(mails).toHaveLength(6);
    for (const mail of mails) expect(await opens(tokenIn(mail))).toBe(200);
    expect(await opens(wrongToken)).toBe(410);

    // From now on a payment's receipt and a credit note go straight to the confirmed address.
    const after = outbox().length;
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments`, { amount: '30', paidOn: invoice.issuedOn, method: 'cash' }), 201);
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/credit-notes`, { amount: '10', reason: 'Gate post scraped' }), 201);
    await mailSettled(server);
    const straight = outbox().slice(after);
    expect(straight.filter((m) => addressedTo(m, CUSTOMER) && m.includes('has received your payment of £30.00'))).toHaveLength(1);
    expect(straight.filter((m) => addressedTo(m, CUSTOMER) && /has issued credit note \S+ for £10\.00/.test(m))).toHaveLength(1);
    expect(straight.some((m) => addressedTo(m, WRONG))).toBe(false);
  });

  it('a card payment landing after the withdrawal (a deposit paid on the demo page) sends the customer no receipt until sent again', async () => {
    const { client: cardOwner } = await ownerWithProfile(server);
    expect((await cardOwner.request('PATCH', '/api/system-settings', { depositRule: { percent: 10, overAmount: '100' } })).status).toBe(200);
    const { token } = await sentLinesJob(server, cardOwner, { name: 'Sam Customer', email: CUSTOMER }, [{ description: 'Dismantle the poplar', price: '500' }]);
    const accepted = await fetch(`${server.url}/api/quotes/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin },
      body: JSON.stringify({ name: 'Sam Customer', acceptTerms: true, payDeposit: 'card' }),
    });
    expect(accepted.status).toBe(200);
    const { deposit } = (await accepted.json()) as { deposit: { invoiceId: number; payUrl: string } };
    await invoiceOf(await cardOwner.post(`/api/invoices/${deposit.invoiceId}/revoke`));
    await mailSettled(server);
    const before = outbox().length;
    const pay = new URL(deposit.payUrl);
    const paid = await fetch(`${server.url}${pay.pathname}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin, 'sec-fetch-site': 'same-origin' }, body: '' });
    expect(paid.status).toBe(303);
    const recorded = await invoiceOf(await cardOwner.get(`/api/invoices/${deposit.invoiceId}`));
    expect(recorded).toMatchObject({ status: 'paid', heldMail: [{ kind: 'receipt' }] });
    await mailSettled(server);
    expect(outbox().slice(before).filter((m) => addressedTo(m, CUSTOMER))).toEqual([]);
    // The owner is told the receipt waits, not that it was sent.
    const told = outbox().slice(before).filter((m) => m.includes('paid £50.00 by card'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("the customer's receipt waits until you send the invoice again");

    await invoiceOf(await cardOwner.post(`/api/invoices/${deposit.invoiceId}/send`, { email: CUSTOMER }));
    await mailSettled(server);
    expect(outbox().slice(before).filter((m) => addressedTo(m, CUSTOMER) && m.includes('has received your payment of £50.00'))).toHaveLength(1);
  });

  it('a reminder that waited is dropped when the invoice is paid before it is sent again', async () => {
    const { invoice } = await withdrawnInvoice();
    server.clock.advance(10 * DAY);
    remind();
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments`, { amount: '480', paidOn: invoice.issuedOn, method: 'bank_transfer' }), 201);
    expect((await invoiceOf(await owner.get(`/api/invoices/${invoice.id}`))).heldMail.map((held) => held.kind)).toEqual(['reminder', 'receipt']);
    await mailSettled(server);
    const before = outbox().length;
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/send`, { email: CUSTOMER }));
    await mailSettled(server);
    const mails = outbox().slice(before);
    expect(mails.filter((m) => m.includes('was due on'))).toEqual([]);
    expect(mails.filter((m) => m.includes('has received your payment of £480.00') && m.includes('is now paid in full'))).toHaveLength(1);
    expect(mails.every((m) => addressedTo(m, CUSTOMER))).toBe(true);
  });
});
