import { isApiError } from '../../api/client';

/** Field paths ("amount", "lines.0.price") to the first message for each. */
export type FieldErrors = Partial<Record<string, string>>;

/** The first message of each issue of a zod check made on the page (the server's own schema). */
export function issuesToErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return errors;
}

/**
 * A 400's per-field messages, for the fields a form shows; `rest` is the message to show in the
 * form's own alert when none of its fields is named (a 409, or a field the form does not have).
 */
export function serverErrors(error: unknown, fields: readonly string[] | ((path: string) => boolean)): { fields: FieldErrors; rest: string | null } {
  const shown = typeof fields === 'function' ? fields : (path: string) => fields.includes(path);
  const found: FieldErrors = {};
  if (isApiError(error) && error.details) {
    for (const [path, messages] of Object.entries(error.details)) {
      if (shown(path) && messages[0]) found[path] = messages[0];
    }
  }
  const message = error instanceof Error && error.message ? error.message : 'That did not work. Please try again.';
  return { fields: found, rest: Object.keys(found).length > 0 ? null : message };
}

/** After the render that marks them, the first field in error inside `root` takes focus. */
export function focusFirstError(root: HTMLElement | null): void {
  requestAnimationFrame(() => root?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
