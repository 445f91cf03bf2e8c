import { Hospital, Plus, Save, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { SITE_CHECK_LIMITS } from '../../../core/crew-day';
import { errorMessage } from '../../api/client';
import { useHospitals, useSaveHospitals } from '../../api/job-site';
import { ErrorAlert } from '../alert';
import { PageState } from '../page-state';
import { SubmitButton } from '../submit-button';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles, cardStyles } from '../ui';
import { HOSPITALS_MESSAGES, hospitalsToSave, type HospitalErrors, type HospitalRow } from './hospitals-draft';

const EMPTY_ROW: HospitalRow = { name: '', postcode: '' };

/**
 * The team's A&E departments (docs/product.md, The crew's day, The site check): the crew's
 * emergency plan names the one nearest the site. The owner and the office keep the list; each
 * postcode is located when saved, and one that cannot be is refused by name with nothing saved.
 */
export function HospitalsSection() {
  const hospitals = useHospitals();
  return (
    <section aria-labelledby="hospitals-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 id="hospitals-title" className="flex items-center gap-2 text-xl font-bold text-green-900">
        <Hospital aria-hidden="true" className="size-5" />
        Hospitals (A&amp;E)
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-700">
        The crew&apos;s emergency plan names the nearest of these to each site, with its distance, in the site check they fill in before work. List the A&amp;E
        departments near where you work; each postcode is found on the map when you save.
      </p>
      {hospitals.isPending ? (
        <PageState kind="loading" label="Loading the hospitals" />
      ) : hospitals.isError ? (
        <PageState kind="failed" error={hospitals.error} fallback="The hospitals could not be loaded." onRetry={hospitals.refetch} />
      ) : (
        <HospitalsForm key={hospitals.dataUpdatedAt} saved={hospitals.data} />
      )}
    </section>
  );
}

function HospitalsForm({ saved }: { saved: HospitalRow[] }) {
  const save = useSaveHospitals();
  const [rows, setRows] = useState<HospitalRow[]>(() => (saved.length > 0 ? saved.map(({ name, postcode }) => ({ name, postcode })) : [EMPTY_ROW]));
  const [errors, setErrors] = useState<HospitalErrors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const full = rows.length >= SITE_CHECK_LIMITS.hospitals;

  function edit(index: number, change: Partial<HospitalRow>) {
    setRows((all) => all.map((row, i) => (i === index ? { ...row, ...change } : row)));
    setErrors((all) => ({ ...all, [index]: { ...all[index], ...Object.fromEntries(Object.keys(change).map((key) => [key, undefined])) } }));
  }

  function remove(index: number) {
    setRows((all) => all.filter((_, i) => i !== index));
    // Errors follow their rows.
    setErrors((all) => Object.fromEntries(Object.entries(all).flatMap(([key, value]) => (Number(key) === index ? [] : [[Number(key) > index ? Number(key) - 1 : Number(key), value]]))));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    setFailure(undefined);
    const checked = hospitalsToSave(rows);
    if ('errors' in checked) {
      setErrors(checked.errors);
      if (checked.message) setFailure(checked.message);
      return;
    }
    setErrors({});
    save.mutate(checked.hospitals, {
      onSuccess: (list) =>
        showToast({ title: 'Hospitals saved', description: list.length === 0 ? 'No hospitals: the emergency plan names none.' : `${list.length} ${list.length === 1 ? 'hospital' : 'hospitals'}, each found on the map.` }),
      // The server's sentence names the postcode it could not locate; nothing was saved.
      onError: (error) => setFailure(errorMessage(error, 'The hospitals could not be saved. Please try again.')),
    });
  }

  return (
    <form noValidate aria-label="Hospitals (A&E)" onSubmit={submit} className="mt-5 flex flex-col gap-4">
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
      {rows.length === 0 ? <p className="text-sm text-stone-700">No hospitals yet.</p> : null}
      <ul className="flex flex-col gap-3">
        {rows.map((row, index) => (
          // Rows have no id until saved: the index is the row (its fields are controlled, so a removed row's text goes with it).
          <li key={index} className="grid items-start gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto]">
            <TextField label={`Hospital ${index + 1} name`} autoComplete="off" placeholder="e.g. Leeds General Infirmary" value={row.name} error={errors[index]?.name} onChange={(e) => edit(index, { name: e.target.value })} />
            <TextField label={`Hospital ${index + 1} postcode`} autoComplete="off" autoCapitalize="characters" placeholder="e.g. LS1 3EX" value={row.postcode} error={errors[index]?.postcode} onChange={(e) => edit(index, { postcode: e.target.value })} />
            <button type="button" className={`${buttonStyles.quiet} min-h-11 justify-self-start sm:mt-6`} onClick={() => remove(index)} aria-label={`Remove hospital ${index + 1}${row.name.trim() ? `, ${row.name.trim()}` : ''}`}>
              <X aria-hidden="true" className="size-4" />
              Remove
            </button>
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="button" className={`${buttonStyles.secondary} min-h-11`} disabled={full} onClick={() => setRows((all) => [...all, EMPTY_ROW])}>
          <Plus aria-hidden="true" className="size-4" />
          Add a hospital
        </button>
        <SubmitButton pending={save.isPending} fullWidth={false} icon={<Save aria-hidden="true" className="size-4" />}>
          Save the hospitals
        </SubmitButton>
      </div>
      {full ? <p className="text-xs text-stone-600">{HOSPITALS_MESSAGES.full}.</p> : null}
    </form>
  );
}
