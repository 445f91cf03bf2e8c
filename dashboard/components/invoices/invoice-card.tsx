import { Ban, Banknote, Download, FileCheck2, LoaderCircle, Pencil, ReceiptText, Send, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type RefObject } from 'react';
import type { Invoice } from '../../../core/invoices';
import type { Job } from '../../../core/jobs';
import { parsePence } from '../../../core/money';
import { errorMessage } from '../../api/client';
import { invoicePdfPath, useDeleteInvoice, useIssueInvoice, useRevokeInvoice } from '../../api/invoices';
import { ErrorAlert } from '../alert';
import { Dialog } from '../dialog';
import { formatPounds } from '../jobs/job-list-summary';
import { showToast } from '../toast';
import { tallButtonStyles } from '../ui';
import { CreditNoteList } from './credit-note-list';
import { DepositDialog } from './deposit-dialog';
import { FinalInvoiceDialog } from './final-invoice-dialog';
import { dayWords, heldMailWords, INVOICE_KIND_WORDS, invoiceHistory, invoiceName, moneyWords } from './invoice-history';
import { InvoiceStatusBadge } from './invoice-status-badge';
import { InvoicePayments } from './invoice-payments';
import { CreditNoteDialog, RecordPaymentDialog } from './payment-dialogs';
import { SendInvoiceDialog } from './send-invoice-dialog';

type Open = 'change' | 'delete' | 'send' | 'pay' | 'credit' | null;

/** A row of the card's figures: total, owed, due. */
function Figures({ invoice }: { invoice: Invoice }) {
  const rows: [string, string][] = [
    ['Total', formatPounds(invoice.totals.gross)],
    ...(invoice.number ? ([['Owed', formatPounds(invoice.owed)]] as [string, string][]) : []),
    ...(invoice.dueOn ? ([['Due', dayWords(invoice.dueOn)]] as [string, string][]) : []),
  ];
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm sm:flex sm:flex-wrap sm:gap-x-5">
      {rows.map(([label, value]) => (
        <div key={label} className="contents sm:flex sm:gap-1.5">
          <dt className="text-stone-600">{label}</dt>
          <dd className="font-semibold text-stone-900 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The lines as the invoice has them: accepted work, on-site lines, a deposit, deposits taken off. */
function Lines({ invoice }: { invoice: Invoice }) {
  return (
    <details className="text-sm text-stone-800">
      <summary className="cursor-pointer py-3 font-medium">{`Lines (${invoice.lines.length})`}</summary>
      <ul className="flex flex-col gap-1 pb-1">
        {invoice.lines.map((line) => (
          <li key={line.id} className="flex justify-between gap-3 [overflow-wrap:anywhere]">
            <span>
              {line.description}
              {line.note ? <span className="block text-xs text-stone-600">{line.note}</span> : null}
            </span>
            <span className="shrink-0 tabular-nums">{moneyWords(line.gross)}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * One invoice on its job's page: what it is and what it asks; for a draft, change, delete and
 * issue; once issued, send, the PDF, payments (each refundable, or removable with a reason), a
 * credit note, its credit notes (each with its PDF), and its history.
 */
export function InvoiceCard({ invoice, job, panelHeading }: { invoice: Invoice; job: Job; panelHeading: RefObject<HTMLHeadingElement | null> }) {
  const [open, setOpen] = useState<Open>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const issue = useIssueInvoice();
  const remove = useDeleteInvoice();
  const revoke = useRevokeInvoice();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const close = () => setOpen(null);
  const draft = invoice.number === null;
  const owed = (parsePence(invoice.owed) ?? 0) > 0;
  const history = invoiceHistory(invoice);
  const disputed = invoice.disputes.some((dispute) => dispute.status === 'open');

  function issueIt() {
    if (issue.isPending) return;
    setFailure(null);
    issue.mutate(invoice.id, {
      onSuccess: (issued) => {
        // The draft's buttons are gone: focus stays with the invoice, on its new number.
        requestAnimationFrame(() => heading.current?.focus());
        showToast({ title: `${invoiceName(issued)} issued`, description: `Due ${dayWords(issued.dueOn)}. Send it to the customer, or download the PDF.` });
      },
      onError: (error) => setFailure(errorMessage(error, 'The invoice could not be issued. Please try again.')),
    });
  }

  function deleteIt() {
    remove.mutate(invoice, {
      onSuccess: () => {
        close();
        // The card goes with its dialog: focus moves to the panel's heading rather than the page's top.
        requestAnimationFrame(() => panelHeading.current?.focus());
        showToast({ title: 'Draft deleted', description: `The draft ${INVOICE_KIND_WORDS[invoice.kind].toLowerCase()} is gone.` });
      },
      onError: (error) => {
        close();
        setFailure(errorMessage(error, 'The draft could not be deleted. Please try again.'));
      },
    });
  }

  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <h3 id={headingId} ref={heading} tabIndex={-1} className="font-semibold text-stone-900 outline-none">
          <span className="font-mono">{invoiceName(invoice)}</span>
          <span className="font-normal text-stone-700">{` · ${INVOICE_KIND_WORDS[invoice.kind]}${invoice.depositPercent !== null ? ` (${invoice.depositPercent}%)` : ''}`}</span>
        </h3>
        <span className="flex flex-wrap gap-1">
          {disputed ? <span className="inline-flex w-fit items-center rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white">Disputed</span> : null}
          <InvoiceStatusBadge status={invoice.status} />
        </span>
      </div>
      <Figures invoice={invoice} />
      {invoice.linksWithdrawnAt ? (
        <p className="text-sm text-stone-800">
          {`Links withdrawn: nothing is e-mailed to the customer until you send it again to an address you type.${invoice.heldMail.length > 0 ? ` Waiting to go then: ${heldMailWords(invoice.heldMail)}.` : ''}`}
        </p>
      ) : null}
      <Lines invoice={invoice} />
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}

      {draft ? (
        <>
          <p className="text-sm text-stone-700">Issuing gives it the next number. After that it never changes: a mistake is corrected with a credit note.</p>
          <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
            <button type="button" className={`${tallButtonStyles.primary} col-span-2`} onClick={issueIt} aria-disabled={issue.isPending || undefined} aria-busy={issue.isPending || undefined}>
              {issue.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <FileCheck2 aria-hidden="true" className="size-4" />}
              Issue
            </button>
            <button type="button" className={tallButtonStyles.secondary} onClick={() => setOpen('change')}>
              <Pencil aria-hidden="true" className="size-4" />
              Change
            </button>
            <button type="button" className={tallButtonStyles.dangerOutline} onClick={() => setOpen('delete')}>
              <Trash2 aria-hidden="true" className="size-4" />
              Delete
            </button>
          </div>
        </>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          {owed ? (
            <button type="button" className={tallButtonStyles.primary} onClick={() => setOpen('pay')}>
              <Banknote aria-hidden="true" className="size-4" />
              Record a payment
            </button>
          ) : null}
          <button type="button" className={tallButtonStyles.secondary} onClick={() => setOpen('send')}>
            <Send aria-hidden="true" className="size-4" />
            {invoice.sentAt ? 'Send again' : 'Send'}
          </button>
          <a href={invoicePdfPath(invoice.id)} download className={tallButtonStyles.secondary}>
            <Download aria-hidden="true" className="size-4" />
            Download PDF
          </a>
          {owed ? (
            <button type="button" className={tallButtonStyles.secondary} onClick={() => setOpen('credit')}>
              <ReceiptText aria-hidden="true" className="size-4" />
              Credit note
            </button>
          ) : null}
          {invoice.sentAt && !invoice.linksWithdrawnAt ? (
            <button
              type="button"
              className={tallButtonStyles.quiet}
              onClick={() =>
                revoke.mutate(invoice.id, {
                  onSuccess: () => showToast({ title: 'Links withdrawn', description: `The links sent for ${invoiceName(invoice)} now say it was withdrawn.` }),
                  onError: (error) => setFailure(errorMessage(error, 'The links could not be withdrawn.')),
                })
              }
            >
              <Ban aria-hidden="true" className="size-4" />
              Withdraw the links
            </button>
          ) : null}
        </div>
      )}

      {draft ? null : <InvoicePayments invoice={invoice} headingId={headingId} returnFocusRef={heading} />}
      {draft ? null : <CreditNoteList invoice={invoice} headingId={headingId} />}

      {history.length > 0 ? (
        <details className="text-sm text-stone-800">
          <summary className="cursor-pointer py-3 font-medium">History</summary>
          <ol className="flex list-disc flex-col gap-1 pl-5 [overflow-wrap:anywhere]">
            {history.map((event, index) => (
              <li key={index}>{event.text}</li>
            ))}
          </ol>
        </details>
      ) : null}

      {invoice.kind === 'deposit' ? (
        <DepositDialog job={job} invoice={invoice} open={open === 'change'} onClose={close} />
      ) : (
        <FinalInvoiceDialog job={job} invoice={invoice} open={open === 'change'} onClose={close} />
      )}
      <Dialog
        open={open === 'delete'}
        onClose={close}
        title="Delete this draft?"
        returnFocusRef={panelHeading}
        actions={
          <>
            <button type="button" className={tallButtonStyles.secondary} onClick={close} disabled={remove.isPending}>
              Keep it
            </button>
            <button type="button" className={tallButtonStyles.danger} onClick={deleteIt} aria-busy={remove.isPending || undefined} disabled={remove.isPending}>
              Delete
            </button>
          </>
        }
      >
        <p className="text-stone-800">{`The draft ${INVOICE_KIND_WORDS[invoice.kind].toLowerCase()} for ${formatPounds(invoice.totals.gross)} is deleted. It was never issued, so no number is used.`}</p>
      </Dialog>
      {draft ? null : (
        <>
          <SendInvoiceDialog invoice={invoice} open={open === 'send'} onClose={close} returnFocusRef={heading} />
          <RecordPaymentDialog invoice={invoice} open={open === 'pay'} onClose={close} returnFocusRef={heading} />
          <CreditNoteDialog invoice={invoice} open={open === 'credit'} onClose={close} returnFocusRef={heading} />
        </>
      )}
    </li>
  );
}
