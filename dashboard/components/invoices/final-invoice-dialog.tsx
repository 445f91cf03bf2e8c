import { ListPlus, LoaderCircle, Save, X } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { INVOICE_LIMITS, onSiteLineSchema, type Invoice } from '../../../core/invoices';
import type { Job } from '../../../core/jobs';
import type { VatMode } from '../../../core/price';
import { useCreateInvoice, useUpdateInvoice, type OnSiteLine } from '../../api/invoices';
import { ErrorAlert } from '../alert';
import { Dialog } from '../dialog';
import { formatPounds } from '../jobs/job-list-summary';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { tallButtonStyles } from '../ui';
import { focusFirstError, issuesToErrors, serverErrors, type FieldErrors } from './field-errors';

interface LineDraft {
  key: number;
  description: string;
  price: string;
  note: string;
}

const PRICE_BASIS: Record<VatMode, string> = {
  inc: 'As the quote showed prices: including VAT.',
  ex: 'As the quote showed prices: before VAT (VAT is added).',
  none: 'No VAT is charged on this quote.',
};

let nextKey = 1;
const blankLine = (): LineDraft => ({ key: nextKey++, description: '', price: '', note: '' });

function linesOf(invoice: Invoice | undefined): LineDraft[] {
  return (invoice?.lines ?? []).filter((line) => line.kind === 'on_site').map((line) => ({ key: nextKey++, description: line.description, price: line.unitPrice, note: line.note ?? '' }));
}

const bodyOf = (lines: readonly LineDraft[]): OnSiteLine[] =>
  lines.map((line) => ({ description: line.description.trim(), price: line.price.trim(), ...(line.note.trim() ? { note: line.note.trim() } : {}) }));

/**
 * Making the final invoice, or changing a draft one (docs/product.md, Getting paid): the accepted
 * work and the optional items chosen, less the deposits issued, plus any lines agreed on site
 * (words, a price on the quote's VAT basis, a note).
 */
export function FinalInvoiceDialog({ job, invoice, open, onClose, returnFocusRef }: { job: Job; invoice?: Invoice; open: boolean; onClose: () => void; returnFocusRef?: RefObject<HTMLElement | null> }) {
  const create = useCreateInvoice(job.id);
  const update = useUpdateInvoice();
  const [lines, setLines] = useState<LineDraft[]>(() => linesOf(invoice));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [shown, setShown] = useState(open);
  if (shown !== open) {
    setShown(open);
    if (open) {
      setLines(linesOf(invoice));
      setErrors({});
      setFailure(null);
    }
  }
  const form = useRef<HTMLFormElement>(null);
  const id = useId();
  const formId = `${id}-form`;
  const busy = create.isPending || update.isPending;

  function edit(key: number, change: Partial<LineDraft>) {
    setLines((all) => all.map((line) => (line.key === key ? { ...line, ...change } : line)));
    setErrors({});
    setFailure(null);
  }

  function addLine() {
    setLines((all) => [...all, blankLine()]);
    // The new line's description takes focus once it is on the page.
    requestAnimationFrame(() => form.current?.querySelector<HTMLInputElement>('fieldset:last-of-type input')?.focus());
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found: FieldErrors = {};
    lines.forEach((line, index) => {
      const checked = onSiteLineSchema.safeParse(bodyOf([line])[0]);
      if (!checked.success) for (const [path, message] of Object.entries(issuesToErrors(checked.error.issues))) found[`lines.${index}.${path}`] = message;
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(form.current);
    const body = bodyOf(lines);
    const options = {
      onSuccess: (saved: Invoice) => {
        showToast({ title: invoice ? 'Final invoice changed' : 'Final invoice made', description: `A draft for ${formatPounds(saved.totals.gross)}. Issue it when it is right.` });
        onClose();
      },
      onError: (error: unknown) => {
        const server = serverErrors(error, (path) => path.startsWith('lines.'));
        setErrors(server.fields);
        setFailure(server.rest);
        if (!server.rest) focusFirstError(form.current);
      },
    };
    if (invoice) update.mutate({ id: invoice.id, change: { lines: body } }, options);
    else create.mutate({ kind: 'final', lines: body }, options);
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      returnFocusRef={returnFocusRef}
      title={invoice ? 'Change the final invoice' : 'Make the final invoice'}
      description="The work the customer accepted, with the optional items they chose, less the deposits you have issued."
      actions={
        <>
          <button type="button" className={tallButtonStyles.secondary} onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className={tallButtonStyles.primary} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
            {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Save aria-hidden="true" className="size-4" />}
            {invoice ? 'Save the final invoice' : 'Make final invoice'}
          </button>
        </>
      }
    >
      <form id={formId} ref={form} onSubmit={submit} noValidate className="flex flex-col gap-4">
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        <p className="text-sm text-stone-700">{`Work agreed on site goes on as lines of its own. ${PRICE_BASIS[job.vatMode]}`}</p>
        {lines.map((line, index) => (
          <fieldset key={line.key} className="flex min-w-0 flex-col gap-3 rounded-xl border border-stone-200 p-3">
            <legend className="px-1 text-sm font-semibold text-stone-900">{`Line agreed on site ${index + 1}`}</legend>
            <TextField
              label="Description"
              required
              maxLength={INVOICE_LIMITS.description}
              value={line.description}
              error={errors[`lines.${index}.description`]}
              onChange={(event) => edit(line.key, { description: event.target.value })}
            />
            <TextField
              label="Price (£)"
              required
              inputMode="decimal"
              autoComplete="off"
              value={line.price}
              error={errors[`lines.${index}.price`]}
              onChange={(event) => edit(line.key, { price: event.target.value })}
            />
            <TextField
              label="Note (optional)"
              maxLength={INVOICE_LIMITS.note}
              value={line.note}
              error={errors[`lines.${index}.note`]}
              onChange={(event) => edit(line.key, { note: event.target.value })}
            />
            <button
              type="button"
              className={`${tallButtonStyles.quiet} self-start`}
              onClick={() => {
                setLines((all) => all.filter((l) => l.key !== line.key));
                setErrors({});
              }}
            >
              <X aria-hidden="true" className="size-4" />
              {`Remove line ${index + 1}`}
            </button>
          </fieldset>
        ))}
        {lines.length < INVOICE_LIMITS.onSiteLines ? (
          <button type="button" className={`${tallButtonStyles.secondary} self-start`} onClick={addLine}>
            <ListPlus aria-hidden="true" className="size-4" />
            Add a line agreed on site
          </button>
        ) : null}
        {errors.lines ? <p className="text-sm text-red-700">{errors.lines}</p> : null}
      </form>
    </Dialog>
  );
}
