import { MessageSquareText } from 'lucide-react';
import type { Job } from '../../../core/jobs';
import { formatAnalysisDate } from '../analysis/analysis-date';

/** The customer's latest request for a change, while the job waits on it: who, when and their words. */
function latestChangeRequest(job: Job): { version: number; at: string; name: string | null; message: string | null } | null {
  if (job.status !== 'changes_requested') return null;
  const asked = job.versions.flatMap((v) => v.answers.filter((a) => a.kind === 'changes_requested').map((a) => ({ version: v.version, at: a.at, name: a.name, message: a.message })));
  return asked.reduce<(typeof asked)[number] | null>((latest, a) => (latest === null || a.at > latest.at ? a : latest), null);
}

/**
 * At the head of the job page beside its status (docs/product.md, Jobs and quotes): what the customer
 * asked to change, so the surgeon reads it before editing, not only at the foot of the versions sent.
 */
export function ChangeRequestNotice({ job }: { job: Job }) {
  const asked = latestChangeRequest(job);
  if (!asked) return null;
  return (
    <section aria-label="Change asked for" className="mb-4 flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-950">
      <MessageSquareText aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0">
        <p className="font-semibold">
          {`${asked.name ?? job.customer.name} asked for a change to version ${asked.version} on `}
          <time dateTime={asked.at}>{formatAnalysisDate(asked.at)}</time>
        </p>
        {asked.message ? <blockquote className="mt-1 whitespace-pre-line [overflow-wrap:anywhere]">{asked.message}</blockquote> : null}
        <p className="mt-1 text-amber-900">Change the job below, save it, then send it again: the customer gets the new version.</p>
      </div>
    </section>
  );
}
