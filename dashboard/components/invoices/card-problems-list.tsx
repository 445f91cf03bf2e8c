import { CheckCheck, CreditCard } from 'lucide-react';
import { useId, useRef, useState, type RefObject } from 'react';
import { problemResolveSchema, type CardProblem } from '../../../core/card-payments';
import { INVOICE_LIMITS } from '../../../core/invoices';
import { useCardProblems, useResolveProblem } from '../../api/card-payments';
import { ErrorAlert } from '../alert';
import { formatPounds } from '../jobs/job-list-summary';
import { TextArea } from '../text-area';
import { showToast } from '../toast';
import { cardStyles, tallButtonStyles } from '../ui';
import { focusFirstError, issuesToErrors } from './field-errors';
import { failedWith, FormDialog, useOpenedState } from './form-dialog';
import { momentWords } from './invoice-history';

/**
 * Card payments to refund (docs/product.md, Card payments): a customer's card payment that
 * arrived but could not be taken as it came (the wrong amount, an invoice already paid, ...). The
 * money is in the business's Stripe account and should go back: they refund it in Stripe, then
 * mark it here as refunded with a note of what they did. Shown on the Invoices page while any is left.
 */

function ResolveDialog({ problem, onClose, returnFocusRef }: { problem: CardProblem | null; onClose: () => void; returnFocusRef: RefObject<HTMLElement | null> }) {
  const resolve = useResolveProblem();
  const open = problem !== null;
  const [note, setNote, state, setState] = useOpenedState(open, () => '');

  function submit(form: HTMLFormElement) {
    if (!problem) return;
    const checked = problemResolveSchema.safeParse({ note });
    if (!checked.success) {
      setState({ errors: issuesToErrors(checked.error.issues), failure: null });
      return focusFirstError(form);
    }
    resolve.mutate(
      { id: problem.id, note: checked.data.note },
      {
        onSuccess: () => {
          showToast({ title: 'Marked as refunded', description: `The card payment of ${formatPounds(problem.amount)} is off the list; your note is kept with it.` });
          onClose();
        },
        onError: (error) => failedWith(error, ['note'], form, setState),
      },
    );
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="Mark as refunded"
      description={problem ? `${formatPounds(problem.amount)}${problem.invoiceNumber ? ` for ${problem.invoiceNumber}` : ''}: refund it in your Stripe dashboard first, then say what you did.` : undefined}
      submitLabel="Mark as refunded"
      icon={<CheckCheck aria-hidden="true" className="size-4" />}
      busy={resolve.isPending}
      onSubmit={submit}
      returnFocusRef={returnFocusRef}
    >
      {state.failure ? <ErrorAlert>{state.failure}</ErrorAlert> : null}
      <TextArea
        label="Note"
        hint="Kept with the payment, e.g. refunded in full in Stripe on 3 December."
        rows={2}
        required
        maxLength={INVOICE_LIMITS.reason}
        value={note}
        error={state.errors.note}
        onChange={(event) => {
          setNote(event.target.value);
          setState({ errors: {}, failure: null });
        }}
      />
    </FormDialog>
  );
}

export function CardProblemsList() {
  const problems = useCardProblems();
  const [resolving, setResolving] = useState<CardProblem | null>(null);
  const headingId = useId();
  // The button that opened the dialog goes with its payment: focus comes back to the list's heading.
  const heading = useRef<HTMLHeadingElement>(null);
  if (problems.isError) {
    return (
      <div className="mb-6">
        <ErrorAlert>The card payments to refund could not be loaded. Please reload the page.</ErrorAlert>
      </div>
    );
  }
  if (!problems.data || problems.data.length === 0) return null;

  return (
    <section aria-labelledby={headingId} className={`${cardStyles} mb-6 flex flex-col gap-3 border-red-300 p-4`}>
      <div>
        <h2 id={headingId} ref={heading} tabIndex={-1} className="flex items-center gap-2 text-lg font-semibold text-stone-900 outline-none">
          <CreditCard aria-hidden="true" className="size-5 text-red-800" />
          Card payments to refund
        </h2>
        <p className="text-sm text-stone-700">Paid by card but not taken onto an invoice: refund each in your Stripe dashboard, then mark it as refunded here.</p>
      </div>
      <ul aria-labelledby={headingId} className="flex flex-col gap-2">
        {problems.data.map((problem) => (
          <li key={problem.id} className="flex flex-col gap-2 rounded-lg bg-stone-50 p-3 text-sm text-stone-800 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 [overflow-wrap:anywhere]">
              <p>
                <span className="font-semibold text-stone-900 tabular-nums">{formatPounds(problem.amount)}</span>
                {problem.invoiceNumber ? <span className="font-mono">{` · ${problem.invoiceNumber}`}</span> : null}
                <span className="text-stone-600">{` · ${momentWords(problem.at)}`}</span>
              </p>
              <p>{problem.words}</p>
            </div>
            <button type="button" className={`${tallButtonStyles.secondary} shrink-0`} onClick={() => setResolving(problem)}>
              <CheckCheck aria-hidden="true" className="size-4" />
              Mark as refunded<span className="sr-only">{`: ${formatPounds(problem.amount)}${problem.invoiceNumber ? ` for ${problem.invoiceNumber}` : ''}`}</span>
            </button>
          </li>
        ))}
      </ul>
      <ResolveDialog problem={resolving} onClose={() => setResolving(null)} returnFocusRef={heading} />
    </section>
  );
}
