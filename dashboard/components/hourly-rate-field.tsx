import { useId, type InputHTMLAttributes, type Ref } from 'react';
import { RequiredMark } from './text-field';

interface PoundsFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: string;
  hint: string;
  error?: string;
  ref?: Ref<HTMLInputElement>;
}

type HourlyRateFieldProps = Omit<PoundsFieldProps, 'label'> & { label?: string };

/**
 * An hourly rate in pounds, a number input with step 0.01 and minimum 0,
 * with a £ in front. Shared by AI Settings and Business Admin so both read alike.
 */
export function HourlyRateField({ label = 'Hourly Rate', ...props }: HourlyRateFieldProps) {
  return <PoundsField label={label} {...props} />;
}

/** An amount in pounds read like the hourly rate (the pricing rules' charges). */
export function PoundsField({ hint, error, label, required, ...input }: PoundsFieldProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      <div className="relative w-full sm:max-w-52">
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-stone-700">
          £
        </span>
        <input
          id={id}
          type="number"
          inputMode="decimal"
          step={0.01}
          min={0}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          className={`w-full rounded-lg border bg-white py-2.5 pr-3 pl-7 text-base text-stone-900 shadow-xs focus-visible:outline-2 sm:text-sm ${
            error ? 'border-red-600' : 'border-stone-300 hover:border-stone-400'
          }`}
          {...input}
        />
      </div>
      <p id={`${id}-hint`} className="text-xs text-stone-600">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
