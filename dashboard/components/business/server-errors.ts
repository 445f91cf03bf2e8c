import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { isApiError } from '../../api/client';

/**
 * Puts the server's answer on the fields it names: a 400's per-field `details`, and a
 * 409 (the slug is taken) on the slug. Returns whether any field got a message, so the
 * caller can leave the rest to the toast.
 */
export function showServerErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError' | 'setFocus'>,
  error: unknown,
  fields: readonly Path<T>[],
): boolean {
  if (!isApiError(error)) return false;
  const named: Path<T>[] = [];
  if (error.code === 'CONFLICT' && fields.includes('slug' as Path<T>)) {
    form.setError('slug' as Path<T>, { message: error.message });
    named.push('slug' as Path<T>);
  }
  for (const [field, messages] of Object.entries(error.details ?? {})) {
    const message = messages[0];
    if (message && fields.includes(field as Path<T>)) {
      form.setError(field as Path<T>, { message });
      named.push(field as Path<T>);
    }
  }
  const first = fields.find((f) => named.includes(f));
  if (first) form.setFocus(first);
  return named.length > 0;
}
