import { FilePlus2, ReceiptPoundSterling } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { Invoice } from '../../../core/invoices';
import type { Job } from '../../../core/jobs';
import { formatGbp, parsePence } from '../../../core/money';
import { useJobInvoices } from '../../api/invoices';
import { PageState } from '../page-state';
import { tallButtonStyles, linkStyles } from '../ui';
import { DepositDialog } from './deposit-dialog';
import { FinalInvoiceDialog } from './final-invoice-dialog';
import { InvoiceCard } from './invoice-card';

/** A final invoice that still stands: one a job unless it is credited in full (the server says so with a 409 too). */
const liveFinal = (invoices: readonly Invoice[]) => invoices.find((i) => i.kind === 'final' && i.status !== 'credited');

/** "£1,350.00 invoiced in all; £610.00 still owed.": the issued invoices, less what was credited. */
function Totals({ invoices }: { invoices: readonly Invoice[] }) {
  const issued = invoices.filter((i) => i.number !== null);
  if (issued.length === 0) return null;
  // A final invoice takes the deposits off its own total, so what is asked in all is the issued invoices' totals less what was credited.
  const invoiced = issued.reduce((sum, i) => sum + (parsePence(i.totals.gross) ?? 0) - (parsePence(i.credited) ?? 0), 0);
  const owed = issued.reduce((sum, i) => sum + (parsePence(i.owed) ?? 0), 0);
  return (
    <p className="text-sm text-stone-700">
      <span className="font-semibold text-stone-900">{formatGbp(invoiced)}</span>
      {' invoiced in all; '}
      <span className="font-semibold text-stone-900">{formatGbp(owed)}</span>
      {' still owed.'}
    </p>
  );
}

/**
 * The job page's Invoices (docs/product.md, Getting paid): shown once the customer has accepted
 * (and while booked or done). Deposit invoices and the final one, each made as a draft from the
 * accepted quote, issued, sent, paid and, where needed, credited.
 */
export function InvoicesPanel({ job }: { job: Job }) {
  const open = job.status === 'accepted' || job.status === 'booked' || job.status === 'done';
  // A cancelled agreement is invoiced no more, but what was issued before stays here to be credited or paid back.
  const shown = open || (job.status === 'cancelled' && job.acceptance !== null);
  const invoices = useJobInvoices(job.id, shown);
  const [making, setMaking] = useState<'deposit' | 'final' | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  if (!shown) return null;

  let content;
  if (invoices.isPending) content = <PageState kind="loading" label="Loading the invoices" className="py-6" />;
  else if (invoices.isError) content = <PageState kind="failed" error={invoices.error} fallback="The invoices could not be loaded." onRetry={invoices.refetch} />;
  else {
    const list = invoices.data;
    const final = liveFinal(list);
    content = (
      <>
        <Totals invoices={list} />
        {list.length === 0 ? (
          <p className="rounded-lg bg-stone-50 px-3 py-2 text-sm text-stone-700">
            {open ? 'No invoices yet. Ask for a deposit before the work, and make the final invoice when it is done.' : 'No invoices were made before the cancellation.'}
          </p>
        ) : (
          <ul aria-label={`Invoices for ${job.reference}`} className="flex flex-col gap-3">
            {list.map((invoice) => (
              <InvoiceCard key={invoice.id} invoice={invoice} job={job} panelHeading={heading} />
            ))}
          </ul>
        )}
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          {final || !open ? null : (
            <>
              <button type="button" className={tallButtonStyles.secondary} onClick={() => setMaking('deposit')}>
                <FilePlus2 aria-hidden="true" className="size-4" />
                Make deposit invoice
              </button>
              <button type="button" className={tallButtonStyles.secondary} onClick={() => setMaking('final')}>
                <FilePlus2 aria-hidden="true" className="size-4" />
                Make final invoice
              </button>
            </>
          )}
        </div>
        {final && open ? <p className="text-xs text-stone-600">{`The final invoice is ${final.number ?? 'a draft'}. To invoice again, credit it in full first.`}</p> : null}
      </>
    );
  }

  return (
    <section data-invoices-panel aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h2 id={headingId} ref={heading} tabIndex={-1} className="flex items-center gap-2 text-lg font-semibold text-stone-900 outline-none">
          <ReceiptPoundSterling aria-hidden="true" className="size-5" />
          Invoices
        </h2>
        <Link href="/invoices" className={`inline-flex min-h-11 items-center text-sm ${linkStyles}`}>
          All invoices
        </Link>
      </div>
      {content}
      <DepositDialog job={job} open={making === 'deposit'} onClose={() => setMaking(null)} returnFocusRef={heading} />
      <FinalInvoiceDialog job={job} open={making === 'final'} onClose={() => setMaking(null)} returnFocusRef={heading} />
    </section>
  );
}
