import { LoaderCircle } from 'lucide-react';

/** An accessible loading indicator: screen readers hear "Loading". */
export function Spinner({ label = 'Loading', className = 'size-8' }: { label?: string; className?: string }) {
  return (
    <div role="status" aria-label={label} className="inline-flex">
      <LoaderCircle aria-hidden="true" className={`${className} animate-spin text-green-800`} />
    </div>
  );
}

export function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Spinner className="size-10" />
    </div>
  );
}
