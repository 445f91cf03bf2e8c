import { Undo2 } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'wouter';
import { formatBookingDate } from '../../../core/job-booking';
import { useRefundsDue } from '../../api/card-payments';
import { formatPounds } from '../jobs/job-list-summary';
import { cardStyles, linkStyles } from '../ui';

/**
 * Refunds due after a cancellation (docs/product.md, Card payments): each cancelled job whose
 * customer's money is still kept, what and by when (Consumer Contracts Regulations 2013, reg. 34:
 * within 14 days of being told), opening the job to refund its payments. Shown on the Invoices
 * page while any is left.
 */
export function RefundsDueList() {
  const due = useRefundsDue();
  const headingId = useId();
  if (!due.data || due.data.length === 0) return null;

  return (
    <section aria-labelledby={headingId} className={`${cardStyles} mb-6 flex flex-col gap-3 border-amber-300 p-4`}>
      <div>
        <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-stone-900">
          <Undo2 aria-hidden="true" className="size-5 text-amber-800" />
          Refunds due after a cancellation
        </h2>
        <p className="text-sm text-stone-700">Customers who cancelled and whose money you still hold. Open the job to refund each payment.</p>
      </div>
      <ul aria-labelledby={headingId} className="flex flex-col gap-2">
        {due.data.map((refund) => (
          <li key={refund.jobId} className="flex flex-col gap-1 rounded-lg bg-stone-50 p-3 text-sm text-stone-800 sm:flex-row sm:items-center sm:justify-between sm:gap-3">
            <p className="min-w-0 [overflow-wrap:anywhere]">
              <span className="font-semibold text-stone-900">{refund.customerName}</span>
              {': '}
              <span className="font-semibold tabular-nums">{formatPounds(refund.amount)}</span>
              {` to refund by ${formatBookingDate(refund.refundBy)}`}
              <span className="block text-xs text-stone-600">{`Cancelled on ${formatBookingDate(refund.cancelledOn)}`}</span>
            </p>
            <Link href={`/jobs/${refund.jobId}`} className={`inline-flex min-h-11 shrink-0 items-center ${linkStyles}`}>
              Open the job<span className="sr-only">{` for ${refund.customerName}`}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
