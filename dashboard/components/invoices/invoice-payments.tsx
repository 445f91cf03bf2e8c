import { Undo2 } from 'lucide-react';
import { useState, type RefObject } from 'react';
import type { Invoice } from '../../../core/invoices';
import { parsePence } from '../../../core/money';
import { formatPounds } from '../jobs/job-list-summary';
import { tallButtonStyles } from '../ui';
import { disputeWords, paymentWords, refundWords } from './invoice-history';
import { recordedBy } from '../by-person';
import { RemovePaymentDialog } from './payment-dialogs';
import { RefundDialog } from './refund-dialog';

type Payment = Invoice['payments'][number];

/**
 * An issued invoice's payments on its card (docs/product.md, Getting paid; Card payments:
 * refunds): each with how it was paid ("Card (online)" for one the customer paid on their page),
 * its refunds and their credit notes; Refund while some of it is left, and Remove (recorded by
 * mistake) while none of it was refunded and it was not taken online: a refund keeps the payment
 * in the record.
 */
export function InvoicePayments({ invoice, headingId, returnFocusRef }: { invoice: Invoice; headingId: string; returnFocusRef: RefObject<HTMLElement | null> }) {
  const [removing, setRemoving] = useState<Payment | null>(null);
  const [refunding, setRefunding] = useState<Payment | null>(null);
  if (invoice.payments.length === 0) return null;
  const listId = `${headingId}-payments`;

  return (
    <div className="flex flex-col gap-1">
      <h4 id={listId} className="text-sm font-semibold text-stone-900">
        Payments
      </h4>
      <ul aria-labelledby={listId} className="flex flex-col gap-1">
        {invoice.payments.map((payment) => {
          const refunds = invoice.refunds.filter((r) => r.paymentId === payment.id);
          const refundable = (parsePence(payment.refundable) ?? 0) > 0;
          // A card payment taken online is never removed, only refunded (the server refuses it too).
          const removable = !payment.online && (parsePence(payment.refunded) ?? 0) === 0;
          const named = <span className="sr-only">{` the payment of ${formatPounds(payment.amount)}`}</span>;
          // After a part refund the button offers what is left of the payment, not what was paid.
          const partlyRefunded = (parsePence(payment.refunded) ?? 0) > 0;
          return (
            <li key={payment.id} className="flex flex-wrap items-center justify-between gap-x-2 rounded-lg bg-stone-50 py-1 pl-3 text-sm text-stone-800">
              <div className="min-w-0 flex-1 basis-56 py-1">
                <p className="[overflow-wrap:anywhere]">{`${paymentWords(payment)}${recordedBy(payment.recordedBy)}`}</p>
                {invoice.disputes
                  .filter((dispute) => dispute.paymentId === payment.id)
                  .map((dispute) => (
                    <p key={dispute.id} className={`mt-1 pr-3 [overflow-wrap:anywhere] ${dispute.status === 'open' ? 'font-medium text-red-800' : 'text-stone-700'}`}>
                      {disputeWords(dispute)}
                    </p>
                  ))}
                {refunds.length > 0 ? (
                  <ul aria-label={`Refunds of ${formatPounds(payment.amount)}`} className="mt-1 flex flex-col gap-0.5 border-l-2 border-amber-300 pr-3 pl-2 text-stone-700">
                    {refunds.map((refund) => (
                      <li key={refund.id} className="[overflow-wrap:anywhere]">
                        {refundWords({ ...refund, creditNoteNumber: null })}
                        {/* The number is not split at its hyphen. */}
                        {refund.creditNoteNumber ? (
                          <>
                            {' (credit note '}
                            <span className="whitespace-nowrap">{`${refund.creditNoteNumber})`}</span>
                          </>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
              <span className="flex flex-wrap">
                {refundable ? (
                  <button type="button" className={`${tallButtonStyles.quiet} px-3`} onClick={() => setRefunding(payment)}>
                    <Undo2 aria-hidden="true" className="size-4" />
                    {partlyRefunded ? (
                      <>
                        {`Refund the ${formatPounds(payment.refundable)} left`}
                        <span className="sr-only">{` of the payment of ${formatPounds(payment.amount)}`}</span>
                      </>
                    ) : (
                      <>Refund{named}</>
                    )}
                  </button>
                ) : null}
                {removable ? (
                  <button type="button" className={`${tallButtonStyles.quiet} px-3`} onClick={() => setRemoving(payment)}>
                    Remove{named}
                  </button>
                ) : null}
              </span>
            </li>
          );
        })}
      </ul>
      <RemovePaymentDialog invoice={invoice} payment={removing} onClose={() => setRemoving(null)} returnFocusRef={returnFocusRef} />
      <RefundDialog invoice={invoice} payment={refunding} onClose={() => setRefunding(null)} returnFocusRef={returnFocusRef} />
    </div>
  );
}
