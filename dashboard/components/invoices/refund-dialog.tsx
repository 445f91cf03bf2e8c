import { Undo2 } from 'lucide-react';
import type { RefObject } from 'react';
import { refundCreateSchema } from '../../../core/card-payments';
import { INVOICE_LIMITS, type Invoice } from '../../../core/invoices';
import { parsePence } from '../../../core/money';
import { usePaymentsSetup } from '../../api/card-payments';
import { useRefundPayment } from '../../api/invoices';
import { ErrorAlert } from '../alert';
import { formatPounds } from '../jobs/job-list-summary';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { focusFirstError, issuesToErrors } from './field-errors';
import { failedWith, FormDialog, useOpenedState } from './form-dialog';
import { invoiceName, paymentWords } from './invoice-history';

type Payment = Invoice['payments'][number];

/** Where the money goes: back to the card through the card payment service, or a refund the business made itself. */
function HowItIsRefunded({ payment }: { payment: Payment }) {
  // Only a payment taken online needs to know the provider: the demo moves no money, and says so.
  const setup = usePaymentsSetup(payment.online);
  const demo = setup.data?.provider === 'demo';
  return (
    <p className="rounded-lg bg-stone-50 px-3 py-2 text-sm text-stone-800">
      {payment.online
        ? demo
          ? 'A card payment taken online goes back to the customer’s card: on this install’s demo card payments, no money moves.'
          : 'A card payment taken online goes back to the customer’s card through Stripe.'
        : 'This payment was not taken online: pay the customer back yourself (by bank transfer, cash or cheque), and it is recorded here as refunded by you.'}{' '}
      A credit note for the same amount is issued on the invoice.
    </p>
  );
}

/** The payment, and after a part refund what was refunded and what is left of it. */
function refundDescription(payment: Payment): string {
  if ((parsePence(payment.refunded) ?? 0) === 0) return paymentWords(payment);
  return `${paymentWords(payment)}. ${formatPounds(payment.refunded)} refunded so far: ${formatPounds(payment.refundable)} left.`;
}

/**
 * Refunding a payment (docs/product.md, Card payments: refunds): all that is left of it or a part,
 * with a reason that goes on the credit note. Checked with the server's own schema first; the
 * server's sentence for too much goes under the amount, and Stripe's refusal (what to do
 * instead) at the dialog's top.
 */
export function RefundDialog({ invoice, payment, onClose, returnFocusRef }: { invoice: Invoice; payment: Payment | null; onClose: () => void; returnFocusRef?: RefObject<HTMLElement | null> }) {
  const refund = useRefundPayment();
  const open = payment !== null;
  const [draft, setDraft, state, setState] = useOpenedState(open, () => ({ amount: payment?.refundable ?? '', reason: '' }));
  const edit = (change: Partial<typeof draft>) => {
    setDraft((value) => ({ ...value, ...change }));
    setState({ errors: {}, failure: null });
  };

  function submit(form: HTMLFormElement) {
    if (!payment) return;
    const body = { amount: draft.amount.trim(), reason: draft.reason.trim() };
    const checked = refundCreateSchema.safeParse(body);
    const errors = checked.success ? {} : issuesToErrors(checked.error.issues);
    if (body.amount === '') errors.amount = 'Type the amount to refund';
    if (Object.keys(errors).length > 0) {
      setState({ errors, failure: null });
      return focusFirstError(form);
    }
    refund.mutate(
      { id: invoice.id, paymentId: payment.id, refund: body },
      {
        onSuccess: (saved) => {
          const made = saved.refunds.at(-1);
          showToast({
            title: 'Refund made',
            description: `${formatPounds(made?.amount ?? body.amount)} refunded on ${invoiceName(saved)}${made?.creditNoteNumber ? `, with credit note ${made.creditNoteNumber}` : ''}.`,
          });
          onClose();
        },
        onError: (error) => failedWith(error, ['amount', 'reason'], form, setState),
      },
    );
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Refund this payment"
      description={payment ? refundDescription(payment) : undefined}
      submitLabel="Refund"
      icon={<Undo2 aria-hidden="true" className="size-4" />}
      busy={refund.isPending}
      onSubmit={submit}
      returnFocusRef={returnFocusRef}
    >
      {state.failure ? <ErrorAlert>{state.failure}</ErrorAlert> : null}
      {payment ? <HowItIsRefunded payment={payment} /> : null}
      <TextField
        label="Amount to refund (£)"
        required
        inputMode="decimal"
        autoComplete="off"
        hint={payment ? `At most ${formatPounds(payment.refundable)}, what is left of this payment.` : undefined}
        value={draft.amount}
        error={state.errors.amount}
        onChange={(event) => edit({ amount: event.target.value })}
      />
      <TextArea
        label="Reason"
        hint="Printed on the credit note, e.g. the second stump was left in."
        rows={2}
        required
        maxLength={INVOICE_LIMITS.reason}
        value={draft.reason}
        error={state.errors.reason}
        onChange={(event) => edit({ reason: event.target.value })}
      />
    </FormDialog>
  );
}
