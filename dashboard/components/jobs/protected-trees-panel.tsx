import { ExternalLink, LoaderCircle, RefreshCw, Save, ShieldAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { ukToday } from '../../../core/job-booking';
import { MISSING_WORDS, RECORD_OUTCOMES, RECORD_OUTCOME_WORDS, dayInWords, protectionRecordSchema, seasonInWords, type Protection, type RecordOutcome } from '../../../core/protection';
import { formatQuoteDate } from '../../../core/quote';
import { errorMessage, isApiError } from '../../api/client';
import { useProtection, useProtectionChange } from '../../api/protection';
import { ErrorAlert } from '../alert';
import { TextField } from '../text-field';
import { Section211Editor } from './section-211-editor';
import { showToast } from '../toast';
import { tallButtonStyles } from '../ui';

/**
 * A job's protected trees (docs/product.md, Protected trees): what the public data found at the
 * site's postcode, in its own honest words, with the council linked; the surgeon's record of what
 * the council said or what was sent (which, not the lookup, decides what booking allows); the
 * earliest start; the section 211 notice drafted from the estimate and corrected before download
 * (section-211-editor.tsx); and the nesting line once booked.
 */
export function ProtectedTreesPanel({ jobId }: { jobId: number }) {
  const protection = useProtection(jobId);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-stone-900">
        <ShieldAlert aria-hidden="true" className="size-5" />
        Protected trees
      </h2>
      {protection.isPending ? (
        <p className="flex items-center gap-2 text-sm text-stone-700" role="status">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          Looking up the site…
        </p>
      ) : protection.isError ? (
        <ErrorAlert>{errorMessage(protection.error, 'The protected trees could not be read. Reload the page to try again.')}</ErrorAlert>
      ) : (
        <ProtectionBody jobId={jobId} protection={protection.data} />
      )}
    </section>
  );
}

function LookupWords({ protection }: { protection: Protection }) {
  const { lookup } = protection;
  const council = lookup.council;
  return (
    <div className="flex flex-col gap-1 text-sm text-stone-800">
      <ul className="flex flex-col gap-1" aria-label="What the public data says">
        {lookup.words.map((words) => (
          <li key={words} className="font-medium text-stone-900">
            {words}
          </li>
        ))}
      </ul>
      {council?.website ? (
        <p>
          <a href={council.website} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-green-800 underline underline-offset-2">
            {council.name}
            <ExternalLink aria-hidden="true" className="size-3.5" />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
      ) : null}
      <p className="text-stone-600">
        {lookup.postcode ? `Postcode ${lookup.postcode}. ` : 'No postcode on this job: add one at the end of the site address. '}
        {lookup.checkedAt ? `Checked ${formatQuoteDate(new Date(lookup.checkedAt))} in the public planning data (planning.data.gov.uk).` : ''}
      </p>
    </div>
  );
}

function ProtectionBody({ jobId, protection }: { jobId: number; protection: Protection }) {
  const { lookUp } = useProtectionChange(jobId);
  const conservation = protection.lookup.conservationAreas.length > 0;
  const { record } = protection;
  return (
    <>
      <LookupWords protection={protection} />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={tallButtonStyles.secondary}
          aria-busy={lookUp.isPending || undefined}
          aria-disabled={lookUp.isPending || undefined}
          onClick={() => {
            if (!lookUp.isPending) lookUp.mutate(undefined, { onError: (err) => showToast({ title: 'Not checked', description: errorMessage(err, 'The lookup could not be made. Please try again.') }) });
          }}
        >
          {lookUp.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <RefreshCw aria-hidden="true" className="size-4" />}
          Check again
        </button>
      </div>
      <div role="status" className="flex flex-col gap-1 text-sm text-stone-800">
        {record ? (
          <p>
            <span className="font-medium text-stone-900">{RECORD_OUTCOME_WORDS[record.outcome]}</span>
            {` on ${dayInWords(record.on)}`}
            {record.reference ? ` (reference ${record.reference})` : ''}.{record.note ? ` ${record.note}` : ''}
          </p>
        ) : (
          <p>Nothing recorded yet.</p>
        )}
        {protection.missing.map((missing) => (
          <p key={missing} className="font-medium text-amber-900">{`Waiting for: ${MISSING_WORDS[missing]}.`}</p>
        ))}
        {protection.earliestStart ? <p className="font-medium text-stone-900">{`Earliest start: ${dayInWords(protection.earliestStart)}`}</p> : null}
        {protection.confirmation ? <p>{`Booked before the earliest start: ${protection.confirmation.reason}`}</p> : null}
        {protection.nestingCheck ? <p className="font-medium text-amber-900">{`${protection.nestingCheck}.`}</p> : null}
        <p className="text-stone-600">{`Nesting season: ${seasonInWords(protection.nesting)} (Settings).`}</p>
      </div>
      {/* Open while the notice is still to go to the council; a click away otherwise. */}
      <details open={(conservation && record === null) || undefined} className="border-t border-stone-200 pt-3">
        <summary className="min-h-11 cursor-pointer py-2 text-sm font-semibold text-green-900">Check and download the section 211 notice</summary>
        <Section211Editor jobId={jobId} />
      </details>
      {/* Open while booking waits on a record; a click away otherwise. */}
      <details open={protection.missing.length > 0 || undefined} className="border-t border-stone-200 pt-3">
        <summary className="min-h-11 cursor-pointer py-2 text-sm font-semibold text-green-900">Record what the council said or what was sent</summary>
        <RecordForm jobId={jobId} />
      </details>
    </>
  );
}

function RecordForm({ jobId }: { jobId: number }) {
  const { record } = useProtectionChange(jobId);
  const [outcome, setOutcome] = useState<RecordOutcome | null>(null);
  const [on, setOn] = useState(() => ukToday(new Date()));
  const [reference, setReference] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const name = useId();
  const legendId = useId();

  function save(event: FormEvent) {
    event.preventDefault();
    if (record.isPending) return;
    setFailure(null);
    const parsed = protectionRecordSchema.safeParse({ outcome: outcome ?? undefined, on, reference, note });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    record.mutate(
      { outcome: parsed.data.outcome, on: parsed.data.on, reference: parsed.data.reference, note: parsed.data.note },
      {
        onSuccess: (saved) => {
          showToast({ title: 'Recorded', description: saved.earliestStart ? `Earliest start: ${dayInWords(saved.earliestStart)}.` : RECORD_OUTCOME_WORDS[parsed.data.outcome] });
          setReference('');
          setNote('');
        },
        onError: (err) => {
          const details = isApiError(err) ? err.details : undefined;
          if (details && Object.keys(details).length > 0) setErrors(Object.fromEntries(Object.entries(details).map(([key, list]) => [key, list[0]])));
          else setFailure(errorMessage(err, 'The record could not be saved. Please try again.'));
        },
      },
    );
  }

  return (
    <form onSubmit={save} noValidate className="flex flex-col gap-3 pt-1">
      <fieldset aria-describedby={errors.outcome ? `${legendId}-error` : undefined} className="flex flex-col">
        <legend id={legendId} className="sr-only">
          What the council said or what was sent
        </legend>
        {RECORD_OUTCOMES.map((value) => (
          <label key={value} className="flex min-h-11 items-center gap-2 text-sm text-stone-900">
            <input
              type="radio"
              name={name}
              checked={outcome === value}
              onChange={() => {
                setOutcome(value);
                setErrors((e) => ({ ...e, outcome: undefined }));
              }}
              className="size-5 shrink-0 accent-green-800"
            />
            {RECORD_OUTCOME_WORDS[value]}
          </label>
        ))}
        {errors.outcome ? (
          <p id={`${legendId}-error`} className="text-sm font-medium text-red-800">
            {errors.outcome}
          </p>
        ) : null}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="On" type="date" hint="The day the council answered, consent was given or the notice was sent" value={on} error={errors.on} onChange={(e) => setOn(e.target.value)} />
        <TextField label="Council's reference (optional)" autoComplete="off" value={reference} error={errors.reference} onChange={(e) => setReference(e.target.value)} />
      </div>
      <TextField label="Note (optional)" autoComplete="off" value={note} error={errors.note} onChange={(e) => setNote(e.target.value)} />
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
      <button type="submit" className={`${tallButtonStyles.primary} self-start`} aria-busy={record.isPending || undefined} aria-disabled={record.isPending || undefined}>
        {record.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Save aria-hidden="true" className="size-4" />}
        Record
      </button>
    </form>
  );
}
