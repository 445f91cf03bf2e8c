import { INVOICE_STATUS_WORDS, type InvoiceStatus } from '../../../core/invoices';

/** Colours by what the status asks of the surgeon: nothing yet, waiting, part there, paid, chase it, closed. */
const TONE: Record<InvoiceStatus, string> = {
  draft: 'bg-stone-100 text-stone-800',
  issued: 'bg-sky-100 text-sky-900',
  viewed: 'bg-sky-100 text-sky-900',
  part_paid: 'bg-amber-100 text-amber-950',
  paid: 'bg-green-800 text-white',
  overdue: 'bg-red-100 text-red-900',
  credited: 'bg-stone-200 text-stone-900',
};

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return (
    <span className={`inline-flex w-fit items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONE[status]}`}>
      {INVOICE_STATUS_WORDS[status]}
    </span>
  );
}
