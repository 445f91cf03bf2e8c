import { LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonStyles } from './ui';

/** A form's main button: disabled with a spinner while its request runs, its name unchanged. */
export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <button type="submit" className={`${buttonStyles.primary} w-full`} disabled={pending} aria-busy={pending || undefined}>
      {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
      {children}
    </button>
  );
}
