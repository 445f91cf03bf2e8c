import { LoaderCircle, MapPin, Pencil, Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { SITE_NOTES_LIMITS, siteNotesSchema } from '../../../core/crew-day';
import type { Job } from '../../../core/jobs';
import { errorMessage, isApiError } from '../../api/client';
import { useSaveSiteNotes } from '../../api/job-site';
import { ErrorAlert } from '../alert';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles } from '../ui';

type Field = 'what3words' | 'accessNotes';

/**
 * The site notes for the crew's job sheet (docs/product.md, The crew's day, The job sheet):
 * what3words for the site and how to get in, the office's to write (PATCH /api/jobs/{id}/site-notes).
 * The customer never sees them, so they may change at any status; shown once the work is agreed.
 */
export function SiteNotesPanel({ job }: { job: Job }) {
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  if (job.status !== 'accepted' && job.status !== 'booked' && job.status !== 'done') return null;
  const notes = job.siteNotes ?? { what3words: null, accessNotes: null };
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4 text-sm">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-stone-900">
        <MapPin aria-hidden="true" className="size-5" />
        Site notes for the crew
      </h2>
      {editing ? (
        <SiteNotesForm job={job} notes={notes} onDone={() => setEditing(false)} />
      ) : (
        <>
          <dl className="flex flex-col gap-1 text-stone-800">
            <div className="flex flex-col sm:flex-row sm:gap-2">
              <dt className="font-semibold text-stone-900 sm:w-32 sm:shrink-0">what3words</dt>
              <dd>{notes.what3words ?? 'None yet'}</dd>
            </div>
            <div className="flex flex-col sm:flex-row sm:gap-2">
              <dt className="font-semibold text-stone-900 sm:w-32 sm:shrink-0">Access notes</dt>
              <dd className="whitespace-pre-line">{notes.accessNotes ?? 'None yet'}</dd>
            </div>
          </dl>
          <p className="text-xs text-stone-600">On the crew&apos;s job sheet on their phones; the customer does not see them.</p>
          <button type="button" className={`${buttonStyles.secondary} self-start`} onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" className="size-4" />
            Change the site notes
          </button>
        </>
      )}
    </section>
  );
}

function SiteNotesForm({ job, notes, onDone }: { job: Job; notes: NonNullable<Job['siteNotes']>; onDone: () => void }) {
  const save = useSaveSiteNotes(job);
  const [what3words, setWhat3words] = useState(notes.what3words ?? '');
  const [accessNotes, setAccessNotes] = useState(notes.accessNotes ?? '');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    setFailure(undefined);
    const body = { what3words: what3words.trim() || null, accessNotes: accessNotes.trim() || null };
    const checked = siteNotesSchema.safeParse(body);
    if (!checked.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of checked.error.issues) {
        const key = issue.path[0];
        if (key === 'what3words' || key === 'accessNotes') found[key] ??= issue.message;
      }
      return setErrors(found);
    }
    save.mutate(body, {
      onSuccess: () => {
        showToast({ title: 'Site notes saved', description: 'The crew sees them on the job sheet.' });
        onDone();
      },
      onError: (error) => {
        const details = isApiError(error, 'VALIDATION_ERROR') ? error.details : undefined;
        setErrors({ what3words: details?.what3words?.[0], accessNotes: details?.accessNotes?.[0] });
        setFailure(errorMessage(error, 'The site notes could not be saved. Please try again.'));
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Site notes for the crew" className="flex flex-col gap-3">
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
      <TextField
        label="what3words"
        hint="Three words with dots, for example ///filled.count.soap. Leave empty for none."
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        value={what3words}
        error={errors.what3words}
        onChange={(event) => {
          setWhat3words(event.target.value);
          setErrors((e) => ({ ...e, what3words: undefined }));
        }}
      />
      <TextArea
        label="Access notes"
        hint="How to get in and what to mind: gates, keys, parking, dogs."
        rows={3}
        maxLength={SITE_NOTES_LIMITS.accessNotes}
        value={accessNotes}
        error={errors.accessNotes}
        onChange={(event) => {
          setAccessNotes(event.target.value);
          setErrors((e) => ({ ...e, accessNotes: undefined }));
        }}
      />
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="submit" className={buttonStyles.primary} aria-busy={save.isPending || undefined}>
          {save.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Save aria-hidden="true" className="size-4" />}
          Save the site notes
        </button>
        <button type="button" className={buttonStyles.secondary} onClick={onDone}>
          Keep them
        </button>
      </div>
    </form>
  );
}
