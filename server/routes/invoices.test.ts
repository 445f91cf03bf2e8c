import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceListSchema, jobMoneyListSchema, type Invoice } from '../../core/invoices';
import { parsePence } from '../../core/money';
import { settingsResponseSchema } from '../../core/settings';
import { RateLimits } from '../http/rate-limit';
import { invoiceOf } from '../../testing/invoices';
import { mailSettled } from '../../testing/mail';
import { advanceKeepingSession, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { acceptQuote, BIRCH_PROFILE, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';

/*
 * Invoices over HTTP (docs/product.md, Getting paid): made from the accepted quote and nothing
 * typed again, exact to the penny with deposits taken off, numbered without gaps when issued,
 * never changed after, paid and credited.
 */
let server: TestServer;
beforeAll(async () => {
  // Many owners from one address: the registration limit raised for this file only.
  server = await startTestServer({}, { rateLimits: new RateLimits({ registrationsPerAddress: { points: 100, windowSeconds: 3600 } }) });
});
// The e-mails its payments, refunds and credit notes send (their PDFs made in the background) finish before the server goes.
afterAll(async () => {
  await mailSettled(server);
  await server.close();
});

/** Pounds text, a minus sign allowed (a deposit taken off), as pence. */
const pence = (text: string) => (text.startsWith('-') ? -parsePence(text.slice(1))! : parsePence(text)!);
const RULES = { crewSize: 2, minimumCharge: '0', travel: '0', wastePerTonne: '0', stumpGrinding: '0', accessPlatform: '0', trafficManagement: '0' };


/** An owner whose quotes are priced with `vatMode`. */
async function ownerPricing(vatMode: 'inc' | 'ex' | 'none', profile: Record<string, unknown> = BIRCH_PROFILE): Promise<TestClient> {
  const { client } = await ownerWithProfile(server, profile);
  const res = await client.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode } });
  expect(res.status, await res.clone().text()).toBe(200);
  return client;
}

let customers = 0;
/** A job of `lines` sent and accepted with the optional lines at `chosen` (indexes) ticked; its id. */
async function acceptedJob(owner: TestClient, lines: { description: string; price: string; optional?: boolean }[], chosen: number[] = []): Promise<{ jobId: number; itemIds: number[] }> {
  customers += 1;
  const { job, token } = await sentLinesJob(server, owner, { name: 'Alex Customer', email: `alex${customers}@example.com`, siteAddress: '11 Montpellier Walk, Cheltenham GL50 1QA' }, lines);
  const itemIds = job.items.map((item) => item.id);
  const accepted = await acceptQuote(server, token, chosen.map((index) => itemIds[index]!));
  expect(accepted.status, await accepted.clone().text()).toBe(200);
  return { jobId: job.id, itemIds };
}

const sum = (invoices: Invoice[], field: 'net' | 'vat' | 'gross') => invoices.reduce((total, invoice) => total + pence(invoice.totals[field]), 0);

describe('invoices from the accepted quote', () => {
  it('a 20% deposit and the final invoice add up to the accepted total to the penny, VAT included, with the deposit and its VAT taken off', async () => {
    const owner = await ownerPricing('inc');
    // £333.33 + £166.67 + an optional £99.99 chosen, and an optional £50 not chosen: £599.99 accepted.
    const { jobId } = await acceptedJob(
      owner,
      [
        { description: 'Fell the leaning ash', price: '333.33' },
        { description: 'Grind the stump', price: '166.67' },
        { description: 'Trim the laurel hedge', price: '99.99', optional: true },
        { description: 'Take the logs away', price: '50', optional: true },
      ],
      [2],
    );
    const deposit = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'deposit', percent: 20 }), 201);
    expect(deposit.status).toBe('draft');
    expect(deposit.number).toBeNull();
    // 20% of £599.99 is £119.998: £120.00, of which VAT is a sixth, £20.00.
    expect(deposit.totals).toEqual({ net: '100.00', vat: '20.00', gross: '120.00' });
    const issued = await invoiceOf(await owner.post(`/api/invoices/${deposit.id}/issue`));
    expect(issued.number).toBe('INV-0001');
    expect(issued.issuedOn).toBe('2026-06-01');
    expect(issued.dueOn).toBe('2026-06-01');

    const final = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    expect(final.lines.map((line) => [line.kind, line.description, line.gross])).toEqual([
      ['work', 'Fell the leaning ash', '333.33'],
      ['work', 'Grind the stump', '166.67'],
      ['work', 'Trim the laurel hedge', '99.99'],
      ['less_deposit', expect.stringContaining('INV-0001'), '-120.00'],
    ]);
    // The work's VAT is a sixth of £599.99 (£100.00); less the deposit's £20.00.
    expect(final.totals).toEqual({ net: '399.99', vat: '80.00', gross: '479.99' });
    const both = [issued, await invoiceOf(await owner.post(`/api/invoices/${final.id}/issue`))];
    expect(both[1]!.number).toBe('INV-0002');
    expect(sum(both, 'gross')).toBe(59_999);
    expect(sum(both, 'vat')).toBe(10_000);
    expect(sum(both, 'net')).toBe(49_999);
    // Each invoice's lines add up to its totals.
    for (const invoice of both) {
      for (const field of ['net', 'vat', 'gross'] as const) expect(invoice.lines.reduce((total, line) => total + pence(line[field]), 0)).toBe(pence(invoice.totals[field]));
    }
  });

  it('with VAT added on top (trade) and with none charged, deposits by amount and percentage and the final invoice add up exactly', async () => {
    for (const vatMode of ['ex', 'none'] as const) {
      const owner = await ownerPricing(vatMode);
      const { jobId } = await acceptedJob(owner, [
        { description: 'Crown reduce the oak by 2 m', price: '777.77' },
        { description: 'Deadwood the beech', price: '123.45' },
      ]);
      const accepted = vatMode === 'ex' ? { net: 90_122, vat: 18_024, gross: 108_146 } : { net: 90_122, vat: 0, gross: 90_122 };
      const first = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'deposit', amount: '100.01' }), 201);
      expect(pence(first.totals.gross)).toBe(10_001);
      await invoiceOf(await owner.post(`/api/invoices/${first.id}/issue`));
      const second = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'deposit', percent: 12.5 }), 201);
      await invoiceOf(await owner.post(`/api/invoices/${second.id}/issue`));
      const final = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
      expect(final.lines.filter((line) => line.kind === 'less_deposit')).toHaveLength(2);
      const all = (await jobInvoices(owner, jobId)).filter((invoice) => invoice.id !== final.id).concat(final);
      expect({ net: sum(all, 'net'), vat: sum(all, 'vat'), gross: sum(all, 'gross') }).toEqual(accepted);
      if (vatMode === 'none') expect(all.every((invoice) => invoice.lines.every((line) => line.vat === '0.00'))).toBe(true);
    }
  });

  it('a line agreed on site goes on the final invoice with its note, on the quote’s VAT basis', async () => {
    const owner = await ownerPricing('inc');
    const { jobId } = await acceptedJob(owner, [{ description: 'Fell the sycamore', price: '600' }]);
    const final = await invoiceOf(
      await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final', lines: [{ description: 'Second stump ground', price: '60', note: 'Agreed on the day with Mrs Wood' }] }),
      201,
    );
    expect(final.lines.at(-1)).toMatchObject({ kind: 'on_site', description: 'Second stump ground', note: 'Agreed on the day with Mrs Wood', gross: '60.00', vat: '10.00' });
    expect(final.totals).toEqual({ net: '550.00', vat: '110.00', gross: '660.00' });
    // A draft's on-site lines can be changed; the accepted work cannot be typed over.
    const changed = await invoiceOf(await owner.request('PATCH', `/api/invoices/${final.id}`, { lines: [] }));
    expect(changed.totals.gross).toBe('600.00');
  });

  it('the final invoice of a quote edited after sending and then accepted uses the prices the customer accepted', async () => {
    const owner = await ownerPricing('inc');
    customers += 1;
    const { job, token } = await sentLinesJob(server, owner, { name: 'Sam Edited', email: `sam${customers}@example.com` }, [{ description: 'Crown lift', price: '100' }]);
    const edited = await owner.request('PATCH', `/api/jobs/${job.id}`, { items: [{ id: job.items[0]!.id, price: '900', description: 'Crown lift and full fell' }] });
    expect(edited.status).toBe(200);
    expect((await acceptQuote(server, token)).status).toBe(200);
    const final = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
    expect(final.lines.map((line) => [line.description, line.gross])).toEqual([['Crown lift', '100.00']]);
  });

  it('refuses an invoice before acceptance, a second final invoice, and a deposit beyond what is left (409 and 400, with what to do)', async () => {
    const owner = await ownerPricing('inc');
    customers += 1;
    const { job } = await sentLinesJob(server, owner, { name: 'Not Yet', email: `notyet${customers}@example.com` }, [{ description: 'Fell', price: '500' }]);
    const early = await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' });
    expect(early.status).toBe(409);
    expect((await early.json()).message).toMatch(/accepted quote/);

    const { jobId } = await acceptedJob(owner, [{ description: 'Fell', price: '500' }]);
    const draft = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    const twice = await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' });
    expect(twice.status).toBe(409);
    await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
    const again = await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toMatch(/already has a final invoice \(INV-\d{4}\)\. Credit it/);

    const { jobId: other } = await acceptedJob(owner, [{ description: 'Fell', price: '500' }]);
    const tooMuch = await owner.post(`/api/jobs/${other}/invoices`, { kind: 'deposit', amount: '500.01' });
    expect(tooMuch.status).toBe(400);
    expect((await tooMuch.json()).details.amount[0]).toMatch(/at most £500\.00/);
    // Once the final invoice is out, a deposit would invoice the work twice.
    const lateDeposit = await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'deposit', amount: '10' });
    expect(lateDeposit.status).toBe(409);
    expect((await lateDeposit.json()).message).toMatch(/final invoice \(INV-\d{4}\) is already issued/);
    const noRule = await owner.post(`/api/jobs/${other}/invoices`, { kind: 'deposit' });
    expect(noRule.status).toBe(400);
    const mixed = await owner.post(`/api/jobs/${other}/invoices`, { kind: 'final', percent: 10 });
    expect(mixed.status).toBe(400);
  });
});

async function jobInvoices(owner: TestClient, jobId: number): Promise<Invoice[]> {
  const res = await owner.get(`/api/jobs/${jobId}/invoices`);
  expect(res.status).toBe(200);
  return invoiceListSchema.parse(await res.json()).invoices;
}

describe('numbers and immutability', () => {
  it('20 issues at once across two accounts give each account consecutive numbers, none reused or skipped', async () => {
    const owners = [await ownerPricing('inc'), await ownerPricing('inc')];
    const drafts: { owner: TestClient; id: number }[] = [];
    // Ten deposit drafts of one accepted £1,200 job an account: £12 each, well inside what is not yet invoiced.
    for (const owner of owners) {
      const { jobId } = await acceptedJob(owner, [{ description: 'Dismantle the cedar', price: '1200' }]);
      for (let i = 0; i < 10; i += 1) {
        drafts.push({ owner, id: (await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'deposit', amount: '12' }), 201)).id });
      }
    }
    const issued = await Promise.all(drafts.map(async ({ owner, id }) => ({ owner, invoice: await invoiceOf(await owner.post(`/api/invoices/${id}/issue`)) })));
    for (const owner of owners) {
      const numbers = issued
        .filter((entry) => entry.owner === owner)
        .map((entry) => entry.invoice.number!)
        .sort();
      expect(numbers).toEqual(Array.from({ length: 10 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`));
    }
  });

  it('an issued invoice answers 409 to every change; a draft can change and be deleted', async () => {
    const owner = await ownerPricing('inc');
    const { jobId } = await acceptedJob(owner, [{ description: 'Fell', price: '500' }]);
    const draft = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'deposit', percent: 10 }), 201);
    expect((await invoiceOf(await owner.request('PATCH', `/api/invoices/${draft.id}`, { amount: '75' }))).totals.gross).toBe('75.00');
    expect((await owner.request('DELETE', `/api/invoices/${draft.id}`)).status).toBe(204);
    expect((await owner.get(`/api/invoices/${draft.id}`)).status).toBe(404);

    const kept = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'deposit', percent: 10 }), 201);
    const issued = await invoiceOf(await owner.post(`/api/invoices/${kept.id}/issue`));
    for (const [method, path, body] of [
      ['PATCH', `/api/invoices/${kept.id}`, { amount: '1' }],
      ['DELETE', `/api/invoices/${kept.id}`, undefined],
      ['POST', `/api/invoices/${kept.id}/issue`, undefined],
    ] as const) {
      const res = await owner.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(409);
      expect((await res.json()).message).toMatch(/credit note/);
    }
    expect(await invoiceOf(await owner.get(`/api/invoices/${kept.id}`))).toEqual(issued);
  });

  it('the next number can be moved on in Settings, never back to one used; the prefix is the account’s', async () => {
    const owner = await ownerPricing('inc');
    expect((await owner.request('PATCH', '/api/system-settings', { invoicePrefix: 'TS-', nextInvoiceNumber: 41 })).status).toBe(200);
    const { jobId } = await acceptedJob(owner, [{ description: 'Fell', price: '500' }]);
    const draft = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    expect((await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`))).number).toBe('TS-0041');
    const back = await owner.request('PATCH', '/api/system-settings', { nextInvoiceNumber: 41 });
    expect(back.status).toBe(400);
    expect((await back.json()).details.nextInvoiceNumber[0]).toMatch(/at least 42/);
    const settings = settingsResponseSchema.parse(await (await owner.get('/api/system-settings')).json());
    expect(settings.nextInvoiceNumber).toBe(42);
  });
});

describe('payments and credit notes', () => {
  it('part payments, an overpayment refused, a payment removed with its reason, then paid in full', async () => {
    const owner = await ownerPricing('inc');
    const { jobId } = await acceptedJob(owner, [{ description: 'Fell', price: '480' }]);
    const draft = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    const early = await owner.post(`/api/invoices/${draft.id}/payments`, { amount: '10', paidOn: '2026-06-01', method: 'cash' });
    expect(early.status).toBe(409);
    const issued = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
    expect(issued.dueOn).toBe('2026-06-08');
    const part = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/payments`, { amount: '200', paidOn: '2026-06-01', method: 'bank_transfer', reference: issued.number }), 201);
    expect(part).toMatchObject({ status: 'part_paid', paid: '200.00', owed: '280.00' });
    const over = await owner.post(`/api/invoices/${draft.id}/payments`, { amount: '280.01', paidOn: '2026-06-01', method: 'cash' });
    expect(over.status).toBe(400);
    expect((await over.json()).message).toBe('That is more than the £280.00 still owed on this invoice. Record at most what is owed.');
    const future = await owner.post(`/api/invoices/${draft.id}/payments`, { amount: '1', paidOn: '2026-06-02', method: 'cash' });
    expect(future.status).toBe(400);

    const removed = await invoiceOf(await owner.request('DELETE', `/api/invoices/${draft.id}/payments/${part.payments[0]!.id}`, { reason: 'Recorded against the wrong job' }));
    expect(removed).toMatchObject({ status: 'issued', paid: '0.00', owed: '480.00' });
    expect(removed.removedPayments).toMatchObject([{ amount: '200.00', reason: 'Recorded against the wrong job' }]);
    expect((await owner.request('DELETE', `/api/invoices/${draft.id}/payments/${part.payments[0]!.id}`, { reason: 'again' })).status).toBe(409);
    expect((await owner.request('DELETE', `/api/invoices/${draft.id}/payments/${part.payments[0]!.id}`, {})).status).toBe(400);

    // Unpaid past its due date: overdue; then paid in two.
    server.clock.advance(8 * 86_400_000);
    expect((await invoiceOf(await owner.get(`/api/invoices/${draft.id}`))).status).toBe('overdue');
    await invoiceOf(await owner.post(`/api/invoices/${draft.id}/payments`, { amount: '400', paidOn: '2026-06-09', method: 'bank_transfer' }), 201);
    const paid = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/payments`, { amount: '80', paidOn: '2026-06-09', method: 'cheque' }), 201);
    expect(paid).toMatchObject({ status: 'paid', paid: '480.00', owed: '0.00' });
    expect((await owner.post(`/api/invoices/${draft.id}/payments`, { amount: '1', paidOn: '2026-06-09', method: 'cash' })).status).toBe(409);
  });

  it('two payments at once cannot together pay more than is owed', async () => {
    const owner = await ownerPricing('none');
    const { jobId } = await acceptedJob(owner, [{ description: 'Fell', price: '300' }]);
    const draft = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    const issued = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
    const answers = await Promise.all(Array.from({ length: 5 }, () => owner.post(`/api/invoices/${draft.id}/payments`, { amount: '100', paidOn: issued.issuedOn, method: 'card' })));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 201, 201, 409, 409]);
    expect((await invoiceOf(await owner.get(`/api/invoices/${draft.id}`))).paid).toBe('300.00');
  });

  it('a credit note in part then in full, numbered CN- in its own sequence, with the VAT split as the invoice; then a new final invoice', async () => {
    const owner = await ownerPricing('inc');
    const { jobId } = await acceptedJob(owner, [{ description: 'Fell', price: '600' }]);
    const draft = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`));
    const part = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/credit-notes`, { amount: '120', reason: 'One tree was left standing' }), 201);
    expect(part.creditNotes).toMatchObject([{ number: 'CN-0001', net: '100.00', vat: '20.00', gross: '120.00', reason: 'One tree was left standing' }]);
    expect(part).toMatchObject({ status: 'issued', owed: '480.00', credited: '120.00' });
    const tooMuch = await owner.post(`/api/invoices/${draft.id}/credit-notes`, { amount: '480.01', reason: 'x' });
    expect(tooMuch.status).toBe(400);
    const rest = await invoiceOf(await owner.post(`/api/invoices/${draft.id}/credit-notes`, { reason: 'Wrong customer' }), 201);
    expect(rest.creditNotes[1]).toMatchObject({ number: 'CN-0002', net: '400.00', vat: '80.00', gross: '480.00' });
    expect(rest).toMatchObject({ status: 'credited', owed: '0.00' });
    expect((await owner.post(`/api/invoices/${draft.id}/credit-notes`, { reason: 'again' })).status).toBe(409);
    // Credited in full, the job can be invoiced again, with the next number.
    const next = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    expect((await invoiceOf(await owner.post(`/api/invoices/${next.id}/issue`))).number).toBe('INV-0002');
  });
});

describe('ownership', () => {
  it('another account’s invoice is a 404 on every route, and its job takes no invoice', async () => {
    const owner = await ownerPricing('inc');
    const { jobId } = await acceptedJob(owner, [{ description: 'Fell', price: '500' }]);
    const invoice = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    const stranger = await ownerPricing('inc');
    for (const [method, path, body] of [
      ['GET', `/api/invoices/${invoice.id}`, undefined],
      ['PATCH', `/api/invoices/${invoice.id}`, { lines: [] }],
      ['DELETE', `/api/invoices/${invoice.id}`, undefined],
      ['POST', `/api/invoices/${invoice.id}/issue`, undefined],
      ['POST', `/api/invoices/${invoice.id}/payments`, { amount: '1', paidOn: '2026-06-01', method: 'cash' }],
      ['POST', `/api/invoices/${invoice.id}/credit-notes`, { reason: 'x' }],
      ['POST', `/api/jobs/${jobId}/invoices`, { kind: 'final' }],
      ['GET', `/api/jobs/${jobId}/invoices`, undefined],
    ] as const) {
      const res = await stranger.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const list = invoiceListSchema.parse(await (await stranger.get('/api/invoices')).json());
    expect(list.invoices).toEqual([]);
  });
});

describe('Getting paid settings', () => {
  it('bank details are checked, kept, and shown masked; payment terms move the standard terms’ sentence', async () => {
    const owner = await ownerPricing('inc');
    const bad = await owner.request('PATCH', '/api/system-settings', { bankDetails: { accountName: 'Birch Brothers Ltd', sortCode: '12-34-5', accountNumber: '1234567' } });
    expect(bad.status).toBe(400);
    const details = (await bad.json()).details;
    expect(details['bankDetails.sortCode'] ?? details.sortCode ?? JSON.stringify(details)).toBeTruthy();
    const saved = settingsResponseSchema.parse(
      await (await owner.request('PATCH', '/api/system-settings', { bankDetails: { accountName: 'Birch Brothers Ltd', sortCode: '12 34 56', accountNumber: '12345678' }, paymentTermsDays: 14 })).json(),
    );
    expect(saved.bankDetails).toEqual({ accountName: 'Birch Brothers Ltd', sortCode: '12-34-56', accountNumber: '****5678' });
    expect(saved.paymentTermsDays).toBe(14);
    expect(saved.quoteTerms).toContain('by bank transfer within 14 days of our invoice (or by card, where we offer it)');
    // The payment term says when a deposit is due: payment is not only due when the work is finished.
    expect(saved.quoteTerms).toContain('where this quote asks a deposit, the deposit is due when you accept the quote');
    expect((await owner.request('PATCH', '/api/system-settings', { paymentTermsDays: 10 })).status).toBe(400);
  });

  it('the deposit rule fills in a deposit asked without a figure; the Invoices list and summary find it', async () => {
    const owner = await ownerPricing('inc');
    // Set after the quote went out: the quote asked no deposit on acceptance, so the owner asks one now.
    const { jobId } = await acceptedJob(owner, [{ description: 'Fell', price: '400' }]);
    expect((await owner.request('PATCH', '/api/system-settings', { depositRule: { percent: 25, overAmount: '100' } })).status).toBe(200);
    const deposit = await invoiceOf(await owner.post(`/api/jobs/${jobId}/invoices`, { kind: 'deposit' }), 201);
    expect(deposit).toMatchObject({ depositPercent: 25, totals: { gross: '100.00' } });
    await invoiceOf(await owner.post(`/api/invoices/${deposit.id}/issue`));
    const found = invoiceListSchema.parse(await (await owner.get('/api/invoices?q=inv-0001')).json()).invoices;
    expect(found.map((invoice) => invoice.id)).toEqual([deposit.id]);
    expect(invoiceListSchema.parse(await (await owner.get('/api/invoices?q=alex%20CUSTOMER')).json()).invoices).toHaveLength(1);
    const summary = (await (await owner.get('/api/invoices/summary')).json()).summary;
    expect(summary.byStatus.issued).toEqual({ count: 1, gross: '100.00' });
    expect(summary.owed).toBe('100.00');
  });

  it('each accepted job’s money state: waiting for the deposit the quote asked (invoiced on acceptance), deposit paid, invoiced, paid', async () => {
    const owner = await ownerPricing('inc');
    expect((await owner.request('PATCH', '/api/system-settings', { depositRule: { percent: 10, overAmount: '500' } })).status).toBe(200);
    const { jobId: small } = await acceptedJob(owner, [{ description: 'Prune', price: '400' }]);
    const { jobId: large } = await acceptedJob(owner, [{ description: 'Dismantle', price: '1200' }]);
    const money = async () => jobMoneyListSchema.parse(await (await owner.get('/api/invoices/jobs')).json()).jobs;
    const of = async (jobId: number) => (await money()).find((entry) => entry.jobId === jobId);
    expect(await of(small)).toEqual({ jobId: small, state: 'not_invoiced', owed: '0.00', waitingForDeposit: false });
    // The quote carried the rule, so accepting made and issued the deposit invoice (card-payments/deposit.ts).
    expect(await of(large)).toEqual({ jobId: large, state: 'deposit_due', owed: '120.00', waitingForDeposit: true });
    const [deposit] = invoiceListSchema.parse(await (await owner.get('/api/invoices')).json()).invoices.filter((invoice) => invoice.jobId === large);
    const issued = await invoiceOf(await owner.get(`/api/invoices/${deposit!.id}`));
    expect(issued).toMatchObject({ kind: 'deposit', totals: { gross: '120.00' } });
    await invoiceOf(await owner.post(`/api/invoices/${issued.id}/payments`, { amount: '120', paidOn: issued.issuedOn, method: 'bank_transfer' }), 201);
    expect(await of(large)).toMatchObject({ state: 'deposit_paid', owed: '0.00', waitingForDeposit: false });
    const final = await invoiceOf(await owner.post(`/api/jobs/${large}/invoices`, { kind: 'final' }), 201);
    await invoiceOf(await owner.post(`/api/invoices/${final.id}/issue`));
    expect(await of(large)).toMatchObject({ state: 'invoiced', owed: '1080.00' });
    await invoiceOf(await owner.post(`/api/invoices/${final.id}/payments`, { amount: '1080', paidOn: issued.issuedOn, method: 'card' }), 201);
    expect(await of(large)).toMatchObject({ state: 'paid', owed: '0.00' });
    const stranger = await ownerPricing('inc');
    expect(jobMoneyListSchema.parse(await (await stranger.get('/api/invoices/jobs')).json()).jobs).toEqual([]);
  });

  it('statutory interest on a business customer’s overdue invoice when turned on: 8% over the base rate, on what was owed day by day; never a consumer’s', async () => {
    const trade = await ownerPricing('ex');
    expect((await trade.request('PATCH', '/api/system-settings', { lateInterest: { baseRatePercent: 4.75 } })).status).toBe(200);
    const { jobId } = await acceptedJob(trade, [{ description: 'Clear the yard', price: '1000' }]);
    const draft = await invoiceOf(await trade.post(`/api/jobs/${jobId}/invoices`, { kind: 'final' }), 201);
    const issued = await invoiceOf(await trade.post(`/api/invoices/${draft.id}/issue`));
    expect(issued.totals.gross).toBe('1200.00');
    expect(issued.lateInterest).toBeNull();
    const consumer = await ownerPricing('inc');
    expect((await consumer.request('PATCH', '/api/system-settings', { lateInterest: { baseRatePercent: 4.75 } })).status).toBe(200);
    const home = await acceptedJob(consumer, [{ description: 'Prune the apple', price: '300' }]);
    const homeDraft = await invoiceOf(await consumer.post(`/api/jobs/${home.jobId}/invoices`, { kind: 'final' }), 201);
    await invoiceOf(await consumer.post(`/api/invoices/${homeDraft.id}/issue`));

    // Ten days late, £600 arrives; twenty days later: 12.75% a year on £1,200 for 10 days (£4.19) and on £600 for 20 (£4.19).
    const day = 86_400_000;
    server.clock.advance(7 * day + 10 * day);
    const paidOn = new Date(server.clock.now()).toISOString().slice(0, 10);
    await invoiceOf(await trade.post(`/api/invoices/${draft.id}/payments`, { amount: '600', paidOn, method: 'bank_transfer' }), 201);
    // Both owners use their sessions on the way, so neither is signed out by the 30-day idle limit.
    await invoiceOf(await consumer.get(`/api/invoices/${homeDraft.id}`));
    await advanceKeepingSession(server, trade, 20);
    const late = await invoiceOf(await trade.get(`/api/invoices/${draft.id}`));
    expect(late.status).toBe('overdue');
    expect(late.lateInterest).toEqual({ ratePercent: 12.75, days: 30, amount: '8.38' });
    expect((await invoiceOf(await consumer.get(`/api/invoices/${homeDraft.id}`))).lateInterest).toBeNull();
    // Off again, nothing is shown.
    expect((await trade.request('PATCH', '/api/system-settings', { lateInterest: null })).status).toBe(200);
    expect((await invoiceOf(await trade.get(`/api/invoices/${draft.id}`))).lateInterest).toBeNull();
  });
});
