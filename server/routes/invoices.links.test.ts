import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_LINK_MESSAGES, publicInvoiceResponseSchema, type Invoice } from '../../core/invoices';
import { invoiceOf } from '../../testing/invoices';
import { advanceKeepingSession, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';
import { sendDueInvoiceReminders } from '../invoices/reminders';
import { createLogger } from '../log';

/*
 * The invoice on its way to the customer (docs/product.md, Getting paid): e-mailed as the
 * business with its PDF and a link; the link opens the customer's copy with how to pay, marks it
 * viewed, and is refused when guessed, too long or withdrawn; each payment sends a receipt.
 */
let server: TestServer;
let owner: TestClient;
const CUSTOMER = 'pat.customer@example.com';
const BANK = { accountName: 'Birch Brothers Ltd', sortCode: '40-11-62', accountNumber: '71234567' };

beforeAll(async () => {
  server = await startTestServer();
  owner = (await ownerWithProfile(server)).client;
  const saved = await owner.request('PATCH', '/api/system-settings', { bankDetails: BANK });
  expect(saved.status).toBe(200);
});
afterAll(() => server.close());


/** Every message in the outbox, decoded, oldest first. */
const outbox = (): string[] => outboxMessages(server.dataDir).map((message) => message.text);

async function issuedInvoice(): Promise<Invoice> {
  const { job, token } = await sentLinesJob(server, owner, { name: 'Pat Customer', email: CUSTOMER }, [{ description: 'Fell the ash', price: '480' }]);
  expect((await acceptQuote(server, token)).status).toBe(200);
  const draft = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
  return invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
}

/** Sends the invoice and reads its link's token from the e-mail the customer got. */
async function sendAndReadLink(invoice: Invoice, body: { email?: string } = {}): Promise<{ mail: string; token: string }> {
  const before = outbox().length;
  await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/send`, body));
  await mailSettled(server);
  const mail = outbox()
    .slice(before)
    .find((m) => addressedTo(m, CUSTOMER) && m.includes(`Invoice ${invoice.number}`));
  const token = mail?.match(/\/invoice\/([A-Za-z0-9_-]{43})/)?.[1];
  if (!mail || !token) throw new Error('no invoice link e-mailed');
  return { mail, token };
}

const publicGet = (token: string, suffix = '') => fetch(`${server.url}/api/invoice-links/${token}${suffix}`);

describe('the invoice e-mail and link', () => {
  it('goes to the customer as the business, with the PDF and a link to their copy with how to pay', async () => {
    const invoice = await issuedInvoice();
    const { mail, token } = await sendAndReadLink(invoice);
    expect(mail).toMatch(/^Reply-To: office@birch\.example/im);
    expect(mail).toMatch(/^From: "?Birch Brothers"?/im);
    expect(mail).toContain(`filename=invoice-${invoice.number}.pdf`);
    expect(mail).toContain(`sort code 40-11-62, account number 71234567, with the reference ${invoice.number}`);

    const res = await publicGet(token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const copy = publicInvoiceResponseSchema.parse(await res.json()).invoice;
    expect(copy).toMatchObject({ number: invoice.number, owed: '480.00', chargesVat: false, bankTransfer: { ...BANK, reference: invoice.number }, payByCard: true });
    expect((await invoiceOf(await owner.get(`/api/invoices/${invoice.id}`))).status).toBe('viewed');

    const pdf = await publicGet(token, '/invoice.pdf');
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a guessed or overlong token is a 404 that says what to do; a withdrawn link is a 410; a new send works again', async () => {
    const invoice = await issuedInvoice();
    const { token } = await sendAndReadLink(invoice);
    for (const guess of ['A'.repeat(43), token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), 'x'.repeat(5000)]) {
      const res = await publicGet(guess);
      expect(res.status).toBe(404);
      expect((await res.json()).message).toBe(INVOICE_LINK_MESSAGES.unknown);
    }
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/revoke`));
    const gone = await publicGet(token);
    expect(gone.status).toBe(410);
    expect((await gone.json()).message).toBe(INVOICE_LINK_MESSAGES.revoked);
    expect((await publicGet(token, '/invoice.pdf')).status).toBe(410);
    // Sent again only to an address typed (held-mail.ts): the one on file may be the wrong person's.
    const again = await sendAndReadLink(invoice, { email: CUSTOMER });
    expect((await publicGet(again.token)).status).toBe(200);
    expect((await publicGet(token)).status).toBe(410);
  });

  it('a draft cannot be sent (409); another account’s invoice cannot be sent or withdrawn (404)', async () => {
    const { job, token } = await sentLinesJob(server, owner, { name: 'Pat Customer', email: CUSTOMER }, [{ description: 'Fell', price: '100' }]);
    expect((await acceptQuote(server, token)).status).toBe(200);
    const draft = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
    expect((await owner.post(`/api/invoices/${draft.id}/send`, {})).status).toBe(409);
    const { client: stranger } = await ownerWithProfile(server);
    expect((await stranger.post(`/api/invoices/${draft.id}/send`, {})).status).toBe(404);
    expect((await stranger.post(`/api/invoices/${draft.id}/revoke`)).status).toBe(404);
  });

  it('each payment sends the customer a receipt saying what is left, with its own working link', async () => {
    const invoice = await issuedInvoice();
    await sendAndReadLink(invoice);
    const before = outbox().length;
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments`, { amount: '80', paidOn: '2026-06-01', method: 'bank_transfer' }), 201);
    await invoiceOf(await owner.post(`/api/invoices/${invoice.id}/payments`, { amount: '400', paidOn: '2026-06-01', method: 'cash' }), 201);
    await mailSettled(server);
    const receipts = outbox()
      .slice(before)
      .filter((m) => addressedTo(m, CUSTOMER) && m.includes('has received your payment'));
    expect(receipts).toHaveLength(2);
    expect(receipts.some((m) => m.includes('£400.00 is still to pay'))).toBe(true);
    expect(receipts.some((m) => m.includes(`${invoice.number} is now paid in full`))).toBe(true);
    const token = receipts[0]!.match(/\/invoice\/([A-Za-z0-9_-]{43})/)![1]!;
    const copy = publicInvoiceResponseSchema.parse(await (await publicGet(token)).json()).invoice;
    expect(copy.status).toBe('paid');
    expect(copy.payments).toEqual([
      { amount: '80.00', paidOn: '2026-06-01' },
      { amount: '400.00', paidOn: '2026-06-01' },
    ]);
  });

  it('an overdue invoice gets at most two reminders, each with the link and the PDF, and none once paid', async () => {
    const remind = () => sendDueInvoiceReminders({ db: server.db, clock: server.clock, mailer: server.mailer, config: server.config, photos: server.photos, logger: createLogger({ destination: { write: () => undefined } }) });
    const invoice = await issuedInvoice();
    const paidOne = await issuedInvoice();
    await sendAndReadLink(invoice);
    await sendAndReadLink(paidOne);
    await invoiceOf(await owner.post(`/api/invoices/${paidOne.id}/payments`, { amount: '480', paidOn: paidOne.issuedOn, method: 'bank_transfer' }), 201);
    const day = 86_400_000;
    const remindersOf = async (id: number) => (await invoiceOf(await owner.get(`/api/invoices/${id}`))).remindersSent.length;
    const before = outbox().length;
    // Due 7 days after issue; the first reminder 3 days after that, the second 7 days after it.
    server.clock.advance(9 * day);
    remind();
    expect(await remindersOf(invoice.id)).toBe(0);
    server.clock.advance(1 * day);
    remind();
    remind();
    expect(await remindersOf(invoice.id)).toBe(1);
    server.clock.advance(4 * day);
    remind();
    expect(await remindersOf(invoice.id)).toBe(2);
    await advanceKeepingSession(server, owner, 30);
    expect(remind()).toBe(0);
    expect(await remindersOf(invoice.id)).toBe(2);
    expect(await remindersOf(paidOne.id)).toBe(0);
    await mailSettled(server);
    const reminders = outbox()
      .slice(before)
      .filter((m) => addressedTo(m, CUSTOMER) && m.includes('is still to pay') && m.includes(`${invoice.number} from`));
    expect(reminders).toHaveLength(2);
    expect(reminders.every((m) => m.includes(invoice.number!) && m.includes(`filename=invoice-${invoice.number}.pdf`))).toBe(true);
    // Background mail reaches the outbox in any order (docs/testing.md): the last reminder by its words, not its place.
    const last = reminders.filter((m) => m.includes('This is our last reminder'));
    expect(last).toHaveLength(1);
    const token = last[0]!.match(/\/invoice\/([A-Za-z0-9_-]{43})/)![1]!;
    expect((await publicGet(token)).status).toBe(200);
    const seen = await invoiceOf(await owner.get(`/api/invoices/${invoice.id}`));
    expect(seen.status).toBe('overdue');
    expect(seen.remindersSent).toHaveLength(2);
  });
});
