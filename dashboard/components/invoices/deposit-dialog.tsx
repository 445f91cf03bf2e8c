import { useQuery } from '@tanstack/react-query';
import { LoaderCircle, Save } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { depositFromPercent } from '../../../core/invoice-money';
import { invoicePatchSchema, type Invoice } from '../../../core/invoices';
import type { Job } from '../../../core/jobs';
import { formatGbp, parsePence } from '../../../core/money';
import { useCreateInvoice, useUpdateInvoice } from '../../api/invoices';
import { queryKeys } from '../../api/query-client';
import { signedInApi } from '../../api/signed-in';
import { ErrorAlert } from '../alert';
import { Dialog } from '../dialog';
import { formatPounds } from '../jobs/job-list-summary';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { tallButtonStyles } from '../ui';
import { focusFirstError, issuesToErrors, serverErrors } from './field-errors';

type Mode = 'percent' | 'amount';

interface Draft {
  mode: Mode;
  percent: string;
  amount: string;
}

/** A draft's own figure, or Settings' deposit rule, or nothing yet. */
function draftOf(invoice: Invoice | undefined, rulePercent: number | undefined): Draft {
  if (invoice) {
    return invoice.depositPercent !== null
      ? { mode: 'percent', percent: String(invoice.depositPercent), amount: '' }
      : { mode: 'amount', percent: '', amount: invoice.totals.gross };
  }
  return { mode: 'percent', percent: rulePercent !== undefined ? String(rulePercent) : '', amount: '' };
}

/** "That is £240.00 of the accepted £1,200.00." while a whole percentage is typed. */
function preview(draft: Draft, acceptedGross: string): string {
  const accepted = parsePence(acceptedGross) ?? 0;
  const percent = Number(draft.percent);
  if (draft.mode === 'percent' && draft.percent.trim() !== '' && percent > 0 && percent <= 100) {
    return `That is ${formatGbp(depositFromPercent(accepted, percent))} of the accepted ${formatGbp(accepted)}.`;
  }
  return `The customer accepted ${formatGbp(accepted)} in all.`;
}

function useDepositRule() {
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: signedInApi.settings.get });
  return settings.data?.depositRule ?? null;
}

/**
 * Making a deposit invoice, or changing a draft one (docs/product.md, Getting paid): a percentage
 * of the accepted total, to the hundredth, or an amount; Settings' deposit rule fills in its
 * percentage. The server's sentence (too large, nothing left to invoice) shows under the field.
 */
export function DepositDialog({ job, invoice, open, onClose, returnFocusRef }: { job: Job; invoice?: Invoice; open: boolean; onClose: () => void; returnFocusRef?: RefObject<HTMLElement | null> }) {
  const rule = useDepositRule();
  const create = useCreateInvoice(job.id);
  const update = useUpdateInvoice();
  const [draft, setDraft] = useState<Draft>(() => draftOf(invoice, rule?.percent));
  const [errors, setErrors] = useState<{ percent?: string; amount?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  // Each opening starts again from the saved figure or the rule (adjusted while rendering, not in an effect).
  const [shown, setShown] = useState(open);
  if (shown !== open) {
    setShown(open);
    if (open) {
      setDraft(draftOf(invoice, rule?.percent));
      setErrors({});
      setFailure(null);
    }
  }
  const form = useRef<HTMLFormElement>(null);
  const id = useId();
  const formId = `${id}-form`;
  const busy = create.isPending || update.isPending;
  const underRule = rule !== null && !invoice && (parsePence(job.totals.gross) ?? 0) <= (parsePence(rule.overAmount) ?? 0);

  function edit(change: Partial<Draft>) {
    setDraft((value) => ({ ...value, ...change }));
    setErrors({});
    setFailure(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const typed = draft.mode === 'percent' ? { percent: draft.percent.trim() === '' ? Number.NaN : Number(draft.percent) } : { amount: draft.amount.trim() };
    const checked = invoicePatchSchema.safeParse(typed);
    if (!checked.success) {
      const found = issuesToErrors(checked.error.issues);
      setErrors({ [draft.mode]: found[draft.mode] ?? (draft.mode === 'percent' ? 'Type a percentage from 1 to 100, like 20' : 'Type an amount in pounds, like 250') });
      return focusFirstError(form.current);
    }
    const change = draft.mode === 'percent' ? { percent: Number(draft.percent) } : { amount: draft.amount.trim() };
    const options = {
      onSuccess: (saved: Invoice) => {
        showToast({ title: invoice ? 'Deposit changed' : 'Deposit invoice made', description: `A draft for ${formatPounds(saved.totals.gross)}. Issue it when it is right.` });
        onClose();
      },
      onError: (error: unknown) => {
        const found = serverErrors(error, ['percent', 'amount']);
        // The server names the field of the ask it was sent; the form shows one of the two.
        const message = found.fields.percent ?? found.fields.amount;
        setErrors(message ? { [draft.mode]: message } : {});
        setFailure(found.rest);
        if (message) focusFirstError(form.current);
      },
    };
    if (invoice) update.mutate({ id: invoice.id, change }, options);
    else create.mutate({ kind: 'deposit', ...change }, options);
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      returnFocusRef={returnFocusRef}
      title={invoice ? 'Change the deposit' : 'Make a deposit invoice'}
      description="Asked before the work: it is due on the day you issue it."
      actions={
        <>
          <button type="button" className={tallButtonStyles.secondary} onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className={tallButtonStyles.primary} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
            {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Save aria-hidden="true" className="size-4" />}
            {invoice ? 'Save the deposit' : 'Make deposit invoice'}
          </button>
        </>
      }
    >
      <form id={formId} ref={form} onSubmit={submit} noValidate className="flex flex-col gap-4">
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium text-stone-800">Ask for</legend>
          <div className="flex flex-wrap gap-x-5">
            {(['percent', 'amount'] as const).map((mode) => (
              <label key={mode} className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
                <input type="radio" name={`${id}-mode`} value={mode} checked={draft.mode === mode} onChange={() => edit({ mode })} className="size-5 accent-green-800" />
                {mode === 'percent' ? 'A percentage' : 'An amount'}
              </label>
            ))}
          </div>
        </fieldset>
        {draft.mode === 'percent' ? (
          <TextField
            label="Deposit (%)"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={draft.percent}
            error={errors.percent}
            hint={rule ? `Your deposit rule in Settings: ${rule.percent}% on jobs over ${formatPounds(rule.overAmount)}.` : 'Of the total the customer accepted, e.g. 20.'}
            onChange={(event) => edit({ percent: event.target.value })}
          />
        ) : (
          <TextField
            label="Deposit (£)"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={draft.amount}
            error={errors.amount}
            hint="What the customer pays, VAT included where the quote charges it."
            onChange={(event) => edit({ amount: event.target.value })}
          />
        )}
        <p role="status" className="text-sm text-stone-700">
          {preview(draft, job.totals.gross)}
          {underRule ? ` This job is not over ${formatPounds(rule.overAmount)}, so your rule would not ask for a deposit.` : null}
        </p>
      </form>
    </Dialog>
  );
}
