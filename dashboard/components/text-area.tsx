import { useId, type Ref, type TextareaHTMLAttributes } from 'react';

interface TextAreaProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string;
  hint?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

/** The multi-line sibling of TextField: hint and error tied to it with aria-describedby. */
export function TextArea({ label, error, hint, ref, className = '', rows = 4, ...textarea }: TextAreaProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-xs text-stone-600">
          {hint}
        </p>
      ) : null}
      <textarea
        ref={ref}
        id={id}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`w-full resize-y rounded-lg border bg-white px-3 py-2.5 text-base text-stone-900 shadow-xs placeholder:text-stone-500 focus-visible:outline-2 sm:text-sm ${
          error ? 'border-red-600' : 'border-stone-300 hover:border-stone-400'
        }`}
        {...textarea}
      />
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
