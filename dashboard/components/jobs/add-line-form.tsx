import { LoaderCircle, Plus } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { JOB_LIMITS, type Job } from '../../../core/jobs';
import { penceToDecimal } from '../../../core/money';
import type { VatMode } from '../../../core/price';
import { errorMessage } from '../../api/client';
import { useAddJobLine } from '../../api/jobs';
import { ErrorAlert } from '../alert';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles } from '../ui';
import { DESCRIPTION_MESSAGE, PRICE_MESSAGE, priceInPence } from './job-draft';

/** What the price typed means, by the job's VAT mode (as on each item's price). */
const LINE_PRICE_HINT: Record<VatMode, string | undefined> = {
  inc: 'Including VAT, as the customer reads it',
  ex: 'Before VAT: VAT is added to the total',
  none: undefined,
};

/**
 * "Add a line": work the photo cannot price (a hedge, a stump alone), typed with its price and
 * whether the customer chooses it. Kept apart from the job's own form, so adding a line leaves the
 * unsaved changes above it as they are.
 */
export function AddLineForm({ job, disabled }: { job: Job; disabled: boolean }) {
  const add = useAddJobLine(job.id);
  const id = useId();
  const [description, setDescription] = useState('');
  const [price, setPrice] = useState('');
  const [optional, setOptional] = useState(false);
  const [errors, setErrors] = useState<{ description?: string; price?: string }>({});
  const [failure, setFailure] = useState<string | undefined>();
  const descriptionField = useRef<HTMLInputElement>(null);
  const priceField = useRef<HTMLInputElement>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (add.isPending || disabled) return;
    const pence = priceInPence(price);
    const found = {
      ...(description.trim() === '' ? { description: DESCRIPTION_MESSAGE } : {}),
      ...(pence === undefined ? { price: PRICE_MESSAGE } : {}),
    };
    setErrors(found);
    setFailure(undefined);
    if (found.description) return descriptionField.current?.focus();
    if (pence === undefined) return priceField.current?.focus();
    add.mutate(
      { description: description.trim(), price: penceToDecimal(pence), optional },
      {
        onSuccess: () => {
          showToast({ title: 'Line added', description: description.trim() });
          setDescription('');
          setPrice('');
          setOptional(false);
          descriptionField.current?.focus();
        },
        onError: (error) => setFailure(errorMessage(error, 'The line could not be added. Please try again.')),
      },
    );
  }

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border border-dashed border-stone-300 bg-stone-50 p-3 sm:p-4">
      <h3 id={`${id}-title`} className="font-semibold text-stone-900">
        Add a line
      </h3>
      <p className="mt-0.5 text-sm text-stone-700">Work the photos cannot price: a hedge, a stump alone, clearing up.</p>
      <form onSubmit={submit} noValidate className="mt-3 flex flex-col gap-3">
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        <TextField
          ref={descriptionField}
          label="What will be done"
          placeholder="Reduce the beech hedge along the drive by 1 m"
          maxLength={JOB_LIMITS.description}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.description}
          disabled={disabled}
          required
        />
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <TextField
            ref={priceField}
            label="Price (£)"
            type="number"
            inputMode="decimal"
            min="0"
            step="0.01"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
            error={errors.price}
            hint={LINE_PRICE_HINT[job.vatMode]}
            disabled={disabled}
            required
            className="sm:max-w-xs"
          />
          <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-stone-800">
            <input
              type="checkbox"
              checked={optional}
              onChange={(event) => setOptional(event.target.checked)}
              disabled={disabled}
              className="size-5 accent-green-800"
            />
            Optional: the customer chooses
          </label>
        </div>
        <button type="submit" className={`${buttonStyles.secondary} self-start`} disabled={disabled} aria-busy={add.isPending || undefined}>
          {add.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Plus aria-hidden="true" className="size-4" />}
          Add the line
        </button>
      </form>
    </section>
  );
}
