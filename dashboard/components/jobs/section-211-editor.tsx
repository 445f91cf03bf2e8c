import { Download, LoaderCircle, Save } from 'lucide-react';
import { useId, useState, type FormEvent, type MouseEvent } from 'react';
import { section211BodySchema, type NoticeTree, type Section211, type Section211Input } from '../../../core/section-211';
import { errorMessage } from '../../api/client';
import { section211PdfUrl, useSaveSection211, useSection211 } from '../../api/protection';
import { ErrorAlert } from '../alert';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { tallButtonStyles } from '../ui';

/**
 * The section 211 notice checked and corrected before it goes to the council (docs/product.md,
 * Protected trees): each line of the job with its species (or a description when it is not
 * known), where it stands on the site, the work and the trunk measured at 1.5 m, drafted from the
 * estimates. Save keeps the corrections; Download saves any left unsaved, then fetches the PDF,
 * which prints what was saved.
 */
export function Section211Editor({ jobId }: { jobId: number }) {
  const notice = useSection211(jobId);
  if (notice.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-stone-700" role="status">
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
        Drafting the notice…
      </p>
    );
  }
  if (notice.isError) return <ErrorAlert>{errorMessage(notice.error, 'The notice could not be read. Reload the page to try again.')}</ErrorAlert>;
  // A fresh form whenever the saved notice changes (after Save, or the job's lines).
  return <NoticeForm key={`${notice.data.savedAt ?? 'drafted'}:${notice.data.trees.map((t) => t.itemId).join(',')}`} jobId={jobId} notice={notice.data} />;
}

interface TreeDraft {
  itemId: number;
  species: string;
  description: string;
  location: string;
  work: string;
  trunkValue: string;
  trunkUnit: 'cm' | 'in';
}

const draftOf = (tree: NoticeTree): TreeDraft => ({
  itemId: tree.itemId,
  species: tree.species ?? '',
  description: tree.description ?? '',
  location: tree.location ?? '',
  work: tree.work,
  trunkValue: tree.trunk ? String(tree.trunk.value) : '',
  trunkUnit: tree.trunk?.unit ?? 'cm',
});

/** What the form sends: empty is null; a trunk that is not a number is sent as typed, for the schema to refuse in words. */
function bodyOf(drafts: readonly TreeDraft[]): Section211Input {
  return {
    trees: drafts.map((d) => ({
      itemId: d.itemId,
      species: d.species.trim() || null,
      description: d.description.trim() || null,
      location: d.location.trim() || null,
      work: d.work,
      trunk: d.trunkValue.trim() === '' ? null : ({ value: Number(d.trunkValue.trim().replace(',', '.')), unit: d.trunkUnit } as const),
    })),
  };
}

type FieldErrors = Record<string, string | undefined>;

function NoticeForm({ jobId, notice }: { jobId: number; notice: Section211 }) {
  const save = useSaveSection211(jobId);
  const [drafts, setDrafts] = useState(() => notice.trees.map(draftOf));
  const [changed, setChanged] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);

  const change = (index: number, patch: Partial<TreeDraft>) => {
    setDrafts((all) => all.map((d, i) => (i === index ? { ...d, ...patch } : d)));
    setChanged(true);
  };

  /** Checks and saves; resolves true when saved (or nothing to save). */
  async function keep(): Promise<boolean> {
    setFailure(null);
    const parsed = section211BodySchema.safeParse(bodyOf(drafts));
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) found[issue.path.slice(1).join('.')] ??= issue.message;
      setErrors(found);
      return false;
    }
    setErrors({});
    try {
      await save.mutateAsync(bodyOf(drafts));
      return true;
    } catch (err) {
      setFailure(errorMessage(err, 'The notice could not be saved. Please try again.'));
      return false;
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    if (await keep()) showToast({ title: 'Notice saved', description: 'The PDF prints these trees as they are now.' });
  }

  async function download(event: MouseEvent<HTMLAnchorElement>) {
    if (!changed) return;
    event.preventDefault();
    if (save.isPending) return;
    if (await keep()) window.location.assign(section211PdfUrl(jobId));
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4 pt-1">
      <p className="text-sm text-stone-700">
        The council must be able to tell which tree is which: give each tree&apos;s species (or say what it looks like), where it stands on the site and its trunk measured 1.5 m above the ground.
        A line with none of these prints as other work.
      </p>
      {drafts.length === 0 ? <p className="text-sm text-stone-700">No lines on this job yet: add the trees to the job first.</p> : null}
      {drafts.map((draft, index) => (
        <TreeFields key={draft.itemId} tree={notice.trees[index]!} draft={draft} errors={errors} index={index} onChange={(patch) => change(index, patch)} />
      ))}
      {errors[''] ? <ErrorAlert>{errors['']}</ErrorAlert> : null}
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
      <div className="flex flex-wrap items-center gap-2">
        <button type="submit" className={tallButtonStyles.primary} aria-busy={save.isPending || undefined} aria-disabled={save.isPending || undefined}>
          {save.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Save aria-hidden="true" className="size-4" />}
          Save the notice
        </button>
        <a href={section211PdfUrl(jobId)} download onClick={(event) => void download(event)} className={tallButtonStyles.secondary}>
          <Download aria-hidden="true" className="size-4" />
          Download the notice (PDF)
        </a>
        <span role="status" className="text-sm text-stone-600">
          {changed ? 'Not saved yet: Download saves first.' : notice.savedAt ? 'Saved.' : 'As drafted from the estimates.'}
        </span>
      </div>
    </form>
  );
}

function TreeFields({ tree, draft, errors, index, onChange }: { tree: NoticeTree; draft: TreeDraft; errors: FieldErrors; index: number; onChange: (patch: Partial<TreeDraft>) => void }) {
  const legendId = useId();
  const unitId = useId();
  const error = (field: string) => errors[`${index}.${field}`];
  const trunkError = error('trunk.value') ?? error('trunk.unit') ?? error('trunk');
  return (
    <fieldset aria-labelledby={legendId} className="flex flex-col gap-3 rounded-lg border border-stone-200 p-3">
      <legend id={legendId} className="px-1 text-sm font-semibold text-stone-900">
        {tree.title}
      </legend>
      {tree.height ? <p className="-mt-1 text-xs text-stone-600">{`Height from the estimate: about ${tree.height}.`}</p> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Species" autoComplete="off" value={draft.species} error={error('species')} hint="Empty: printed as not identified, with the description" onChange={(e) => onChange({ species: e.target.value })} />
        <TextField
          label="Description, when the species is not known"
          autoComplete="off"
          value={draft.description}
          error={error('description')}
          placeholder="e.g. tall conifer with red bark"
          onChange={(e) => onChange({ description: e.target.value })}
        />
        <TextField
          label="Where it stands on the site"
          autoComplete="off"
          className="sm:col-span-2"
          value={draft.location}
          error={error('location')}
          placeholder="e.g. rear garden, 3 m from the north boundary"
          onChange={(e) => onChange({ location: e.target.value })}
        />
        <TextArea label="The work" rows={2} className="sm:col-span-2" value={draft.work} error={error('work')} onChange={(e) => onChange({ work: e.target.value })} />
        <div className="flex items-end gap-2">
          <TextField
            label="Trunk, 1.5 m above the ground"
            inputMode="decimal"
            autoComplete="off"
            className="min-w-0 flex-1"
            value={draft.trunkValue}
            error={trunkError}
            hint={tree.estimateTrunk ? `Empty: the estimate's ${tree.estimateTrunk}` : 'Empty: printed as not measured'}
            onChange={(e) => onChange({ trunkValue: e.target.value })}
          />
          <div className="flex flex-col gap-1.5 self-start pt-[1.625rem]">
            <label htmlFor={unitId} className="sr-only">
              Trunk unit
            </label>
            <select
              id={unitId}
              value={draft.trunkUnit}
              onChange={(e) => onChange({ trunkUnit: e.target.value === 'in' ? 'in' : 'cm' })}
              className="rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 shadow-xs hover:border-stone-400 focus-visible:outline-2 sm:text-sm"
            >
              <option value="cm">cm</option>
              <option value="in">in</option>
            </select>
          </div>
        </div>
      </div>
    </fieldset>
  );
}
