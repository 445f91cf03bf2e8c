import { Banknote, ReceiptText, Trash2 } from 'lucide-react';
import { useId, type RefObject } from 'react';
import { creditNoteCreateSchema, INVOICE_LIMITS, PAYMENT_METHOD_WORDS, PAYMENT_METHODS, paymentCreateSchema, paymentRemoveSchema, type Invoice, type PaymentMethod } from '../../../core/invoices';
import { ukToday } from '../../../core/job-booking';
import { useCreditInvoice, useRecordPayment, useRemovePayment } from '../../api/invoices';
import { ErrorAlert } from '../alert';
import { formatPounds } from '../jobs/job-list-summary';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { focusFirstError, issuesToErrors } from './field-errors';
import { failedWith, FormDialog, useOpenedState } from './form-dialog';
import { invoiceName, paymentWords } from './invoice-history';

/**
 * The money dialogs of an issued invoice (docs/product.md, Getting paid): record a payment,
 * remove one recorded by mistake (with a reason, kept in the history), and a credit note for the
 * whole of what is open or a part of it. Each checks with the server's own schema first, then
 * shows the server's sentence (more than is owed, a date in the future) under its field.
 */

interface PaymentDraft {
  amount: string;
  paidOn: string;
  method: PaymentMethod;
  reference: string;
}

export function RecordPaymentDialog({ invoice, open, onClose, returnFocusRef }: { invoice: Invoice; open: boolean; onClose: () => void; returnFocusRef?: RefObject<HTMLElement | null> }) {
  const record = useRecordPayment();
  const today = ukToday(new Date());
  const [draft, setDraft, state, setState] = useOpenedState<PaymentDraft>(open, () => ({ amount: invoice.owed, paidOn: today, method: 'bank_transfer', reference: invoice.number ?? '' }));
  const id = useId();
  const edit = (change: Partial<PaymentDraft>) => {
    setDraft((value) => ({ ...value, ...change }));
    setState({ errors: {}, failure: null });
  };

  function submit(form: HTMLFormElement) {
    const checked = paymentCreateSchema.safeParse(draft);
    if (!checked.success) {
      setState({ errors: issuesToErrors(checked.error.issues), failure: null });
      return focusFirstError(form);
    }
    record.mutate(
      { id: invoice.id, payment: { ...draft, amount: draft.amount.trim(), reference: draft.reference.trim() || undefined } },
      {
        onSuccess: (saved) => {
          showToast({ title: 'Payment recorded', description: saved.status === 'paid' ? `${invoiceName(saved)} is paid in full.` : `${formatPounds(saved.owed)} is still owed on ${invoiceName(saved)}.` });
          onClose();
        },
        onError: (error) => failedWith(error, ['amount', 'paidOn', 'method', 'reference'], form, setState),
      },
    );
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Record a payment"
      description={`${invoiceName(invoice)}: ${formatPounds(invoice.owed)} owed.`}
      submitLabel="Record the payment"
      icon={<Banknote aria-hidden="true" className="size-4" />}
      busy={record.isPending}
      onSubmit={submit}
      returnFocusRef={returnFocusRef}
    >
      {state.failure ? <ErrorAlert>{state.failure}</ErrorAlert> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Amount (£)" required inputMode="decimal" autoComplete="off" value={draft.amount} error={state.errors.amount} onChange={(event) => edit({ amount: event.target.value })} />
        <TextField label="Paid on" type="date" required max={today} value={draft.paidOn} error={state.errors.paidOn} onChange={(event) => edit({ paidOn: event.target.value })} />
      </div>
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-stone-800">How it was paid</legend>
        <div className="grid grid-cols-2 gap-x-4">
          {PAYMENT_METHODS.map((method) => (
            <label key={method} className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
              <input type="radio" name={`${id}-method`} value={method} checked={draft.method === method} onChange={() => edit({ method })} className="size-5 accent-green-800" />
              {PAYMENT_METHOD_WORDS[method]}
            </label>
          ))}
        </div>
        {state.errors.method ? <p className="text-sm text-red-700">{state.errors.method}</p> : null}
      </fieldset>
      <TextField
        label="Reference (optional)"
        hint="What the bank statement shows, or a cheque number."
        maxLength={INVOICE_LIMITS.reference}
        value={draft.reference}
        error={state.errors.reference}
        onChange={(event) => edit({ reference: event.target.value })}
      />
    </FormDialog>
  );
}

export function RemovePaymentDialog({ invoice, payment, onClose, returnFocusRef }: { invoice: Invoice; payment: Invoice['payments'][number] | null; onClose: () => void; returnFocusRef?: RefObject<HTMLElement | null> }) {
  const remove = useRemovePayment();
  const open = payment !== null;
  const [reason, setReason, state, setState] = useOpenedState(open, () => '');

  function submit(form: HTMLFormElement) {
    if (!payment) return;
    const checked = paymentRemoveSchema.safeParse({ reason });
    if (!checked.success) {
      setState({ errors: issuesToErrors(checked.error.issues), failure: null });
      return focusFirstError(form);
    }
    remove.mutate(
      { id: invoice.id, paymentId: payment.id, reason: reason.trim() },
      {
        onSuccess: (saved) => {
          showToast({ title: 'Payment removed', description: `${formatPounds(saved.owed)} is owed on ${invoiceName(saved)}. The payment stays in its history with your reason.` });
          onClose();
        },
        onError: (error) => failedWith(error, ['reason'], form, setState),
      },
    );
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Remove this payment?"
      description={payment ? paymentWords(payment) : undefined}
      submitLabel="Remove the payment"
      icon={<Trash2 aria-hidden="true" className="size-4" />}
      danger
      busy={remove.isPending}
      onSubmit={submit}
      returnFocusRef={returnFocusRef}
    >
      {state.failure ? <ErrorAlert>{state.failure}</ErrorAlert> : null}
      <TextArea
        label="Why is it removed?"
        hint="Kept in the invoice's history, e.g. recorded twice, or the cheque bounced."
        rows={2}
        required
        maxLength={INVOICE_LIMITS.reason}
        value={reason}
        error={state.errors.reason}
        onChange={(event) => {
          setReason(event.target.value);
          setState({ errors: {}, failure: null });
        }}
      />
    </FormDialog>
  );
}

interface CreditDraft {
  whole: boolean;
  amount: string;
  reason: string;
}

export function CreditNoteDialog({ invoice, open, onClose, returnFocusRef }: { invoice: Invoice; open: boolean; onClose: () => void; returnFocusRef?: RefObject<HTMLElement | null> }) {
  const credit = useCreditInvoice();
  const [draft, setDraft, state, setState] = useOpenedState<CreditDraft>(open, () => ({ whole: true, amount: '', reason: '' }));
  const id = useId();
  const edit = (change: Partial<CreditDraft>) => {
    setDraft((value) => ({ ...value, ...change }));
    setState({ errors: {}, failure: null });
  };

  function submit(form: HTMLFormElement) {
    const body = { reason: draft.reason.trim(), ...(draft.whole ? {} : { amount: draft.amount.trim() }) };
    const checked = creditNoteCreateSchema.safeParse(body);
    const errors = checked.success ? {} : issuesToErrors(checked.error.issues);
    if (!draft.whole && draft.amount.trim() === '') errors.amount = 'Type the amount to credit';
    if (Object.keys(errors).length > 0) {
      setState({ errors, failure: null });
      return focusFirstError(form);
    }
    credit.mutate(
      { id: invoice.id, credit: body },
      {
        onSuccess: (saved) => {
          const note = saved.creditNotes.at(-1);
          showToast({ title: 'Credit note made', description: `${note?.number ?? 'A credit note'} for ${formatPounds(note?.gross ?? '0')} on ${invoiceName(saved)}.` });
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
      title="Make a credit note"
      description="An issued invoice is never changed: a credit note takes off what it should not ask for."
      submitLabel="Make the credit note"
      icon={<ReceiptText aria-hidden="true" className="size-4" />}
      busy={credit.isPending}
      onSubmit={submit}
      returnFocusRef={returnFocusRef}
    >
      {state.failure ? <ErrorAlert>{state.failure}</ErrorAlert> : null}
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-stone-800">Credit</legend>
        <label className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
          <input type="radio" name={`${id}-whole`} checked={draft.whole} onChange={() => edit({ whole: true })} className="size-5 accent-green-800" />
          {`All that is open (${formatPounds(invoice.owed)})`}
        </label>
        <label className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
          <input type="radio" name={`${id}-whole`} checked={!draft.whole} onChange={() => edit({ whole: false })} className="size-5 accent-green-800" />
          Part of it
        </label>
      </fieldset>
      {draft.whole ? null : (
        <TextField label="Amount to credit (£)" required inputMode="decimal" autoComplete="off" value={draft.amount} error={state.errors.amount} onChange={(event) => edit({ amount: event.target.value })} />
      )}
      <TextArea
        label="Reason"
        hint="Printed on the credit note, e.g. the hedge was left for another day."
        rows={2}
        required
        maxLength={INVOICE_LIMITS.reason}
        value={draft.reason}
        error={state.errors.reason}
        onChange={(event) => edit({ reason: event.target.value })}
      />
      {draft.whole && state.errors.amount ? <p className="text-sm text-red-700">{state.errors.amount}</p> : null}
    </FormDialog>
  );
}
