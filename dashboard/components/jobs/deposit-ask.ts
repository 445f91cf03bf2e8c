import { depositAskOf } from '../../../core/card-payments';
import { parsePence, penceToDecimal } from '../../../core/money';
import { formatPounds } from './job-list-summary';

/**
 * The deposit a quote asks on acceptance, in the job view's shape (core/jobs.ts Job deposit.asked:
 * a percentage, on totals over `over` pounds), and in words. Pure, so it is tested without a browser.
 */
export interface DepositAsked {
  percent: number;
  over: string;
}

/** What a quote sent now asks: the job's own percentage (0: none), else the Settings rule (core depositAskOf). */
export function depositAskNow(jobPercent: number | null, rule: { percent: number; overAmount: string } | null): DepositAsked | null {
  const ask = depositAskOf(jobPercent, rule ? { percent: rule.percent, overPence: parsePence(rule.overAmount) ?? 0 } : null);
  return ask ? { percent: ask.percent, over: penceToDecimal(ask.overPence) } : null;
}

/** "a 10% deposit on totals over £500.00", "a 25% deposit", "no deposit". */
export function depositAskWords(ask: DepositAsked | null): string {
  if (!ask) return 'no deposit';
  return `a ${ask.percent}% deposit${(parsePence(ask.over) ?? 0) > 0 ? ` on totals over ${formatPounds(ask.over)}` : ''}`;
}

/**
 * Whether a rule's threshold leaves this job out: its total with every optional item ticked
 * (`mostGross`, pounds) is not over `over`, so however the customer accepts, no deposit is asked.
 */
export function underThreshold(ask: DepositAsked | null, mostGross: string): boolean {
  return ask !== null && (parsePence(mostGross) ?? 0) <= (parsePence(ask.over) ?? 0);
}
