import { describe, expect, it } from 'vitest';
import { INVOICE_STATUSES } from './invoices';
import { invoiceSummaryResponseSchema, lastCalendarMonth, monthWords } from './invoice-summary';

describe('lastCalendarMonth', () => {
  it('is the whole month before the one today falls in', () => {
    expect(lastCalendarMonth('2026-11-28')).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(lastCalendarMonth('2026-12-01')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
  });

  it('crosses the year in January', () => {
    expect(lastCalendarMonth('2027-01-15')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });

  it('knows February, in a leap year and out of one', () => {
    expect(lastCalendarMonth('2028-03-31')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(lastCalendarMonth('2027-03-01')).toEqual({ from: '2027-02-01', to: '2027-02-28' });
  });
});

describe('monthWords', () => {
  it('names the month', () => {
    expect(monthWords('2026-11')).toBe('November 2026');
    expect(monthWords('2027-01')).toBe('January 2027');
  });

  it('leaves what it cannot read as it is', () => {
    expect(monthWords('soon')).toBe('soon');
  });
});

describe('invoiceSummaryResponseSchema', () => {
  const byStatus = Object.fromEntries(INVOICE_STATUSES.map((status) => [status, { count: 0, gross: '0.00' }]));
  const summary = {
    byStatus,
    owedByAge: { notDue: '10.00', days1to30: '0.00', days31to60: '0.00', over60: '0.00' },
    owed: '10.00',
    thisMonth: { month: '2026-11', invoiced: '10.00', paid: '0.00' },
  };

  it('reads the server answer', () => {
    expect(invoiceSummaryResponseSchema.parse({ summary }).summary.owedByAge.notDue).toBe('10.00');
  });

  it('refuses an answer missing a status', () => {
    const { credited: _gone, ...fewer } = byStatus;
    expect(invoiceSummaryResponseSchema.safeParse({ summary: { ...summary, byStatus: fewer } }).success).toBe(false);
  });
});
