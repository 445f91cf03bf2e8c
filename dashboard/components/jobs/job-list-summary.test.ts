import { describe, expect, it } from 'vitest';
import type { JobStatus } from '../../../core/jobs';
import { counted, formatPounds, listedValue, monthName, totalGrossPence } from './job-list-summary';

const jobs = ['600.00', '1225.00', '0.05', '99999.99'].map((gross) => ({ totals: { gross } }));

describe('the Jobs page', () => {
  it('adds up what the listed jobs are worth exactly, in pence', () => {
    expect(totalGrossPence(jobs)).toBe(60_000 + 122_500 + 5 + 9_999_999);
    expect(totalGrossPence([])).toBe(0);
    expect(formatPounds('101824.04')).toBe('£101,824.04');
  });

  it('counts only quotes still open or won in what the listed jobs are worth, and names what it left out', () => {
    const listed = (status: JobStatus, gross: string) => ({ status, totals: { gross } });
    // A Jobs page once read five jobs "worth £3,415.00" with a declined and a draft among them.
    const five = [listed('sent', '250.00'), listed('viewed', '40.00'), listed('accepted', '775.00'), listed('declined', '1500.00'), listed('draft', '850.00')];
    expect(listedValue(five)).toEqual({ openPence: 29_000, wonPence: 77_500, notCounted: '1 draft, 1 declined' });
    const rest = [listed('changes_requested', '10.00'), listed('booked', '20.00'), listed('done', '30.00'), listed('expired', '99.00'), listed('cancelled', '98.00'), listed('declined', '1.00'), listed('declined', '2.00')];
    expect(listedValue(rest)).toEqual({ openPence: 1_000, wonPence: 5_000, notCounted: '2 declined, 1 expired, 1 cancelled' });
    expect(listedValue([])).toEqual({ openPence: 0, wonPence: 0, notCounted: '' });
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
