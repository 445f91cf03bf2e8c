import { describe, expect, it } from 'vitest';
import type { JobStatus } from '../../../core/jobs';
import { countByStatus, filterJobs, formatPounds, totalGrossPence } from './job-list-summary';

const job = (reference: string, name: string, status: JobStatus, gross: string) => ({ reference, status, customer: { name }, totals: { gross } });

const jobs = [
  job('Q-000001', 'Łukasz Wójcik', 'draft', '600.00'),
  job('Q-000002', 'Zoë Ash', 'sent', '1225.00'),
  job('Q-000003', 'Sam Birch', 'draft', '0.05'),
  job('Q-000004', 'Jo Oakley', 'accepted', '99999.99'),
];

describe('the Jobs page', () => {
  it('counts every status, naming the ones with none', () => {
    const counts = countByStatus(jobs);
    expect(counts).toMatchObject({ draft: 2, sent: 1, accepted: 1, done: 0, changes_requested: 0 });
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(4);
  });

  it('filters by status and searches names and quote numbers, without case or accents', () => {
    expect(filterJobs(jobs, 'draft', '').map((j) => j.reference)).toEqual(['Q-000001', 'Q-000003']);
    expect(filterJobs(jobs, 'all', 'wojcik').map((j) => j.reference)).toEqual(['Q-000001']);
    expect(filterJobs(jobs, 'all', '  ZOE  ').map((j) => j.reference)).toEqual(['Q-000002']);
    expect(filterJobs(jobs, 'all', 'sam birch').map((j) => j.reference)).toEqual(['Q-000003']);
    expect(filterJobs(jobs, 'all', 'q-000004').map((j) => j.reference)).toEqual(['Q-000004']);
    expect(filterJobs(jobs, 'sent', 'sam')).toEqual([]);
    expect(filterJobs(jobs, 'all', '')).toHaveLength(4);
  });

  it('adds up what the listed jobs are worth exactly, in pence', () => {
    expect(totalGrossPence(jobs)).toBe(60_000 + 122_500 + 5 + 9_999_999);
    expect(totalGrossPence([])).toBe(0);
    expect(formatPounds('101824.04')).toBe('£101,824.04');
  });
});
