import { LoaderCircle, Pencil, Plus, Save, Trash2, Users } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { CREW_LIMITS, EQUIPMENT_KINDS, type Crew, type CrewCreateInput, type EquipmentKind } from '../../../core/crews';
import { errorMessage, isApiError } from '../../api/client';
import { crewsApi, useCrewCandidates, useCrewChange, useCrews } from '../../api/schedule';
import { ErrorAlert } from '../alert';
import { Dialog } from '../dialog';
import { PageState } from '../page-state';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles, cardStyles, tallButtonStyles } from '../ui';
import { checkCrew, colourLabel, CREW_COLOURS, crewDraftOf, crewErrorsOf, EQUIPMENT_KIND_LABELS, hourDayWords, kitWords, newKit, windHint, type CrewDraft, type CrewErrors, type KitDraft } from './crew-form';

const capitalised = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

const selectClass = 'w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 sm:text-sm';


function Select({ label, value, onChange, children, hint }: { label: string; value: string; onChange: (value: string) => void; children: ReactNode; hint?: string }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} aria-describedby={hint ? `${id}-hint` : undefined} className={selectClass}>
        {children}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-stone-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function KitRow({ item, index, errors, onChange, onRemove }: { item: KitDraft; index: number; errors: CrewErrors; onChange: (change: Partial<KitDraft>) => void; onRemove: () => void }) {
  const legendId = useId();
  const name = item.name.trim() || `piece ${index + 1}`;
  return (
    <fieldset aria-labelledby={legendId} className="flex flex-col gap-2 rounded-xl border border-stone-200 p-3">
      <legend id={legendId} className="px-1 text-sm font-semibold text-stone-900">{`Kit ${index + 1}`}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        <TextField label="Kit name" autoComplete="off" maxLength={CREW_LIMITS.equipmentName} value={item.name} error={errors[`equipment.${index}.name`]} onChange={(event) => onChange({ name: event.target.value })} />
        <Select label="Kind" value={item.kind} onChange={(kind) => onChange({ kind: kind as EquipmentKind })}>
          {EQUIPMENT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {EQUIPMENT_KIND_LABELS[kind]}
            </option>
          ))}
        </Select>
        <TextField label="Wind limit (m/s)" inputMode="decimal" autoComplete="off" hint={windHint(item.kind)} value={item.windLimit} error={errors[`equipment.${index}.windLimitMs`]} onChange={(event) => onChange({ windLimit: event.target.value })} />
      </div>
      <button type="button" className={`${buttonStyles.quiet} self-start px-2 py-1.5`} onClick={onRemove}>
        <Trash2 aria-hidden="true" className="size-4" />
        Remove<span className="sr-only">{` ${name}`}</span>
      </button>
    </fieldset>
  );
}

/** Add a crew or edit one: name, colour, people, day, kit. */
function CrewDialog({ crew, open, people, onClose, returnFocusRef }: { crew: Crew | null; open: boolean; people: { id: number; name: string }[]; onClose: () => void; returnFocusRef: RefObject<HTMLElement | null> }) {
  const formId = useId();
  const membersLegend = useId();
  const [draft, setDraft] = useState<CrewDraft>(() => crewDraftOf(crew));
  const [errors, setErrors] = useState<CrewErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const save = useCrewChange(async (body: CrewCreateInput) => (crew ? crewsApi.update(crew.id, body) : crewsApi.create(body)));
  // People already in the crew are listed even when the list of people does not have them.
  const listed = [...people, ...(crew?.members ?? []).filter((m) => !people.some((p) => p.id === m.id))];
  const colourKnown = draft.colour === '' || CREW_COLOURS.some((c) => c.value === draft.colour);

  function edit(change: Partial<CrewDraft>, fields: string[]) {
    setDraft((d) => ({ ...d, ...change }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([key]) => !fields.some((f) => key === f || key.startsWith(`${f}.`)))));
  }

  function editKit(index: number, change: Partial<KitDraft>) {
    edit({ kit: draft.kit.map((item, i) => (i === index ? { ...item, ...change } : item)) }, [`equipment.${index}`]);
  }

  function focusFirstError() {
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"] input')?.focus());
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    setFailure(null);
    const checked = checkCrew(draft);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return focusFirstError();
    }
    save.mutate(checked.body, {
      onSuccess: ({ crew: saved }) => {
        showToast({ title: crew ? 'Crew saved' : 'Crew added', description: `${saved.name}: ${saved.members.length} ${saved.members.length === 1 ? 'person' : 'people'}, ${hourDayWords(saved.dayHours)}.` });
        onClose();
      },
      onError: (error) => {
        const details = isApiError(error, 'VALIDATION_ERROR') ? error.details : undefined;
        if (details) {
          setErrors(crewErrorsOf(Object.entries(details).map(([key, messages]) => ({ path: key.split('.'), message: messages[0] ?? '' }))));
          focusFirstError();
        }
        setFailure(errorMessage(error, 'The crew could not be saved. Please try again.'));
      },
    });
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      returnFocusRef={returnFocusRef}
      title={crew ? `Edit ${crew.name}` : 'Add a crew'}
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose} disabled={save.isPending}>
            Cancel
          </button>
          <button type="submit" form={formId} className={buttonStyles.primary} aria-busy={save.isPending || undefined}>
            {save.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Save aria-hidden="true" className="size-4" />}
            Save the crew
          </button>
        </>
      }
    >
      <form ref={form} id={formId} noValidate onSubmit={submit} className="flex flex-col gap-4">
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        <TextField label="Crew name" required autoComplete="off" maxLength={CREW_LIMITS.name} value={draft.name} error={errors.name} onChange={(event) => edit({ name: event.target.value }, ['name'])} />
        <Select label="Colour on the schedule" value={draft.colour} onChange={(colour) => edit({ colour }, ['colour'])}>
          <option value="">No colour</option>
          {CREW_COLOURS.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
          {colourKnown ? null : <option value={draft.colour}>{colourLabel(draft.colour)}</option>}
        </Select>
        <fieldset aria-labelledby={membersLegend} aria-describedby={errors.memberIds ? `${membersLegend}-error` : undefined} data-invalid={errors.memberIds ? 'true' : undefined} className="flex flex-col gap-1">
          <legend id={membersLegend} className="mb-1 text-sm font-medium text-stone-800">
            People in the crew
          </legend>
          {listed.length === 0 ? <p className="text-sm text-stone-700">Nobody to choose yet: the owner invites people in Settings → Team.</p> : null}
          {listed.map((person) => (
            <label key={person.id} className="inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm text-stone-800">
              <input
                type="checkbox"
                checked={draft.memberIds.includes(person.id)}
                onChange={(event) => edit({ memberIds: event.target.checked ? [...draft.memberIds, person.id] : draft.memberIds.filter((id) => id !== person.id) }, ['memberIds'])}
                className="size-5 accent-green-800"
              />
              {person.name}
            </label>
          ))}
          {errors.memberIds ? (
            <p id={`${membersLegend}-error`} className="text-sm text-red-700">
              {errors.memberIds}
            </p>
          ) : null}
        </fieldset>
        <TextField
          label="Day hours"
          inputMode="decimal"
          autoComplete="off"
          hint={`Each person's working day, ${CREW_LIMITS.dayHours.min} to ${CREW_LIMITS.dayHours.max} hours in quarter hours`}
          value={draft.dayHours}
          error={errors.dayHours}
          onChange={(event) => edit({ dayHours: event.target.value }, ['dayHours'])}
        />
        <div className="flex flex-col gap-2">
          <p className="text-sm font-medium text-stone-800">Kit</p>
          {errors.equipment ? <p className="text-sm text-red-700">{errors.equipment}</p> : null}
          {draft.kit.map((item, index) => (
            <KitRow
              key={item.key}
              item={item}
              index={index}
              errors={errors}
              onChange={(change) => editKit(index, change)}
              onRemove={() => edit({ kit: draft.kit.filter((_, i) => i !== index) }, ['equipment'])}
            />
          ))}
          {draft.kit.length < CREW_LIMITS.equipment ? (
            <button type="button" className={`${buttonStyles.secondary} self-start`} onClick={() => edit({ kit: [...draft.kit, newKit()] }, [])}>
              <Plus aria-hidden="true" className="size-4" />
              Add kit
            </button>
          ) : null}
        </div>
      </form>
    </Dialog>
  );
}

function DeleteCrewDialog({ crew, open, onClose, returnFocusRef }: { crew: Crew; open: boolean; onClose: () => void; returnFocusRef: RefObject<HTMLElement | null> }) {
  const remove = useCrewChange(() => crewsApi.remove(crew.id));
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      returnFocusRef={returnFocusRef}
      title={`Delete ${crew.name}?`}
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose} disabled={remove.isPending}>
            Keep the crew
          </button>
          <button
            type="button"
            className={buttonStyles.danger}
            aria-busy={remove.isPending || undefined}
            onClick={() => {
              if (remove.isPending) return;
              setFailure(null);
              remove.mutate(undefined, {
                onSuccess: () => {
                  showToast({ title: 'Crew deleted', description: `${crew.name} is deleted. Its past bookings still say it did the work.` });
                  onClose();
                },
                onError: (error) => setFailure(errorMessage(error, 'The crew could not be deleted. Please try again.')),
              });
            }}
          >
            {remove.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Trash2 aria-hidden="true" className="size-4" />}
            Delete the crew
          </button>
        </>
      }
    >
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : <p className="text-stone-800">A crew with bookings still to come cannot be deleted: move them to another crew first.</p>}
    </Dialog>
  );
}

function CrewRow({ crew, onEdit, onDelete }: { crew: Crew; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 text-sm text-stone-700">
        <p className="flex items-center gap-2 font-semibold text-stone-900">
          {crew.colour ? <span aria-hidden="true" className="inline-block size-3 rounded-full" style={{ backgroundColor: crew.colour }} /> : null}
          {crew.name}
          <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-800">{colourLabel(crew.colour)}</span>
        </p>
        <p>{crew.members.length > 0 ? crew.members.map((m) => m.name).join(', ') : 'Nobody in the crew now'}</p>
        <p>{`${capitalised(hourDayWords(crew.dayHours))}: ${crew.capacityMinutes / 60} hours of work a day in all`}</p>
        <p>{crew.equipment.length > 0 ? `Kit: ${crew.equipment.map(kitWords).join('; ')}` : 'No kit listed'}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={`${tallButtonStyles.secondary} px-3`} onClick={onEdit}>
          <Pencil aria-hidden="true" className="size-4" />
          Edit<span className="sr-only">{` ${crew.name}`}</span>
        </button>
        <button type="button" className={`${tallButtonStyles.dangerOutline} px-3`} onClick={onDelete}>
          <Trash2 aria-hidden="true" className="size-4" />
          Delete<span className="sr-only">{` ${crew.name}`}</span>
        </button>
      </div>
    </li>
  );
}

type CrewAsk = { kind: 'add' } | { kind: 'edit'; crew: Crew } | { kind: 'delete'; crew: Crew };

/** Settings → Crews (docs/product.md, Schedule): the team's crews, their people, day and kit. */
export function CrewsSection() {
  const crews = useCrews();
  // The last question stays rendered while its dialog closes, so the native close hands focus back; `opened` keys each opening afresh.
  const [ask, setAskState] = useState<CrewAsk | null>(null);
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(0);
  const setAsk = (next: CrewAsk | null) => {
    if (next) {
      setAskState(next);
      setOpened((n) => n + 1);
    }
    setOpen(next !== null);
  };
  const addButton = useRef<HTMLButtonElement>(null);
  const candidates = useCrewCandidates();
  const people = candidates.data ?? [];
  const close = () => setAsk(null);

  return (
    <section id="crews" aria-labelledby="crews-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="crews-title" className="flex items-center gap-2 text-xl font-bold text-green-900">
            <Users aria-hidden="true" className="size-5" />
            Crews
          </h2>
          <p className="mt-1 max-w-prose text-sm text-stone-700">
            Who works together, their day and their kit. The schedule adds each day&apos;s work up against the crew&apos;s people times its day, and checks
            the forecast wind against its kit.
          </p>
        </div>
        <button ref={addButton} type="button" className={`${buttonStyles.primary} shrink-0`} onClick={() => setAsk({ kind: 'add' })}>
          <Plus aria-hidden="true" className="size-4" />
          Add a crew
        </button>
      </div>
      {crews.isPending ? (
        <PageState kind="loading" label="Loading your crews" className="py-8" />
      ) : crews.isError ? (
        <PageState kind="failed" error={crews.error} fallback="Your crews could not be loaded." onRetry={crews.refetch} />
      ) : crews.data.length === 0 ? (
        <p className="mt-4 text-sm text-stone-700">No crews yet. A team of one needs none; with more people, add a crew for each group that works together.</p>
      ) : (
        <ul aria-label="Crews" className="mt-2 divide-y divide-stone-200">
          {crews.data.map((crew) => (
            <CrewRow key={crew.id} crew={crew} onEdit={() => setAsk({ kind: 'edit', crew })} onDelete={() => setAsk({ kind: 'delete', crew })} />
          ))}
        </ul>
      )}
      {ask?.kind === 'add' || ask?.kind === 'edit' ? (
        <CrewDialog key={opened} crew={ask.kind === 'edit' ? ask.crew : null} open={open} people={people} onClose={close} returnFocusRef={addButton} />
      ) : null}
      {ask?.kind === 'delete' ? <DeleteCrewDialog key={opened} crew={ask.crew} open={open} onClose={close} returnFocusRef={addButton} /> : null}
    </section>
  );
}
