import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentsSetupSchema } from '../../core/card-payments';
import { publicInvoiceResponseSchema, type Invoice } from '../../core/invoices';
import { invoiceOf } from '../../testing/invoices';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, mailSettled, outboxMessages } from '../../testing/mail';
import { ownerWithProfile, sendQuoteTo, sentLinesJob } from '../../testing/quote-links';

/*
 * Card payments with the demo provider (docs/product.md, Card payments), the default with no
 * Stripe keys: a deposit asked on acceptance and paid on the demo's page, "Pay by card" on an
 * invoice, and a refund, each over HTTP as the customer and the owner do it. The demo's tap goes
 * through the same checks as a Stripe event (card-payments.stripe.test.ts has those).
 */
let server: TestServer;
let owner: TestClient;
const BANK = { accountName: 'Birch Brothers Ltd', sortCode: '40-11-62', accountNumber: '71234567' };
let customers = 0;

beforeAll(async () => {
  server = await startTestServer();
  owner = (await ownerWithProfile(server)).client;
  const saved = await owner.request('PATCH', '/api/system-settings', { bankDetails: BANK, depositRule: { percent: 10, overAmount: '100' } });
  expect(saved.status).toBe(200);
});
// The e-mails its payments, refunds and credit notes send (their PDFs made in the background) finish before the server goes.
afterAll(async () => {
  await mailSettled(server);
  await server.close();
});

const outbox = (): string[] => outboxMessages(server.dataDir).map((message) => message.text);

/** A quote of `price` sent to a new customer; their link's token. */
async function sentQuote(price: string): Promise<{ jobId: number; token: string; email: string }> {
  customers += 1;
  const email = `sam${customers}@example.com`;
  const { job, token } = await sentLinesJob(server, owner, { name: 'Sam Customer', email }, [{ description: 'Dismantle the sycamore', price }]);
  return { jobId: job.id, token, email };
}

const accept = (token: string, payDeposit?: 'card' | 'bank') =>
  fetch(`${server.url}/api/quotes/${token}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ name: 'Sam Customer', acceptTerms: true, ...(payDeposit ? { payDeposit } : {}) }),
  });

/** A form post from the customer's own page (the pages' same-page rule), not following the redirect. */
const postFromPage = (path: string, body = '') =>
  fetch(`${server.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin, 'sec-fetch-site': 'same-origin' }, body });

const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

async function depositInvoice(invoiceId: number): Promise<Invoice> {
  return invoiceOf(await owner.get(`/api/invoices/${invoiceId}`));
}

describe('a deposit on acceptance, paid on the demo page', () => {
  it('the copy carries the deposit; accepting answers it with the deposit invoice and a demo page to pay on, which pays in one tap', async () => {
    const { token, email, jobId } = await sentQuote('500');
    const copy = (await (await fetch(`${server.url}/api/quotes/${token}`)).json()) as { quote: { deposit?: { percent: string; over: string } } };
    // With how it can be paid, as it stood when sent: by card (the demo), or to the bank account.
    expect(copy.quote.deposit).toEqual({ percent: '10', over: '100.00', payBy: { card: true, bank: { accountName: 'Birch Brothers Ltd', sortCode: '40-11-62', accountNumber: '71234567' } } });
    const page = await (await fetch(`${server.url}/quote/${token}`)).text();
    expect(page).toContain('Accept and pay the <span data-total="deposit">£50.00</span> deposit');
    expect(page).toContain('Pay by bank transfer instead');

    const res = await accept(token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { quote: { answer: { kind: string } }; deposit: { amount: string; invoiceId: number; payUrl: string } };
    expect(body.quote.answer.kind).toBe('accepted');
    expect(body.deposit).toMatchObject({ amount: '50.00' });
    expect(body.deposit.payUrl).toMatch(new RegExp(`^${server.config.publicUrl}/pay/demo/demo_cs_[A-Za-z0-9_-]{43}$`));
    expect(await depositInvoice(body.deposit.invoiceId)).toMatchObject({ kind: 'deposit', status: 'issued', owed: '50.00', totals: { gross: '50.00' } });
    // The job waits for its deposit until it is paid.
    const money = async () => ((await (await owner.get('/api/invoices/jobs')).json()) as { jobs: { jobId: number; waitingForDeposit: boolean; state: string }[] }).jobs.find((j) => j.jobId === jobId);
    expect(await money()).toMatchObject({ state: 'deposit_due', waitingForDeposit: true });

    const demo = await fetch(`${server.url}${pathOf(body.deposit.payUrl)}`);
    expect(demo.status).toBe(200);
    const demoPage = await demo.text();
    expect(demoPage).toContain('This is a demo.');
    expect(demoPage).toContain('Pay £50.00 (demo)');
    // Coming back without paying records nothing.
    expect((await depositInvoice(body.deposit.invoiceId)).payments).toEqual([]);

    const paid = await postFromPage(pathOf(body.deposit.payUrl));
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/quote/${token}?deposit=paid`);
    const invoice = await depositInvoice(body.deposit.invoiceId);
    expect(invoice).toMatchObject({ status: 'paid', owed: '0.00', paid: '50.00' });
    expect(invoice.payments).toMatchObject([{ amount: '50.00', method: 'card', online: true, reference: 'Demo card payment' }]);
    expect(await money()).toMatchObject({ state: 'deposit_paid', waitingForDeposit: false });
    expect(await (await fetch(`${server.url}/quote/${token}?deposit=paid`)).text()).toContain('Deposit paid');

    // A second tap (a reload that posts again) pays nothing more.
    expect((await postFromPage(pathOf(body.deposit.payUrl))).status).toBe(303);
    expect((await depositInvoice(body.deposit.invoiceId)).payments).toHaveLength(1);

    await mailSettled(server);
    const mails = outbox();
    expect(mails.some((m) => addressedTo(m, email) && m.includes('has received your payment of £50.00'))).toBe(true);
    expect(mails.some((m) => m.includes('Sam Customer paid £50.00 by card towards deposit invoice'))).toBe(true);
    expect(mails.some((m) => m.includes('A demo payment: no money moved.'))).toBe(true);
  });

  it('"Pay by bank transfer instead" accepts, makes the deposit invoice and shows its bank details; a quote under the threshold asks none', async () => {
    const { token } = await sentQuote('800');
    const answered = await postFromPage(`/quote/${token}/accept`, new URLSearchParams({ name: 'Sam Customer', acceptTerms: 'yes', pay: 'bank' }).toString());
    expect(answered.status).toBe(303);
    const where = answered.headers.get('location')!;
    expect(where).toMatch(new RegExp(`^/quote/${token}/invoices/\\d+$`));
    const shown = await (await fetch(`${server.url}${where}`)).text();
    expect(shown).toContain('£80.00');
    expect(shown).toContain('71234567');
    expect(shown).toContain('Pay £80.00 by card');

    const small = await sentQuote('90');
    const page = await (await fetch(`${server.url}/quote/${small.token}`)).text();
    // Ticking optional items could cross the threshold, so the deposit's buttons are there, hidden.
    expect(page).toContain('<div data-deposit-on hidden>');
    expect(page).toContain('<p class="hint" data-deposit-on hidden>');
    const res = await accept(small.token);
    expect(((await res.json()) as { deposit?: unknown }).deposit).toBeUndefined();
  });
});

describe('"Pay by card" on an invoice, and a refund', () => {
  it('pays what is owed and no more; the page back before the payment says it is being confirmed; a part refund makes a credit note', async () => {
    const { token, jobId, email } = await sentQuote('90');
    expect((await accept(token)).status).toBe(200);
    const draft = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    const issued = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
    await invoiceOf(await owner.post(`/api/invoices/${issued.id}/payments`, { amount: '30', paidOn: issued.issuedOn, method: 'bank_transfer' }), 201);
    await invoiceOf(await owner.post(`/api/invoices/${issued.id}/send`, {}));
    await mailSettled(server);
    const link = outbox()
      .filter((m) => addressedTo(m, email))
      .map((m) => m.match(/\/invoice\/([A-Za-z0-9_-]{43})/)?.[1])
      .find(Boolean)!;
    const copy = publicInvoiceResponseSchema.parse(await (await fetch(`${server.url}/api/invoice-links/${link}`)).json()).invoice;
    expect(copy).toMatchObject({ owed: '60.00', payByCard: true });

    const checkout = await fetch(`${server.url}/api/invoice-links/${link}/checkout`, { method: 'POST', headers: { origin: server.origin } });
    expect(checkout.status).toBe(200);
    const { url } = (await checkout.json()) as { url: string };
    expect(await (await fetch(`${server.url}${pathOf(url)}`)).text()).toContain('Pay £60.00 (demo)');
    // Back on the invoice page before the payment has landed: being confirmed, nothing recorded.
    const waiting = await (await fetch(`${server.url}/invoice/${link}?paid=card`)).text();
    expect(waiting).toContain('Your card payment is being confirmed');
    expect((await invoiceOf(await owner.get(`/api/invoices/${issued.id}`))).paid).toBe('30.00');

    expect((await postFromPage(pathOf(url))).headers.get('location')).toBe(`/invoice/${link}?paid=card`);
    const paid = await invoiceOf(await owner.get(`/api/invoices/${issued.id}`));
    expect(paid).toMatchObject({ status: 'paid', owed: '0.00', paid: '90.00' });
    expect(await (await fetch(`${server.url}/invoice/${link}?paid=card`)).text()).toContain('Paid in full');
    const nothing = await fetch(`${server.url}/api/invoice-links/${link}/checkout`, { method: 'POST', headers: { origin: server.origin } });
    expect(nothing.status).toBe(409);

    const card = paid.payments.find((p) => p.online)!;
    const removed = await owner.request('DELETE', `/api/invoices/${issued.id}/payments/${card.id}`, { reason: 'Typed twice' });
    expect(removed.status).toBe(409);
    expect(await removed.text()).toContain('refund it');
    const refunded = await invoiceOf(await owner.post(`/api/invoices/${issued.id}/payments/${card.id}/refund`, { amount: '25', reason: 'Stump left in' }));
    expect(refunded).toMatchObject({ paid: '65.00', credited: '25.00', owed: '0.00' });
    expect(refunded.refunds).toMatchObject([{ paymentId: card.id, amount: '25.00', reason: 'Stump left in', creditNoteNumber: 'CN-0001' }]);
    expect(refunded.refunds[0]!.providerRefundId).toMatch(/^demo_re_/);
    expect(refunded.creditNotes).toMatchObject([{ number: 'CN-0001', gross: '25.00', reason: 'Refund: Stump left in' }]);
    expect(refunded.payments.find((p) => p.id === card.id)).toMatchObject({ refunded: '25.00', refundable: '35.00' });
    const tooMuch = await owner.post(`/api/invoices/${issued.id}/payments/${card.id}/refund`, { amount: '35.01', reason: 'Again' });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.text()).toContain('At most £35.00');
    // The bank transfer is refunded by recording it: all of what is left.
    const bank = paid.payments.find((p) => !p.online)!;
    const all = await invoiceOf(await owner.post(`/api/invoices/${issued.id}/payments/${bank.id}/refund`, { reason: 'Paid twice' }));
    expect(all.refunds.at(-1)).toMatchObject({ amount: '30.00', providerRefundId: null });
    expect((await owner.request('DELETE', `/api/invoices/${issued.id}/payments/${bank.id}`, { reason: 'Oops' })).status).toBe(409);
  });

  it('the demo page opens nothing for a session it never made, of any shape, nor from another site', async () => {
    for (const session of ['demo_cs_unknown', `demo_cs_${'a'.repeat(500)}`, 'cs_test_123', '%00']) {
      expect((await fetch(`${server.url}/pay/demo/${session}`)).status).toBe(404);
    }
    const { token } = await sentQuote('300');
    const { deposit } = (await (await accept(token)).json()) as { deposit: { payUrl: string; invoiceId: number } };
    const crossSite = await fetch(`${server.url}${pathOf(deposit.payUrl)}`, { method: 'POST', redirect: 'manual', headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect((await depositInvoice(deposit.invoiceId)).payments).toEqual([]);
  });

  it('the set-up reads as the demo, connected, with no fee; onboarding is refused with why', async () => {
    const setup = paymentsSetupSchema.parse(await (await owner.get('/api/payments-setup')).json());
    expect(setup).toEqual({ provider: 'demo', connected: true, chargesEnabled: true, detailsSubmitted: true, requirements: [], applicationFeePercent: '0', accountId: null });
    const onboarding = await owner.post('/api/payments-setup/onboarding', {});
    expect(onboarding.status).toBe(409);
    expect((await fetch(`${server.url}/api/payments-setup`)).status).toBe(401);
  });
});

describe('the deposit set on the job', () => {
  it('overrides the rule in the copy sent: its own percentage on any total, or none', async () => {
    const made = await owner.post('/api/jobs', { customer: { name: 'Kim Customer', email: 'kim@example.com' } });
    const { job } = (await made.json()) as { job: { id: number } };
    expect((await owner.post(`/api/jobs/${job.id}/lines`, { description: 'Reduce the oak', price: '60' })).status).toBe(201);
    const before = (await (await owner.get(`/api/jobs/${job.id}`)).json()) as { job: { deposit: unknown } };
    // Under the rule's £100 threshold: the rule asks nothing of £60.
    expect(before.job.deposit).toEqual({ percent: null, asked: { percent: 10, over: '100.00' } });
    const set = await owner.request('PATCH', `/api/jobs/${job.id}`, { depositPercent: 25 });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { job: { deposit: unknown } }).job.deposit).toEqual({ percent: 25, asked: { percent: 25, over: '0.00' } });
    expect((await owner.request('PATCH', `/api/jobs/${job.id}`, { depositPercent: 12.345 })).status).toBe(400);
    const { token } = await sendQuoteTo(server, owner, job.id, 'kim@example.com');
    const res = (await (await accept(token)).json()) as { deposit: { amount: string } };
    expect(res.deposit.amount).toBe('15.00');

    const none = await sentQuote('900');
    const noneJob = none.jobId;
    expect((await owner.request('PATCH', `/api/jobs/${noneJob}`, { depositPercent: 0 })).status).toBe(200);
    const again = await sendQuoteTo(server, owner, noneJob, none.email);
    const copy = (await (await fetch(`${server.url}/api/quotes/${again.token}`)).json()) as { quote: { deposit?: unknown } };
    expect(copy.quote.deposit).toBeUndefined();
    expect(((await (await accept(again.token)).json()) as { deposit?: unknown }).deposit).toBeUndefined();
  });
});

describe('a refund due after a cancellation', () => {
  it('shows what was paid as due back within 14 days of the cancellation, until it is refunded', async () => {
    const { token, jobId } = await sentQuote('400');
    const { deposit } = (await (await accept(token)).json()) as { deposit: { payUrl: string; invoiceId: number } };
    await postFromPage(pathOf(deposit.payUrl));
    const due = async (query = '') => ((await (await owner.get(`/api/refunds-due${query}`)).json()) as { refunds: { jobId: number; amount: string; cancelledOn: string; refundBy: string }[] }).refunds;
    expect((await due()).filter((r) => r.jobId === jobId)).toEqual([]);
    const cancelled = await fetch(`${server.url}/api/quotes/${token}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.origin }, body: JSON.stringify({ name: 'Sam Customer', confirm: true }) });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    const [owed] = await due(`?jobId=${jobId}`);
    const today = server.clock.now().toISOString().slice(0, 10);
    expect(owed).toMatchObject({ jobId, amount: '40.00', cancelledOn: today });
    expect(owed!.refundBy).toBe(new Date(Date.parse(`${today}T12:00:00Z`) + 14 * 86_400_000).toISOString().slice(0, 10));
    expect((await owner.get('/api/refunds-due?jobId=abc')).status).toBe(400);

    const payment = (await depositInvoice(deposit.invoiceId)).payments[0]!;
    await invoiceOf(await owner.post(`/api/invoices/${deposit.invoiceId}/payments/${payment.id}/refund`, { reason: 'Cancelled within 14 days' }));
    expect(await due(`?jobId=${jobId}`)).toEqual([]);
  });
});
