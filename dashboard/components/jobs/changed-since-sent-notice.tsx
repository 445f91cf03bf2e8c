import { FilePenLine, TimerOff } from 'lucide-react';
import type { Job } from '../../../core/jobs';
import { formatAnalysisDate } from '../analysis/analysis-date';

/**
 * While a sent quote waits for its answer and the job has been changed since (docs/product.md,
 * Jobs and quotes: changed since sent): what changed, and that the customer can still accept only
 * the version they were sent until it is sent again.
 */
export function ChangedSinceSentNotice({ job }: { job: Job }) {
  const changed = job.changedSinceSent;
  if (!changed) return null;
  return (
    <section aria-label="Changed since sent" className="mb-4 flex items-start gap-2 rounded-lg border border-sky-200 bg-sky-50 px-3 py-2.5 text-sm text-sky-950">
      <FilePenLine aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0">
        <p className="font-semibold">{`Changed since version ${changed.version} was sent`}</p>
        <ul className="mt-1 list-disc pl-5 [overflow-wrap:anywhere]">
          {changed.changes.map((change, index) => (
            <li key={index}>{change.words}</li>
          ))}
        </ul>
        <p className="mt-1 text-sky-900">{`The customer can still accept only version ${changed.version} as it was sent. Send the quote again to offer these changes.`}</p>
      </div>
    </section>
  );
}

/** A quote past its validity without an answer: the customer's link says so; sending again makes a new version. */
export function ExpiredNotice({ job }: { job: Job }) {
  if (job.status !== 'expired') return null;
  const last = job.versions.find((version) => !version.replacedAt && !version.revokedAt);
  return (
    <section aria-label="Expired" className="mb-4 flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-950">
      <TimerOff aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p>
        {last ? (
          <>
            {`Version ${last.version} expired on `}
            <time dateTime={last.expiresAt}>{formatAnalysisDate(last.expiresAt)}</time>
            {' without an answer. '}
          </>
        ) : (
          'This quote expired without an answer. '
        )}
        Check the prices, then send it again: the customer gets a new version with a new validity.
      </p>
    </section>
  );
}
