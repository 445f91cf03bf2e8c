import { JOB_MONEY_WORDS, type JobMoney, type JobMoneyState } from '../../../core/invoices';
import type { JobStatus } from '../../../core/jobs';
import { parsePence } from '../../../core/money';
import { formatPounds } from './job-list-summary';

/**
 * A job's money as the Jobs list and the job page say it (docs/product.md, Getting paid, Each
 * job's money): the server's state in its words, or "Waiting for deposit" when the Settings
 * deposit rule asks one of the job and none is paid, and what is owed on it. Pure, so tested
 * without a browser.
 */

/** The jobs `GET /api/invoices/jobs` answers for: once accepted, until cancelled. */
export const MONEY_STATUSES: ReadonlySet<JobStatus> = new Set(['accepted', 'booked', 'done']);

export const WAITING_FOR_DEPOSIT = 'Waiting for deposit';

/** The badge's colour: the server's states, and waiting for a deposit the rule asks. */
export type JobMoneyTone = JobMoneyState | 'waiting_for_deposit';

export interface JobMoneyWords {
  tone: JobMoneyTone;
  label: string;
  /** "£1,080.00 owed", or null when nothing is owed on the job's issued invoices. */
  owed: string | null;
}

export function jobMoneyWords(money: JobMoney): JobMoneyWords {
  const owedPence = parsePence(money.owed) ?? 0;
  return {
    tone: money.waitingForDeposit ? 'waiting_for_deposit' : money.state,
    label: money.waitingForDeposit ? WAITING_FOR_DEPOSIT : JOB_MONEY_WORDS[money.state],
    owed: owedPence > 0 ? `${formatPounds(money.owed)} owed` : null,
  };
}

/** The answer by job, for the list's rows to look up theirs. */
export function moneyByJob(list: readonly JobMoney[]): ReadonlyMap<number, JobMoney> {
  return new Map(list.map((money) => [money.jobId, money]));
}
