import { Undo2 } from 'lucide-react';
import { refundDueWords } from '../../../core/card-payments';
import { formatBookingDate } from '../../../core/job-booking';
import type { Job } from '../../../core/jobs';
import { parsePence } from '../../../core/money';
import { useRefundsDue } from '../../api/card-payments';

/**
 * At the head of a cancelled job's page (docs/product.md, Card payments: refunds due after a
 * cancellation): what the customer paid and is still kept, and the last day to pay it back
 * (Consumer Contracts Regulations 2013, reg. 34: 14 days from being told), until it is refunded
 * from the job's Invoices below.
 */
export function RefundDueNotice({ job }: { job: Job }) {
  const due = useRefundsDue(job.id, job.status === 'cancelled');
  const refund = due.data?.find((r) => r.jobId === job.id);
  if (!refund) return null;
  return (
    <p className="mb-4 flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-950">
      <Undo2 aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        <strong className="font-semibold">{`${refundDueWords(parsePence(refund.amount) ?? 0, formatBookingDate(refund.refundBy))}:`}</strong>
        {` the customer cancelled on ${formatBookingDate(refund.cancelledOn)}. Refund each payment from the job's invoices below.`}
      </span>
    </p>
  );
}
