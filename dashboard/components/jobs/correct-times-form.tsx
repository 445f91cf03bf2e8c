import { LoaderCircle, Save } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { Job } from '../../../core/jobs';
import { errorMessage } from '../../api/client';
import { useCorrectActuals } from '../../api/job-site';
import { ErrorAlert } from '../alert';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles } from '../ui';
import { correctionDraftOf, correctionOf, CORRECTION_MESSAGES, TIME_PARTS, type TimePart, type TreeTimesText } from './on-site-words';

type Errors = Record<number, Partial<Record<TimePart, string>>>;

/**
 * "Correct the times" (docs/product.md, The crew's day, Correcting the times): each tree's stored
 * times to change, sent as PATCH /api/jobs/{id}/actuals; the calibration takes out the old times
 * and adds the new, and the job names who corrected them.
 */
export function CorrectTimesForm({ job, titles, onDone }: { job: Job; titles: Map<number, string>; onDone: () => void }) {
  const actuals = job.actuals ?? [];
  const correct = useCorrectActuals(job.id);
  const [draft, setDraft] = useState<Record<number, TreeTimesText>>(() => correctionDraftOf(actuals));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const form = useRef<HTMLFormElement>(null);
  const hintId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (correct.isPending) return;
    setFailure(undefined);
    const checked = correctionOf(actuals, draft);
    if ('errors' in checked) {
      setErrors(checked.errors);
      setFailure(CORRECTION_MESSAGES.fixFirst);
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setErrors({});
    if ('unchanged' in checked) return setFailure(checked.unchanged);
    correct.mutate(
      { actuals: checked.actuals },
      {
        onSuccess: () => {
          showToast({ title: 'Times corrected', description: 'The corrected times will calibrate your next estimates.' });
          onDone();
        },
        onError: (error) => setFailure(errorMessage(error, 'The times could not be corrected. Please try again.')),
      },
    );
  }

  return (
    <form ref={form} onSubmit={submit} noValidate aria-label="Correct the times" aria-describedby={hintId} className="flex flex-col gap-3">
      <p id={hintId} className="text-sm text-stone-700">
        Crew minutes on site for each tree, as 45 or 2h 30m. An empty time keeps what is stored.
      </p>
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
      {actuals.map((actual) => (
        <fieldset key={actual.itemId} className="flex min-w-0 flex-col gap-2 rounded-xl border border-stone-200 p-3">
          <legend className="px-1 text-sm font-semibold text-stone-900">{titles.get(actual.itemId) ?? 'Tree'}</legend>
          <div className="grid gap-2 sm:grid-cols-3">
            {TIME_PARTS.map((part) => (
              <TextField
                key={part.key}
                label={part.label}
                autoComplete="off"
                placeholder="e.g. 1h 30m"
                value={draft[actual.itemId]?.[part.key] ?? ''}
                error={errors[actual.itemId]?.[part.key]}
                onChange={(event) => {
                  const text = event.target.value;
                  setDraft((all) => ({ ...all, [actual.itemId]: { ...(all[actual.itemId] ?? { cuttingTime: '', prepTime: '', cleanupTime: '' }), [part.key]: text } }));
                  setErrors((all) => ({ ...all, [actual.itemId]: { ...all[actual.itemId], [part.key]: undefined } }));
                }}
              />
            ))}
          </div>
        </fieldset>
      ))}
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="submit" className={buttonStyles.primary} aria-busy={correct.isPending || undefined}>
          {correct.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Save aria-hidden="true" className="size-4" />}
          Save the corrected times
        </button>
        <button type="button" className={buttonStyles.secondary} onClick={onDone}>
          Keep the times
        </button>
      </div>
    </form>
  );
}
