import { Spinner } from '../components/spinner';

/** While the business loads: a spinner with a label that assistive technology reads. */
export function LoadingView() {
  return (
    <div role="status" className="flex min-h-40 items-center justify-center gap-3 text-stone-700">
      <Spinner className="size-6 text-accent-visible" />
      <span>Loading the estimator…</span>
    </div>
  );
}
