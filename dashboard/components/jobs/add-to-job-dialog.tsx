import { LoaderCircle } from 'lucide-react';
import { useId, useState, type FormEvent, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { LOCKED_STATUSES } from '../../../core/jobs';
import { errorMessage } from '../../api/client';
import { useAddJobTrees, useJobs } from '../../api/jobs';
import { ErrorAlert } from '../alert';
import { Dialog } from '../dialog';
import { Spinner } from '../spinner';
import { showToast } from '../toast';
import { buttonStyles } from '../ui';
import { JobStatusBadge } from './job-status-badge';

interface AddToJobDialogProps {
  open: boolean;
  onClose: () => void;
  /** The analyses ticked in History, in the order ticked. */
  analysisIds: readonly number[];
  /** The job to choose first: History opened from a job's "Add trees from History". */
  preferredJobId?: number;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/**
 * docs/product.md, Jobs and quotes: History's "Add to a job" puts the ticked trees into a job not
 * yet accepted (an accepted quote is a record), after its items, each priced from its estimate,
 * and opens the job. A tree already in the job is not added twice.
 */
export function AddToJobDialog({ open, onClose, analysisIds, preferredJobId, returnFocusRef }: AddToJobDialogProps) {
  const jobs = useJobs();
  const add = useAddJobTrees();
  const [, navigate] = useLocation();
  const [picked, setChosen] = useState<number | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const formId = useId();
  const open_ = (jobs.data ?? []).filter((job) => !LOCKED_STATUSES.has(job.status));
  // The job picked, else the one History was opened for, else the newest open one.
  const chosen = [picked, preferredJobId, open_[0]?.id].find((id) => id !== undefined && open_.some((job) => job.id === id));

  function close() {
    if (add.isPending) return;
    setFailure(undefined);
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (chosen === undefined) return setFailure('Choose a job.');
    setFailure(undefined);
    add.mutate(
      { jobId: chosen, analysisIds },
      {
        onSuccess: (job) => {
          showToast({ title: 'Added to the job', description: `${job.reference} for ${job.customer.name}` });
          onClose();
          navigate(`/jobs/${job.id}`);
        },
        onError: (error) => setFailure(errorMessage(error, 'The trees could not be added. Please try again.')),
      },
    );
  }

  const trees = analysisIds.length;
  let body;
  if (jobs.isPending) body = <Spinner label="Loading your jobs" />;
  else if (jobs.isError) body = <ErrorAlert>{errorMessage(jobs.error, 'Your jobs could not be loaded.')}</ErrorAlert>;
  else if (open_.length === 0) body = <p className="text-stone-800">No job is open for changes. Make a job of the ticked trees instead.</p>;
  else
    body = (
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-stone-800">Job</legend>
        {open_.map((job) => (
          <label key={job.id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-stone-200 px-3 py-2 has-checked:border-green-700 has-checked:bg-green-50">
            <input type="radio" name="job" value={job.id} checked={chosen === job.id} onChange={() => setChosen(job.id)} className="size-4 shrink-0 accent-green-800" />
            <span className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-x-2">
              <span className="min-w-0 break-words text-stone-900">{`${job.reference} for ${job.customer.name}`}</span>
              <JobStatusBadge status={job.status} />
            </span>
          </label>
        ))}
      </fieldset>
    );

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add to a job"
      description={`${trees === 1 ? 'The tree' : `The ${trees} trees`} you ticked go after the job's items, each priced from its estimate.`}
      returnFocusRef={returnFocusRef}
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={close} disabled={add.isPending}>
            Cancel
          </button>
          {open_.length > 0 ? (
            <button type="submit" form={formId} className={buttonStyles.primary} disabled={add.isPending} aria-busy={add.isPending || undefined}>
              {add.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
              Add to the job
            </button>
          ) : null}
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-4">
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        {body}
      </form>
    </Dialog>
  );
}
