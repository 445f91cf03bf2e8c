import { describe, expect, it } from 'vitest';
import { counted, formatPounds, monthName, totalGrossPence } from './job-list-summary';

const jobs = ['600.00', '1225.00', '0.05', '99999.99'].map((gross) => ({ totals: { gross } }));

describe('the Jobs page', () => {
  it('adds up what the listed jobs are worth exactly, in pence', () => {
    expect(totalGrossPence(jobs)).toBe(60_000 + 122_500 + 5 + 9_999_999);
    expect(totalGrossPence([])).toBe(0);
    expect(formatPounds('101824.04')).toBe('£101,824.04');
  });

  it("names the UK month the figures are for, whatever the viewer's time zone", () => {
    // 23:00 UTC on 30 June is midnight on 1 July in British Summer Time.
    expect(monthName('2026-06-30T23:00:00.000Z')).toBe('July 2026');
    expect(monthName('2026-12-01T00:00:00.000Z')).toBe('December 2026');
  });

  it('says counts with their nouns', () => {
    expect(counted(1, 'job')).toBe('1 job');
    expect(counted(0, 'job')).toBe('0 jobs');
    expect(counted(2, 'acceptance')).toBe('2 acceptances');
  });
});
