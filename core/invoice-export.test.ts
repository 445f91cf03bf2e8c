import { describe, expect, it } from 'vitest';
import { addressParts, exportQuerySchema, quickbooksTerms, safeText } from './invoice-export';
import { paymentDayProblem, yearBefore } from './invoices';

describe('addressParts', () => {
  it.each([
    ['Flat 2, 14 Mill Lane, Cheltenham GL50 1QA', ['Flat 2', '14 Mill Lane', '', ''], 'Cheltenham', 'GL50 1QA'],
    ['1 Yard Lane\nLeeds\nls6 2ab', ['1 Yard Lane', '', '', ''], 'Leeds', 'LS6 2AB'],
    ['Leeds LS6 2AB', ['', '', '', ''], 'Leeds', 'LS6 2AB'],
    ['LS6 2AB', ['', '', '', ''], '', 'LS6 2AB'],
    ['2 Mill Lane', ['2 Mill Lane', '', '', ''], '', ''],
    ['The Barn, Home Farm, Long Lane, Little Snoring, Fakenham, Norfolk NR21 0AA', ['The Barn', 'Home Farm', 'Long Lane', 'Little Snoring, Fakenham'], 'Norfolk', 'NR21 0AA'],
    ['', ['', '', '', ''], '', ''],
  ])('%j', (address, lines, city, postcode) => {
    expect(addressParts(address)).toEqual({ lines, city, postcode });
  });

  it('keeps a line that only looks like a postcode ending (QQ1 1QQ is none) in the address', () => {
    expect(addressParts('1 Lane, Town QQ1 1QQ')).toEqual({ lines: ['1 Lane', '', '', ''], city: 'Town QQ1 1QQ', postcode: '' });
  });
});

describe('the export query', () => {
  it.each(['2026-13-01', '2026-02-30', '2026-00-01', 'garbage', '2026-6-1', '１２３４-０１-０１', '2026-02-29'])('refuses %s with a sentence, never a throw', (day) => {
    const parsed = exportQuerySchema.safeParse({ format: 'xero', from: day, to: '2026-12-31' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/^(Dates are YYYY-MM-DD|That date does not exist)/);
  });

  it('takes a real period, a leap day included', () => {
    expect(exportQuerySchema.safeParse({ format: 'quickbooks-credit-notes', from: '2028-02-29', to: '2028-03-31' }).success).toBe(true);
  });
});

it('neutralises a text cell a spreadsheet would run', () => {
  expect(['=1+1', '+44 7700', '-2+3', '@SUM(A1)', '\tx', '\rx', 'INV-0001'].map(safeText)).toEqual(["'=1+1", "'+44 7700", "'-2+3", "'@SUM(A1)", "'\tx", "'\rx", 'INV-0001']);
});

it("names the payment terms as QuickBooks' own", () => {
  expect([0, 7, 14, 30].map(quickbooksTerms)).toEqual(['Due on receipt', 'Net 7', 'Net 14', 'Net 30']);
});

describe('a payment’s day', () => {
  it('is between the acceptance (or a year back) and today', () => {
    expect(paymentDayProblem('2026-06-20', '2026-06-20', '2026-06-01')).toBeNull();
    expect(paymentDayProblem('2026-06-01', '2026-06-20', '2026-06-01')).toBeNull();
    expect(paymentDayProblem('2026-05-31', '2026-06-20', '2026-06-01')).toBe('A payment for this job cannot be dated before 1 June 2026, the day its quote was accepted.');
    expect(paymentDayProblem('2026-06-21', '2026-06-20', '2026-06-01')).toBe('A payment cannot be dated in the future.');
    expect(paymentDayProblem('2025-06-20', '2026-06-20', null)).toBeNull();
    expect(paymentDayProblem('1900-01-01', '2026-06-20', null)).toBe('A payment cannot be dated more than a year back: 20 June 2025 is the earliest.');
  });

  it('a year back from a leap day is 28 February', () => {
    expect(yearBefore('2028-02-29')).toBe('2027-02-28');
    expect(yearBefore('2026-01-01')).toBe('2025-01-01');
  });
});
