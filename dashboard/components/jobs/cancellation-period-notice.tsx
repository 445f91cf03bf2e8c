import { LoaderCircle, Mail, ShieldCheck } from 'lucide-react';
import { cancellationPeriodLine } from '../../../core/cancellation-period';
import { ukToday } from '../../../core/job-booking';
import type { Job } from '../../../core/jobs';
import { errorMessage } from '../../api/client';
import { useAskEarlyStart } from '../../api/jobs';
import { ErrorAlert } from '../alert';
import { showToast } from '../toast';
import { buttonStyles } from '../ui';

/**
 * Which applies to booking a consumer's job (docs/product.md, Jobs and quotes: the cancellation
 * period and early starts): their 14 days and the first day to book, an early start asked and
 * waiting, or the customer's request; with "Ask the customer to start early" while the period runs
 * and they have not asked. Nothing for a trade quote or once the period is over with nothing asked.
 */
export function CancellationPeriodNotice({ job }: { job: Job }) {
  const ask = useAskEarlyStart(job.id);
  const period = job.cancellationPeriod;
  const today = ukToday(new Date());
  const line = period ? cancellationPeriodLine(period, today) : null;
  if (!period || !line) return null;
  const requested = period.earlyStartRequestedAt !== null;
  return (
    <div className={`flex flex-col gap-2 rounded-lg px-3 py-2 text-sm ${requested ? 'bg-green-50 text-green-950' : 'bg-amber-50 text-amber-950'}`}>
      <p className="flex items-start gap-2 font-medium">
        <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span>{line}</span>
      </p>
      {!requested ? (
        <>
          <p className="text-xs">
            The customer may cancel within 14 days of accepting. Work starts inside them only if they ask; if they then cancel, they pay for the work done.
          </p>
          {ask.isError ? <ErrorAlert>{errorMessage(ask.error, 'The e-mail could not be sent. Please try again.')}</ErrorAlert> : null}
          <button
            type="button"
            className={`${buttonStyles.secondary} self-start`}
            aria-busy={ask.isPending || undefined}
            onClick={() => {
              if (ask.isPending) return;
              ask.mutate(undefined, {
                onSuccess: () => showToast({ title: 'Customer asked', description: 'They were e-mailed a link to their quote page, where they can ask for the work to start early.' }),
              });
            }}
          >
            {ask.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Mail aria-hidden="true" className="size-4" />}
            {period.earlyStartAskedAt ? 'Ask the customer again' : 'Ask the customer to start early'}
          </button>
        </>
      ) : null}
    </div>
  );
}
