import { Ban, LoaderCircle } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { REFUND_DUTY } from '../../../core/consumer-rights';
import { formatBookingDate, ukToday } from '../../../core/job-booking';
import { RECORDED_CANCELLATION_VIAS, type CancellationVia, type Job } from '../../../core/jobs';
import { groupedFingerprint } from '../../../core/quote-copy';
import { errorMessage, isApiError } from '../../api/client';
import { useCancelJob } from '../../api/jobs';
import { ErrorAlert } from '../alert';
import { formatAnalysisDate } from '../analysis/analysis-date';
import { Dialog } from '../dialog';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles } from '../ui';

/**
 * A cancelled agreement, or the way to record one (docs/product.md, Jobs and quotes: cancelling).
 * The customer may cancel online within 14 days of accepting; when they tell the surgeon by
 * e-mail, letter, phone or in person instead, the surgeon records the day and how. Once
 * cancelled, the page says how and when, and within the 14 days what the surgeon must refund.
 */

const VIA_WORDS: Record<CancellationVia, string> = {
  online: 'online, from their quote page',
  email: 'by e-mail',
  letter: 'by letter',
  phone: 'by phone',
  in_person: 'in person',
};
const VIA_CHOICES: Record<(typeof RECORDED_CANCELLATION_VIAS)[number], string> = { email: 'E-mail', letter: 'Letter', phone: 'Phone', in_person: 'In person' };

function Cancelled({ job }: { job: Job }) {
  const cancelled = job.cancellation!;
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-xl border border-stone-300 bg-stone-50 p-4 text-sm text-stone-800">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-stone-900">
        <Ban aria-hidden="true" className="size-5" />
        Cancelled
      </h2>
      <p>
        {`${cancelled.name ?? job.customer.name} cancelled ${VIA_WORDS[cancelled.via]}, on ${formatBookingDate(cancelled.receivedOn, 'long')}`}
        {cancelled.withinPeriod ? ', within their 14-day cancellation period.' : ', after their 14-day cancellation period: a cancellation you agreed to.'}
      </p>
      {cancelled.withinPeriod ? <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-950">{REFUND_DUTY}</p> : null}
      {cancelled.note ? <p className="whitespace-pre-line [overflow-wrap:anywhere]">{`Note: ${cancelled.note}`}</p> : null}
      <details>
        <summary className="cursor-pointer font-medium">Evidence kept</summary>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 [overflow-wrap:anywhere]">
          <dt className="text-stone-600">Recorded</dt>
          <dd>
            <time dateTime={cancelled.at}>{formatAnalysisDate(cancelled.at)}</time>
          </dd>
          {cancelled.address ? (
            <>
              <dt className="text-stone-600">From</dt>
              <dd>{`${cancelled.address}${cancelled.userAgent ? `, ${cancelled.userAgent}` : ''}`}</dd>
            </>
          ) : null}
          <dt className="text-stone-600">Accepted copy</dt>
          <dd className="font-mono text-xs">{groupedFingerprint(cancelled.contentHash)}</dd>
        </dl>
      </details>
      <p>Both of you have been e-mailed.</p>
    </section>
  );
}

function RecordCancellation({ job }: { job: Job }) {
  const cancel = useCancelJob(job.id);
  const [open, setOpen] = useState(false);
  const [receivedOn, setReceivedOn] = useState(() => ukToday(new Date()));
  const [via, setVia] = useState<(typeof RECORDED_CANCELLATION_VIAS)[number]>('email');
  const [note, setNote] = useState('');
  const [failure, setFailure] = useState<{ message: string; receivedOn?: string } | null>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const lastDay = job.acceptance?.cancellableUntil ?? null;
  const busy = cancel.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    cancel.mutate(
      { receivedOn, via, note: note.trim() || null },
      {
        onSuccess: () => {
          setOpen(false);
          showToast({ title: 'Cancellation recorded', description: `${job.reference}: you and the customer have been e-mailed.` });
        },
        onError: (error) =>
          setFailure({ message: errorMessage(error, 'The cancellation could not be recorded. Please try again.'), receivedOn: isApiError(error) ? error.details?.receivedOn?.[0] : undefined }),
      },
    );
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-xl border border-stone-200 bg-white p-4 text-sm text-stone-800">
      <h2 id={headingId} className="text-base font-semibold text-stone-900">
        Cancelling
      </h2>
      <p>
        {lastDay
          ? `${job.customer.name} can cancel until the end of ${formatBookingDate(lastDay, 'long')}, online from their quote page or by telling you.`
          : 'This quote was priced for a business customer, so the 14-day right to cancel does not apply.'}{' '}
        If they told you by e-mail, letter, phone or in person, record it here.
      </p>
      <button ref={opener} type="button" className={`${buttonStyles.secondary} w-fit`} onClick={() => setOpen(true)}>
        <Ban aria-hidden="true" className="size-4" />
        Record a cancellation
      </button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Record a cancellation"
        description="The job reads Cancelled and is locked; the customer gets a confirmation and you a copy."
        returnFocusRef={opener}
        actions={
          <>
            <button type="button" className={buttonStyles.secondary} onClick={() => setOpen(false)} disabled={busy}>
              Keep the job
            </button>
            <button type="submit" form={`${headingId}-form`} className={buttonStyles.danger} aria-disabled={busy || undefined} aria-busy={busy || undefined}>
              {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
              Record the cancellation
            </button>
          </>
        }
      >
        <form id={`${headingId}-form`} onSubmit={submit} noValidate className="flex flex-col gap-4">
          {failure && !failure.receivedOn ? <ErrorAlert>{failure.message}</ErrorAlert> : null}
          <TextField label="Told on" type="date" required max={ukToday(new Date())} value={receivedOn} error={failure?.receivedOn} onChange={(event) => setReceivedOn(event.target.value)} />
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-stone-800">How they told you</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {RECORDED_CANCELLATION_VIAS.map((choice) => (
                <label key={choice} className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
                  <input type="radio" name="via" value={choice} checked={via === choice} onChange={() => setVia(choice)} className="size-5 accent-green-800" />
                  {VIA_CHOICES[choice]}
                </label>
              ))}
            </div>
          </fieldset>
          <TextArea label="Note (optional)" rows={2} maxLength={1000} value={note} onChange={(event) => setNote(event.target.value)} />
        </form>
      </Dialog>
    </section>
  );
}

/** On an accepted job: the cancellation, or the way to record one (not once the work is done). */
export function CancellationPanel({ job }: { job: Job }) {
  if (job.cancellation) return <Cancelled job={job} />;
  if ((job.status === 'accepted' || job.status === 'booked') && job.acceptance) return <RecordCancellation job={job} />;
  return null;
}
