import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { buttonStyles } from './ui';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  children: ReactNode;
  /** Where focus goes after closing when the opener is gone (e.g. a closed menu). */
  returnFocusRef?: RefObject<HTMLElement | null>;
  /** The buttons at the foot, by default one "Got it". They close the dialog by setting `open` false. */
  actions?: ReactNode;
}

/**
 * A modal on the native <dialog>: the browser traps focus inside, Escape closes
 * it, and the page behind is inert. Focus goes back to whatever opened it.
 */
export function Dialog({ open, onClose, title, description, children, returnFocusRef, actions }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<Element | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  function handleClose() {
    const opener = openerRef.current;
    const target =
      opener instanceof HTMLElement && opener !== document.body && opener.isConnected && opener.checkVisibility()
        ? opener
        : returnFocusRef?.current;
    target?.focus();
    if (open) onClose();
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={handleClose}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, outside its panel.
        if (event.target === event.currentTarget) ref.current?.close();
      }}
      className="m-auto max-h-[85dvh] w-[min(100%-2rem,34rem)] overflow-y-auto rounded-2xl bg-white p-0 text-stone-800 shadow-xl"
    >
      {/* Content exists only while open, so a closed dialog adds nothing to the page's text. */}
      {open ? (
        <div className="p-5 sm:p-6">
          <div className="flex items-start justify-between gap-4">
            <div>
              <h2 id={titleId} className="text-xl font-bold text-green-900">
                {title}
              </h2>
              {description ? (
                <p id={descriptionId} className="mt-1 text-sm text-stone-600">
                  {description}
                </p>
              ) : null}
            </div>
            <button
              type="button"
              aria-label="Close"
              onClick={() => ref.current?.close()}
              className="-m-1 rounded-lg p-1.5 text-stone-600 hover:bg-stone-100 hover:text-stone-900"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          </div>
          <div className="mt-4">{children}</div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            {actions ?? (
              <button type="button" className={buttonStyles.primary} onClick={() => ref.current?.close()}>
                Got it
              </button>
            )}
          </div>
        </div>
      ) : null}
    </dialog>
  );
}
