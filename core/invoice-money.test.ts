import { describe, expect, it } from 'vitest';
import { addMoney, creditMoney, depositFromPercent, depositMoney, finalMoney, linesMoney, splitGross, type Money, type VatBasis } from './invoice-money';
import { accruedInterestPence, documentNumber, dueOn, invoiceStatus, owedPence, statutoryInterestPence, taxPoint } from './invoices';
import { quoteTotals } from './quote-totals';

const BASES: VatBasis[] = [
  { vatMode: 'inc', vatRatePercent: 20 },
  { vatMode: 'ex', vatRatePercent: 20 },
  { vatMode: 'none', vatRatePercent: 0 },
];

/** A seeded run of prices, so a failure names the same case every time. */
function prices(seed: number, count: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % 150_000;
  });
}

describe('invoice money', () => {
  it('lines always add up to the total, and the total is the quote’s', () => {
    for (const basis of BASES) {
      for (let seed = 1; seed <= 200; seed += 1) {
        const lines = prices(seed, 1 + (seed % 7)).map((pricePence) => ({ pricePence }));
        const { lines: money, total } = linesMoney(lines, basis);
        const added = money.reduce(addMoney, { netPence: 0, vatPence: 0, grossPence: 0 });
        expect(added).toEqual(total);
        expect(total).toEqual(quoteTotals(lines.map((line, id) => ({ id, pricePence: line.pricePence, optional: false })), new Set(), basis.vatMode, basis.vatRatePercent));
        for (const line of money) expect(line.netPence + line.vatPence).toBe(line.grossPence);
      }
    }
  });

  it('deposits and the final invoice add up to the accepted total exactly, for any percentages', () => {
    for (const basis of BASES) {
      for (let seed = 1; seed <= 200; seed += 1) {
        const work = prices(seed, 1 + (seed % 5)).map((pricePence) => ({ pricePence }));
        const accepted = finalMoney(work, [], basis).total;
        const deposits: Money[] = [];
        let left = accepted.grossPence;
        for (const percent of [10, 12.5, 33.33].slice(0, 1 + (seed % 3))) {
          const gross = Math.min(left, depositFromPercent(accepted.grossPence, percent));
          if (gross <= 0) continue;
          deposits.push(depositMoney(gross, basis));
          left -= gross;
        }
        const final = finalMoney(work, deposits, basis).total;
        const all = [...deposits, final].reduce(addMoney, { netPence: 0, vatPence: 0, grossPence: 0 });
        expect(all).toEqual(accepted);
      }
    }
  });

  it('a percentage deposit rounds half up to the penny without floats', () => {
    expect(depositFromPercent(59_999, 20)).toBe(12_000);
    expect(depositFromPercent(10_001, 12.5)).toBe(1_250);
    expect(depositFromPercent(33_333, 33.33)).toBe(11_110);
    expect(depositFromPercent(100, 0.01)).toBe(0);
  });

  it('splits a gross amount by the VAT fraction (a sixth at 20%), nothing when none is charged', () => {
    expect(splitGross(12_000, { vatMode: 'inc', vatRatePercent: 20 })).toEqual({ netPence: 10_000, vatPence: 2_000, grossPence: 12_000 });
    expect(splitGross(12_000, { vatMode: 'ex', vatRatePercent: 20 })).toEqual({ netPence: 10_000, vatPence: 2_000, grossPence: 12_000 });
    expect(splitGross(1, { vatMode: 'inc', vatRatePercent: 20 })).toEqual({ netPence: 1, vatPence: 0, grossPence: 1 });
    expect(splitGross(12_000, { vatMode: 'none', vatRatePercent: 0 })).toEqual({ netPence: 12_000, vatPence: 0, grossPence: 12_000 });
    expect(splitGross(-12_000, { vatMode: 'inc', vatRatePercent: 20 })).toEqual({ netPence: -10_000, vatPence: -2_000, grossPence: -12_000 });
  });

  it('a part credit keeps the invoice’s VAT proportion; a credit of the rest is exactly the rest', () => {
    const open = { netPence: 50_000, vatPence: 10_000, grossPence: 60_000 };
    expect(creditMoney(open, 12_000)).toEqual({ netPence: 10_000, vatPence: 2_000, grossPence: 12_000 });
    expect(creditMoney(open, 60_000)).toEqual(open);
    expect(creditMoney(open, 99_999)).toEqual(open);
  });
});

describe('invoice status, dates and numbers', () => {
  const issued = { issuedOn: '2026-06-01', dueOn: '2026-06-08', viewed: false, grossPence: 10_000, paidPence: 0, creditedPence: 0 };
  it('reads draft, issued, viewed, part paid, paid, overdue and credited from the facts', () => {
    expect(invoiceStatus({ ...issued, issuedOn: null, dueOn: null }, '2026-06-01')).toBe('draft');
    expect(invoiceStatus(issued, '2026-06-08')).toBe('issued');
    expect(invoiceStatus({ ...issued, viewed: true }, '2026-06-08')).toBe('viewed');
    expect(invoiceStatus({ ...issued, paidPence: 1 }, '2026-06-08')).toBe('part_paid');
    expect(invoiceStatus({ ...issued, paidPence: 1 }, '2026-06-09')).toBe('overdue');
    expect(invoiceStatus({ ...issued, paidPence: 10_000 }, '2026-07-01')).toBe('paid');
    expect(invoiceStatus({ ...issued, paidPence: 4_000, creditedPence: 6_000 }, '2026-07-01')).toBe('paid');
    expect(invoiceStatus({ ...issued, creditedPence: 10_000 }, '2026-07-01')).toBe('credited');
    expect(owedPence({ grossPence: 10_000, paidPence: 4_000, creditedPence: 1_000 })).toBe(5_000);
  });

  it('a deposit is due when issued, a final invoice after the terms; the tax point is the work’s day or the deposit’s first date', () => {
    expect(dueOn('deposit', '2026-06-01', 30)).toBe('2026-06-01');
    expect(dueOn('final', '2026-12-20', 14)).toBe('2027-01-03');
    expect(taxPoint('final', '2026-06-10', '2026-06-03', null)).toBe('2026-06-03');
    expect(taxPoint('final', '2026-06-10', null, null)).toBe('2026-06-10');
    expect(taxPoint('deposit', '2026-06-10', null, '2026-06-09')).toBe('2026-06-09');
    expect(taxPoint('deposit', '2026-06-10', null, '2026-06-12')).toBe('2026-06-10');
    expect(documentNumber('INV-', 7)).toBe('INV-0007');
    expect(documentNumber('CN-', 12_345)).toBe('CN-12345');
  });
});

describe('statutory interest (Late Payment of Commercial Debts (Interest) Act 1998)', () => {
  it('is simple interest to the penny, halves up, on what was owed through each stretch', () => {
    // £1,000 at 12.75% a year for 365 days: £127.50; for 30 days: £10.479... -> £10.48.
    expect(statutoryInterestPence(100_000, 12.75, 365)).toBe(12_750);
    expect(statutoryInterestPence(100_000, 12.75, 30)).toBe(1_048);
    expect(statutoryInterestPence(0, 12.75, 30)).toBe(0);
    expect(statutoryInterestPence(100_000, 12.75, 0)).toBe(0);
    const settled = [
      { day: '2026-06-01', pence: 20_000 },
      { day: '2026-06-18', pence: 50_000 },
    ];
    // Due 8 June, owed £1,000 after the payment before it; £500 paid on the 18th; read on 8 July.
    const accrued = accruedInterestPence({ grossPence: 120_000, dueOn: '2026-06-08', today: '2026-07-08', ratePercent: 12.75, settled });
    expect(accrued).toEqual({ days: 30, pence: statutoryInterestPence(100_000, 12.75, 10) + statutoryInterestPence(50_000, 12.75, 20) });
    expect(accruedInterestPence({ grossPence: 120_000, dueOn: '2026-06-08', today: '2026-06-08', ratePercent: 12.75, settled }).pence).toBe(0);
  });
});
