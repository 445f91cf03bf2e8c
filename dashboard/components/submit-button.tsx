import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonStyles, tallButtonStyles } from './ui';

/**
 * A form's main button: disabled with a spinner (in place of its icon, if it has one)
 * while its request runs, its name unchanged. Full width unless it sits in a row of buttons.
 */
export function SubmitButton({
  pending,
  icon,
  fullWidth = true,
  tall = false,
  children,
}: {
  pending: boolean;
  icon?: ReactNode;
  fullWidth?: boolean;
  /** At least 44 px tall (tallButtonStyles). */
  tall?: boolean;
  children: ReactNode;
}) {
  const primary = tall ? tallButtonStyles.primary : buttonStyles.primary;
  return (
    <button
      type="submit"
      className={fullWidth ? `${primary} w-full` : primary}
      disabled={pending}
      aria-busy={pending || undefined}
    >
      {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : (icon ?? null)}
      {children}
    </button>
  );
}
