import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceSummaryResponseSchema } from '../../core/invoice-summary';
import type { Invoice } from '../../core/invoices';
import { ukToday } from '../../core/job-booking';
import { parsePence } from '../../core/money';
import { RateLimits } from '../http/rate-limit';
import { startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { invoiceOf } from '../../testing/invoices';
import { mailSettled } from '../../testing/mail';
import { acceptQuote, ownerWithProfile, sentLinesJob } from '../../testing/quote-links';

/*
 * The money identity (docs/product.md, Getting paid: figures that add up), as a property over
 * random sequences of what a surgeon does: issue an invoice, record a payment, refund a part or
 * all of one, issue a credit note, remove a payment. Each run is a new account driven over HTTP on
 * the real app; after every step and at the end,
 *
 *   gross - credited - (paid - refunded) = owed
 *
 * holds for every invoice (the owner's view), the customer's page (its rows read down), the
 * Invoices summary (what is owed, and this month's invoiced less paid, the whole run being one
 * day), and both accountant's files (each document's total as the API has it). A step the rules
 * refuse (paying what is not owed, crediting what is paid) must be refused with nothing changed.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(
    {},
    // A new account and several quote links each run, all from 127.0.0.1.
    { rateLimits: new RateLimits({ registrationsPerAddress: { points: 1000, windowSeconds: 3600 }, quoteLinksPerAddress: { points: 10_000, windowSeconds: 600 } }) },
  );
});
afterAll(async () => {
  await mailSettled(server);
  await server.close();
});

const RULES = { crewSize: 2, minimumCharge: '0', travel: '0', wastePerTonne: '0', stumpGrinding: '0', accessPlatform: '0', trafficManagement: '0' };
const PROFILE = { tradingName: 'Ledger Trees', phone: '01632 960111', email: 'office@ledger.example', address: '3 Count Lane\nYork', vatNumber: 'GB123456789', quoteValidityDays: 30 };

const pence = (text: string): number => (text.startsWith('-') ? -parsePence(text.slice(1))! : parsePence(text)!);
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const decimal = (amountPence: number) => `${Math.floor(amountPence / 100)}.${String(amountPence % 100).padStart(2, '0')}`;

/** The four figures of an invoice in pence, money received and refunded read from its payments. */
function figures(invoice: Invoice) {
  const received = sum(invoice.payments.map((p) => pence(p.amount)));
  const refunded = sum(invoice.payments.map((p) => pence(p.refunded)));
  return { gross: pence(invoice.totals.gross), credited: pence(invoice.credited), received, refunded, owed: pence(invoice.owed) };
}

/** The identity on the owner's view, and the parts agreeing with their lists. */
function expectAddsUp(invoice: Invoice): void {
  const f = figures(invoice);
  expect(f.gross - f.credited - (f.received - f.refunded), `${invoice.number}: ${JSON.stringify(f)}`).toBe(f.owed);
  expect(f.owed).toBeGreaterThanOrEqual(0);
  expect(pence(invoice.paid)).toBe(f.received - f.refunded);
  expect(sum(invoice.refunds.map((r) => pence(r.amount)))).toBe(f.refunded);
  expect(sum(invoice.creditNotes.map((n) => pence(n.gross)))).toBe(f.credited);
  expect(sum(invoice.creditNotes.map((n) => pence(n.net) + pence(n.vat)))).toBe(f.credited);
}

/** The customer's page (opened from their quote link): its totals rows, read down, come to "To pay" and match the owner's figures. */
async function expectPageAddsUp(quoteToken: string, invoice: Invoice): Promise<void> {
  const page = await (await fetch(`${server.url}/quote/${quoteToken}/invoices/${invoice.id}`)).text();
  const rows = new Map([...page.matchAll(/<div(?: class="strong")?><dt>([^<]+)<\/dt><dd>([^<]+)<\/dd><\/div>/g)].map((m) => [m[1]!, pence(m[2]!.replace('£', '').replace(/,/g, '').replace('+', ''))]));
  const f = figures(invoice);
  const total = rows.get('Total with VAT') ?? rows.get('Total')!;
  const credited = rows.get('Credited') ?? 0;
  const paid = rows.get('Paid') ?? 0;
  const refunded = rows.get('Refunded to you') ?? 0;
  // Credited and paid print as "-£..." (taken off), refunded as "+£..." (given back).
  expect({ total, credited: -credited + 0, paid: -paid + 0, refunded, owed: rows.get('To pay') }).toEqual({ total: f.gross, credited: f.credited, paid: f.received, refunded: f.refunded, owed: f.owed });
  expect(total + credited + paid + refunded).toBe(rows.get('To pay'));
}

/** A CSV file's rows as header -> cell (RFC 4180 quoting). */
function csvRows(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && ch === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += ch;
    }
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  const [header, ...body] = rows;
  return body.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ''])));
}

const column = (row: Record<string, string>, names: readonly string[]): string => {
  const name = names.find((n) => n in row);
  if (!name) throw new Error(`none of ${names.join(', ')} in ${Object.keys(row).join(', ')}`);
  return row[name]!;
};

/**
 * Each document's total in an accountant's file, in pence, whatever sign the file gives a credit:
 * Xero's rows are Quantity x UnitAmount plus TaxAmount, QuickBooks' ItemAmount plus ItemTaxAmount.
 */
function exportTotals(format: 'xero' | 'quickbooks', csv: string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const row of csvRows(csv)) {
    const number = column(row, format === 'xero' ? ['*InvoiceNumber', 'InvoiceNumber'] : ['InvoiceNo', 'CreditNoteNo']);
    const amount =
      format === 'xero'
        ? Number(column(row, ['*Quantity', 'Quantity'])) * pence(column(row, ['*UnitAmount', 'UnitAmount'])) + pence(column(row, ['TaxAmount']) || '0')
        : pence(column(row, ['ItemAmount', 'Amount'])) + pence(column(row, ['ItemTaxAmount', 'TaxAmount']) || '0');
    totals.set(number, (totals.get(number) ?? 0) + amount);
  }
  return new Map([...totals].map(([number, total]) => [number, Math.abs(total)]));
}

type Step =
  | { kind: 'issue'; price: number }
  | { kind: 'pay'; invoice: number; amount: number }
  | { kind: 'refund'; invoice: number; payment: number; amount: number; whole: boolean }
  | { kind: 'credit'; invoice: number; amount: number; whole: boolean }
  | { kind: 'remove'; invoice: number; payment: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('issue' as const), price: fc.integer({ min: 1, max: 300_000 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), invoice: fc.nat(), amount: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('refund' as const), invoice: fc.nat(), payment: fc.nat(), amount: fc.nat(), whole: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('credit' as const), invoice: fc.nat(), amount: fc.nat(), whole: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), invoice: fc.nat(), payment: fc.nat() }) },
);

interface Issued {
  invoice: Invoice;
  quoteToken: string;
}

/** A new accepted job of `price` pence, invoiced in full and issued. */
async function issue(owner: TestClient, price: number, n: number): Promise<Issued> {
  const { job, token } = await sentLinesJob(server, owner, { name: `Customer ${n}`, email: `money${n}@example.com` }, [{ description: 'Tree work', price: decimal(price) }]);
  expect((await acceptQuote(server, token)).status).toBe(200);
  const draft = await invoiceOf(await owner.post(`/api/jobs/${job.id}/invoices`, { kind: 'final' }), 201);
  return { invoice: await invoiceOf(await owner.post(`/api/invoices/${draft.id}/issue`)), quoteToken: token };
}

/** Runs one step against the invoice it picks; a step the rules refuse must answer so and change nothing. */
async function run(owner: TestClient, issued: Issued[], s: Step, today: string, serial: () => number): Promise<void> {
  if (s.kind === 'issue') {
    if (issued.length < 3) issued.push(await issue(owner, s.price, serial()));
    return;
  }
  const target = issued[s.invoice % issued.length]!;
  const current = target.invoice;
  const f = figures(current);
  const path = `/api/invoices/${current.id}`;
  let res: Response;
  let refused: boolean;
  if (s.kind === 'pay') {
    refused = f.owed === 0;
    res = await owner.post(`${path}/payments`, { amount: decimal(refused ? 1 : 1 + (s.amount % f.owed)), paidOn: today, method: 'bank_transfer' });
  } else if (s.kind === 'credit') {
    const open = f.gross - f.credited - (f.received - f.refunded);
    refused = open <= 0;
    res = await owner.post(`${path}/credit-notes`, { reason: 'Part not done', ...(s.whole || refused ? {} : { amount: decimal(1 + (s.amount % open)) }) });
  } else {
    const payments = current.payments;
    if (payments.length === 0) return;
    const payment = payments[s.payment % payments.length]!;
    if (s.kind === 'refund') {
      const left = pence(payment.refundable);
      refused = left === 0;
      res = await owner.post(`${path}/payments/${payment.id}/refund`, { reason: 'Goodwill', ...(s.whole || refused ? {} : { amount: decimal(1 + (s.amount % left)) }) });
    } else {
      refused = pence(payment.refunded) > 0;
      res = await owner.request('DELETE', `${path}/payments/${payment.id}`, { reason: 'Recorded by mistake' });
    }
  }
  if (refused) {
    expect(res.status, `${s.kind} refused: ${await res.clone().text()}`).toBe(409);
    expect(figures(await invoiceOf(await owner.get(path)))).toEqual(f);
    return;
  }
  expect(res.status, `${s.kind}: ${await res.clone().text()}`).toBeLessThan(300);
  target.invoice = await invoiceOf(res, res.status);
  expectAddsUp(target.invoice);
}

describe('gross - credited - (paid - refunded) = owed', () => {
  it('holds for every invoice, the customer’s page, the summary and both accountant’s files, whatever is done in whatever order', async () => {
    let customers = 0;
    const serial = () => (customers += 1);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('inc', 'ex', 'none'), fc.integer({ min: 1, max: 300_000 }), fc.array(step, { minLength: 1, maxLength: 10 }), async (vatMode, firstPrice, steps) => {
        const owner = (await ownerWithProfile(server, PROFILE)).client;
        expect((await owner.request('PATCH', '/api/system-settings', { pricing: { ...RULES, vatMode } })).status).toBe(200);
        const today = ukToday(server.clock.now());
        const issued: Issued[] = [await issue(owner, firstPrice, serial())];
        for (const s of steps) await run(owner, issued, s, today, serial);

        const invoices = await Promise.all(issued.map(async ({ invoice }) => invoiceOf(await owner.get(`/api/invoices/${invoice.id}`))));
        for (const [index, invoice] of invoices.entries()) {
          expectAddsUp(invoice);
          await expectPageAddsUp(issued[index]!.quoteToken, invoice);
        }
        const all = invoices.map(figures);
        const owed = sum(all.map((f) => f.owed));

        const summary = invoiceSummaryResponseSchema.parse(await (await owner.get('/api/invoices/summary')).json()).summary;
        expect(pence(summary.owed)).toBe(owed);
        expect(sum(Object.values(summary.owedByAge).map(pence))).toBe(owed);
        // One day's work: this month's invoiced (less credits) less its paid (less refunds) is what is owed.
        expect(pence(summary.thisMonth.invoiced)).toBe(sum(all.map((f) => f.gross - f.credited)));
        expect(pence(summary.thisMonth.paid)).toBe(sum(all.map((f) => f.received - f.refunded)));
        expect(pence(summary.thisMonth.invoiced) - pence(summary.thisMonth.paid)).toBe(owed);

        for (const format of ['xero', 'quickbooks'] as const) {
          // QuickBooks Online imports credit notes from a file of their own (core/invoice-export.ts).
          const files = format === 'xero' ? ['xero'] : ['quickbooks', 'quickbooks-credit-notes'];
          const totals = new Map<string, number>();
          for (const file of files) {
            const res = await owner.get(`/api/invoices/export.csv?format=${file}&from=${today}&to=${today}`);
            expect(res.status).toBe(200);
            for (const [number, total] of exportTotals(format, await res.text())) totals.set(number, total);
          }
          const expected = new Map<string, number>([
            ...invoices.map((invoice) => [invoice.number!, pence(invoice.totals.gross)] as const),
            ...invoices.flatMap((invoice) => invoice.creditNotes.map((note) => [note.number, pence(note.gross)] as const)),
          ]);
          expect(totals, format).toEqual(expected);
          const creditedInFile = sum(invoices.flatMap((invoice) => invoice.creditNotes.map((note) => totals.get(note.number)!)));
          const grossInFile = sum(invoices.map((invoice) => totals.get(invoice.number!)!));
          expect(grossInFile - creditedInFile - sum(all.map((f) => f.received - f.refunded)), format).toBe(owed);
        }
        await mailSettled(server);
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});
