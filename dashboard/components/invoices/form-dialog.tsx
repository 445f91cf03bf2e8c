import { LoaderCircle } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Dialog } from '../dialog';
import { tallButtonStyles } from '../ui';
import { focusFirstError, serverErrors, type FieldErrors } from './field-errors';

/**
 * What the invoice dialogs share: a form sent by the dialog's primary button, its fields starting
 * again at each opening, and the server's messages put under the fields they name.
 */

export interface FormState {
  errors: FieldErrors;
  failure: string | null;
}

/** A dialog whose form is sent by its primary button; the form starts again at each opening. */
export function FormDialog({
  open,
  onClose,
  title,
  description,
  submitLabel,
  icon,
  danger = false,
  busy,
  onSubmit,
  returnFocusRef,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  submitLabel: string;
  icon: ReactNode;
  danger?: boolean;
  busy: boolean;
  onSubmit: (form: HTMLFormElement) => void;
  /** Where focus goes after closing when the button that opened it is gone (paid in full: no more Record a payment). */
  returnFocusRef?: RefObject<HTMLElement | null>;
  children: ReactNode;
}) {
  const formId = useId();
  const form = useRef<HTMLFormElement>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      returnFocusRef={returnFocusRef}
      actions={
        <>
          <button type="button" className={tallButtonStyles.secondary} onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" form={formId} className={danger ? tallButtonStyles.danger : tallButtonStyles.primary} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
            {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : icon}
            {submitLabel}
          </button>
        </>
      }
    >
      <form
        id={formId}
        ref={form}
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          if (!busy && form.current) onSubmit(form.current);
        }}
      >
        {children}
      </form>
    </Dialog>
  );
}

/** Field state reset whenever the dialog opens again (adjusted while rendering). */
export function useOpenedState<T>(open: boolean, initial: () => T): [T, (value: T | ((value: T) => T)) => void, FormState, (state: FormState) => void] {
  const [value, setValue] = useState(initial);
  const [state, setState] = useState<FormState>({ errors: {}, failure: null });
  const [shown, setShown] = useState(open);
  if (shown !== open) {
    setShown(open);
    if (open) {
      setValue(initial());
      setState({ errors: {}, failure: null });
    }
  }
  return [value, setValue, state, setState];
}

export function failedWith(error: unknown, fields: readonly string[], form: HTMLFormElement, setState: (state: FormState) => void) {
  const server = serverErrors(error, fields);
  setState({ errors: server.fields, failure: server.rest });
  if (!server.rest) focusFirstError(form);
}

