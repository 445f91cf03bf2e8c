import { Download } from 'lucide-react';
import type { Invoice } from '../../../core/invoices';
import { creditNotePdfPath } from '../../api/invoices';
import { formatPounds } from '../jobs/job-list-summary';
import { tallButtonStyles } from '../ui';
import { dayWords } from './invoice-history';

/**
 * An issued invoice's credit notes on its card (docs/product.md, Getting paid: credit notes as
 * documents): each one's number, day, amount and reason, with its PDF to download (the one the
 * customer was e-mailed).
 */
export function CreditNoteList({ invoice, headingId }: { invoice: Invoice; headingId: string }) {
  if (invoice.creditNotes.length === 0) return null;
  const listId = `${headingId}-credit-notes`;
  return (
    <div className="flex flex-col gap-1">
      <h4 id={listId} className="text-sm font-semibold text-stone-900">
        Credit notes
      </h4>
      <ul aria-labelledby={listId} className="flex flex-col gap-1">
        {invoice.creditNotes.map((note) => (
          <li key={note.id} className="flex flex-wrap items-center justify-between gap-x-2 rounded-lg bg-stone-50 py-1 pl-3 text-sm text-stone-800">
            <p className="min-w-0 flex-1 basis-56 py-1 [overflow-wrap:anywhere]">
              <span className="whitespace-nowrap font-mono">{note.number}</span>
              {` on ${dayWords(note.issuedOn)}: ${formatPounds(note.gross)}. ${note.reason}`}
            </p>
            <a href={creditNotePdfPath(invoice.id, note.id)} download className={tallButtonStyles.quiet}>
              <Download aria-hidden="true" className="size-4" />
              PDF<span className="sr-only">{` of credit note ${note.number}`}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
