import { PenLine, Trash2, TreePine } from 'lucide-react';
import { useId } from 'react';
import type { JobItem } from '../../../core/jobs';
import { formatPrice, priceRows, type JobPrice, type VatMode } from '../../../core/price';
import { itemErrors, PRICE_VAT_NOTE, shownItem, type ItemDraft } from './job-draft';

/**
 * "1. Oak", "2. Typed line", and "Tree 3 (kind not sure)" for a tree nobody named (as its quote
 * request and the visitor's acknowledgement call it, core/request-tree.ts): what the item is
 * called on the page and to a screen reader.
 */
export function itemTitle(item: JobItem, index: number): string {
  if (item.kind === 'tree' && !item.estimate?.species) return `Tree ${index + 1} (kind not sure)`;
  const name = item.kind === 'line' ? 'Typed line' : (item.estimate?.species ?? 'Tree');
  return `${index + 1}. ${name}`;
}

const inputStyles = (error: boolean) =>
  `w-full rounded-lg border bg-white px-3 py-2.5 text-base text-stone-900 shadow-xs focus-visible:outline-2 disabled:bg-stone-100 sm:text-sm ${
    error ? 'border-red-600' : 'border-stone-300 hover:border-stone-400'
  }`;

function Picture({ item }: { item: JobItem }) {
  const box = 'size-20 shrink-0 rounded-lg bg-stone-100 sm:size-28';
  if (item.kind === 'tree' && item.estimate?.imageUrl) {
    const species = item.estimate.species;
    return <img src={item.estimate.imageUrl} alt={species ? `Photo of the ${species}` : 'Photo of the tree'} loading="lazy" className={`${box} object-cover`} />;
  }
  const Icon = item.kind === 'tree' ? TreePine : PenLine;
  return (
    <span className={`${box} flex flex-col items-center justify-center gap-1 text-center text-xs text-stone-600`}>
      <Icon aria-hidden="true" className="size-6" />
      {item.kind === 'tree' ? 'No photo' : 'Typed line'}
    </span>
  );
}

/** The estimate the tree's price started from, and how it was made up, for the surgeon to compare. */
function Estimate({ price, id }: { price: JobPrice; id: string }) {
  return (
    <div className="text-sm text-stone-700">
      <p id={id}>
        Estimate: <span className="font-semibold text-stone-900">{formatPrice(price)}</span>
      </p>
      <details className="mt-1">
        <summary className="cursor-pointer text-sm font-semibold text-green-800">How the estimate was made up</summary>
        <dl className="mt-1 rounded-lg bg-stone-50 px-3 py-1">
          {priceRows(price).map((row) => (
            <div key={row.label} className="flex items-baseline justify-between gap-3 border-t border-stone-200 py-1.5 first:border-t-0">
              <dt className="text-stone-800">
                {row.label}
                {row.detail ? <span className="block text-xs text-stone-600">{row.detail}</span> : null}
              </dt>
              <dd className={`text-right whitespace-nowrap ${row.strong ? 'font-bold text-green-900' : 'font-semibold text-stone-900'}`}>{row.value}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}

interface JobItemEditorProps {
  item: JobItem;
  index: number;
  draft: ItemDraft | undefined;
  vatMode: VatMode;
  onChange: (change: ItemDraft) => void;
  /** Absent once the quote is accepted: its items are a record. */
  onRemove?: () => void;
}

/**
 * One tree or typed line of a job: its photo, the words the customer reads, the surgeon's price
 * (with the estimate beside it for a tree), whether the customer chooses it, and Remove.
 */
export function JobItemEditor({ item, index, draft, vatMode, onChange, onRemove }: JobItemEditorProps) {
  const id = useId();
  const shown = shownItem(item, draft);
  const errors = itemErrors(item, draft);
  const title = itemTitle(item, index);
  const vatNote = PRICE_VAT_NOTE[vatMode];
  const estimate = item.kind === 'tree' ? item.estimate?.price : null;
  const priceDescribedBy = [vatNote ? `${id}-vat` : null, estimate ? `${id}-estimate` : null, errors.price ? `${id}-price-error` : null]
    .filter(Boolean)
    .join(' ');

  return (
    <li className="rounded-xl border border-stone-200 bg-white p-3 sm:p-4">
      <div role="group" aria-labelledby={`${id}-title`} className="flex flex-col gap-3">
        <div className="flex gap-3 sm:gap-4">
          <Picture item={item} />
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <div className="flex items-start justify-between gap-2">
              <h3 id={`${id}-title`} className="font-semibold break-words text-stone-900">
                {title}
              </h3>
              {onRemove ? (
                <button
                  type="button"
                  onClick={onRemove}
                  className="-mt-1 -mr-1 inline-flex shrink-0 items-center gap-1 rounded-lg px-2 py-1.5 text-sm font-semibold text-red-800 hover:bg-red-50 disabled:opacity-60"
                >
                  <Trash2 aria-hidden="true" className="size-4" />
                  Remove<span className="sr-only">{` ${title}`}</span>
                </button>
              ) : null}
            </div>
            {estimate ? <Estimate price={estimate} id={`${id}-estimate`} /> : null}
          </div>
        </div>

        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-description`} className="text-sm font-medium text-stone-800">
            Description
          </label>
          <textarea
            id={`${id}-description`}
            rows={3}
            value={shown.description}
            onChange={(event) => onChange({ description: event.target.value })}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? `${id}-description-error` : undefined}
            className={`${inputStyles(Boolean(errors.description))} resize-y field-sizing-content`}
          />
          {errors.description ? (
            <p id={`${id}-description-error`} className="text-sm text-red-700">
              {errors.description}
            </p>
          ) : null}
        </div>

        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-price`} className="text-sm font-medium text-stone-800">
              Price (£)
            </label>
            <div className="flex items-center gap-2">
              <input
                id={`${id}-price`}
                type="number"
                inputMode="decimal"
                min="0"
                step="0.01"
                value={shown.price}
                onChange={(event) => onChange({ price: event.target.value })}
                aria-invalid={errors.price ? true : undefined}
                aria-describedby={priceDescribedBy || undefined}
                className={`${inputStyles(Boolean(errors.price))} max-w-40`}
              />
              {vatNote ? (
                <span id={`${id}-vat`} className="text-sm whitespace-nowrap text-stone-700">
                  {vatNote}
                </span>
              ) : null}
            </div>
            {errors.price ? (
              <p id={`${id}-price-error`} className="text-sm text-red-700">
                {errors.price}
              </p>
            ) : null}
          </div>
          <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-stone-800">
            <input
              type="checkbox"
              checked={shown.optional}
              onChange={(event) => onChange({ optional: event.target.checked })}
              className="size-5 accent-green-800"
            />
            Optional: the customer chooses
          </label>
        </div>
      </div>
    </li>
  );
}
