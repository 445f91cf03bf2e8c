import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { errorTextStyles, fieldStyles, labelStyles } from '../ui';

interface FieldProps {
  id: string;
  label: string;
  /** "(optional)" beside the label. */
  optional?: boolean;
  /** The id of a hint elsewhere in the form that describes this field too. */
  describedBy?: string;
  error?: string;
}

/** The label, the control and its error, tied together for screen readers. */
function Field({ id, label, optional, error, children }: FieldProps & { children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className={labelStyles}>
        {label} {optional && <span className="font-normal text-stone-600">(optional)</span>}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className={errorTextStyles}>
          {error}
        </p>
      )}
    </div>
  );
}

function controlAria({ id, describedBy, error }: FieldProps) {
  const described = [describedBy, error ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
    className: fieldStyles,
  };
}

export function InputField({ id, label, optional, describedBy, error, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const field = { id, label, optional, describedBy, error };
  return (
    <Field {...field}>
      <input {...input} {...controlAria(field)} />
    </Field>
  );
}

export function TextAreaField({
  id,
  label,
  optional,
  describedBy,
  error,
  ...area
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const field = { id, label, optional, describedBy, error };
  return (
    <Field {...field}>
      <textarea {...area} {...controlAria(field)} />
    </Field>
  );
}
