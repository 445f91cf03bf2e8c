import { HandCoins } from 'lucide-react';

/**
 * At the head of the job page beside its status (docs/product.md, Getting paid, Each job's money):
 * the Settings deposit rule asks a deposit of this job and none is paid, so booking asks first.
 */
export function WaitingForDepositNotice() {
  return (
    <p className="mb-4 flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-950">
      <HandCoins aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>
        <strong className="font-semibold">Waiting for deposit:</strong> the deposit rule in Settings asks a deposit on this job, and none is paid yet.
      </span>
    </p>
  );
}
