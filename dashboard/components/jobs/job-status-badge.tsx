import type { JobStatus } from '../../../core/jobs';
import { JOB_STATUS_LABELS } from './job-list-summary';

/** Colours by what the status asks of the surgeon: nothing yet, waiting, won, lost, or act now. */
const TONE: Record<JobStatus, string> = {
  draft: 'bg-stone-100 text-stone-800',
  sent: 'bg-sky-100 text-sky-900',
  viewed: 'bg-sky-100 text-sky-900',
  accepted: 'bg-green-100 text-green-900',
  booked: 'bg-green-100 text-green-900',
  done: 'bg-green-800 text-white',
  declined: 'bg-red-100 text-red-900',
  expired: 'bg-red-100 text-red-900',
  changes_requested: 'bg-amber-100 text-amber-950',
  cancelled: 'bg-stone-200 text-stone-900',
};

export function JobStatusBadge({ status }: { status: JobStatus }) {
  return (
    <span className={`inline-flex w-fit items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONE[status]}`}>
      {JOB_STATUS_LABELS[status]}
    </span>
  );
}
