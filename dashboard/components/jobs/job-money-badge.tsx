import type { JobMoney } from '../../../core/invoices';
import { jobMoneyWords, type JobMoneyTone } from './job-money';

/** Colours as the invoice badges': nothing yet, waiting on the customer, some in, paid, chase it, and a deposit to ask for. */
const TONE: Record<JobMoneyTone, string> = {
  not_invoiced: 'bg-stone-100 text-stone-800',
  deposit_due: 'bg-sky-100 text-sky-900',
  deposit_paid: 'bg-green-100 text-green-900',
  invoiced: 'bg-sky-100 text-sky-900',
  part_paid: 'bg-amber-100 text-amber-950',
  overdue: 'bg-red-100 text-red-900',
  paid: 'bg-green-800 text-white',
  waiting_for_deposit: 'bg-amber-100 text-amber-950',
};

/** A job's money on the Jobs list: its state (or "Waiting for deposit") and what is owed, if anything. */
export function JobMoneyBadge({ money }: { money: JobMoney }) {
  const { tone, label, owed } = jobMoneyWords(money);
  return (
    <>
      <span className={`inline-flex w-fit items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONE[tone]}`}>{label}</span>
      {owed ? <span className="text-xs whitespace-nowrap text-stone-700 tabular-nums">{owed}</span> : null}
    </>
  );
}
