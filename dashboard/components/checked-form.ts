import { useRef, useState, type FormEvent } from 'react';
import type { Checked, FieldErrors } from '../../core/account-checks';

/**
 * A sign-in screen's form state without react-hook-form (a tenth of a guest's first
 * load): the inputs stay uncontrolled and are read by name on submit, checked by a
 * core/account-checks.ts function, and each field shows its first message. As
 * react-hook-form did here: nothing is checked before the first submit, after it a field
 * is checked again as it changes, and a failed submit focuses the first field in error.
 */
export function useCheckedForm<V extends object, F extends keyof V & string>(
  /** The inputs' names, in the order they appear. */
  fields: readonly NoInfer<keyof V & string>[],
  check: (raw: V) => Checked<F, V>,
  /** Values that are part of the payload but not typed by anyone (a reset link's token). */
  fixed: Partial<V> = {},
) {
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const submitted = useRef(false);

  function read(form: HTMLFormElement): V {
    const data = new FormData(form);
    const raw = Object.fromEntries(fields.map((field) => [field, String(data.get(field) ?? '')]));
    return { ...raw, ...fixed } as V;
  }

  /** The form's onSubmit: sends the cleaned values, or shows why not. */
  function onSubmit(send: (values: V) => void) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      submitted.current = true;
      const form = event.currentTarget;
      const result = check(read(form));
      if (result.ok) {
        setErrors({});
        send(result.values);
        return;
      }
      setErrors(result.errors);
      const first = fields.find((field) => result.errors[field as F]);
      const input = first ? form.elements.namedItem(first) : null;
      if (input instanceof HTMLElement) input.focus();
    };
  }

  /** The form's onChange (input events bubble to it): re-checks the changed field once submitted. */
  function onChange(event: FormEvent<HTMLFormElement>) {
    const target = event.target as { name?: unknown };
    const name = fields.find((field) => field === target.name) as F | undefined;
    if (!submitted.current || !name) return;
    const result = check(read(event.currentTarget));
    setErrors((current) => ({ ...current, [name]: result.ok ? undefined : result.errors[name] }));
  }

  /** A message from the server for one field (a taken username, say). */
  function setError(field: F, message: string) {
    setErrors((current) => ({ ...current, [field]: message }));
  }

  return { errors, onSubmit, onChange, setError };
}
