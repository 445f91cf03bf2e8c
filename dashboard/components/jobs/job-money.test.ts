import { describe, expect, it } from 'vitest';
import type { JobMoney } from '../../../core/invoices';
import { jobMoneyWords, moneyByJob } from './job-money';

const money = (change: Partial<JobMoney>): JobMoney => ({ jobId: 1, state: 'not_invoiced', owed: '0.00', waitingForDeposit: false, ...change });

describe("a job's money on the Jobs list", () => {
  it('says the state in its words, with nothing owed when the owed is nil', () => {
    expect(jobMoneyWords(money({}))).toEqual({ tone: 'not_invoiced', label: 'Not invoiced', owed: null });
    expect(jobMoneyWords(money({ state: 'deposit_paid' }))).toEqual({ tone: 'deposit_paid', label: 'Deposit paid', owed: null });
    expect(jobMoneyWords(money({ state: 'paid', owed: '0' }))).toMatchObject({ label: 'Paid', owed: null });
  });

  it('says what is owed in pounds, to the penny', () => {
    expect(jobMoneyWords(money({ state: 'part_paid', owed: '1080.00' })).owed).toBe('£1,080.00 owed');
    expect(jobMoneyWords(money({ state: 'overdue', owed: '0.01' }))).toEqual({ tone: 'overdue', label: 'Overdue', owed: '£0.01 owed' });
  });

  it('reads "Waiting for deposit" over the state while the rule asks a deposit and none is paid', () => {
    expect(jobMoneyWords(money({ waitingForDeposit: true }))).toEqual({ tone: 'waiting_for_deposit', label: 'Waiting for deposit', owed: null });
    // A deposit invoice issued and not yet paid: still waiting, and what it asks is owed.
    expect(jobMoneyWords(money({ state: 'deposit_due', owed: '120.00', waitingForDeposit: true }))).toEqual({ tone: 'waiting_for_deposit', label: 'Waiting for deposit', owed: '£120.00 owed' });
  });

  it('finds each job by its id', () => {
    const byJob = moneyByJob([money({ jobId: 7, state: 'paid' }), money({ jobId: 9 })]);
    expect(byJob.get(7)?.state).toBe('paid');
    expect(byJob.get(9)?.state).toBe('not_invoiced');
    expect(byJob.get(8)).toBeUndefined();
  });
});
