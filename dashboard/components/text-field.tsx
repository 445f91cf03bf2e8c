import { useId, type InputHTMLAttributes, type Ref } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
  hint?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled input whose hint and error are tied to it with aria-describedby, so a
 * screen reader reads the error when the field gets focus.
 */
export function TextField({ label, error, hint, ref, className = '', 'aria-describedby': alsoDescribedBy, required, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  // Text elsewhere on the page that describes the field (aria-describedby) comes first.
  const describedBy =
    [alsoDescribedBy, hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      <input
        ref={ref}
        id={id}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`w-full rounded-lg border bg-white px-3 py-2.5 text-base text-stone-900 shadow-xs placeholder:text-stone-500 focus-visible:outline-2 sm:text-sm ${
          error ? 'border-red-600' : 'border-stone-300 hover:border-stone-400'
        }`}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-stone-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The visible "*" of a required field. Screen readers hear "required" from the input's
 * own `required` attribute, so the mark itself is hidden from them.
 */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-red-700">
      *
    </span>
  );
}
