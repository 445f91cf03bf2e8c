import { CalendarCog, Plus, Save, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { msToMph, SCHEDULE_SETTINGS_LIMITS, SCHEDULE_SETTINGS_MESSAGES } from '../../../core/settings';
import { errorMessage, isApiError } from '../../api/client';
import { BANK_HOLIDAY_REGION_LABELS, BANK_HOLIDAY_REGIONS, useSaveScheduleSettings, useScheduleSettings, type BankHolidayRegion, type ScheduleSettings, type ScheduleSettingsPatch } from '../../api/schedule';
import { useMayUse } from '../../api/session';
import { ErrorAlert } from '../alert';
import { climbingLimitOf } from './crew-form';
import { PageState } from '../page-state';
import { longDayWords } from '../schedule/schedule-words';
import { SubmitButton } from '../submit-button';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { buttonStyles, cardStyles } from '../ui';

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function ScheduleSettingsForm({ saved }: { saved: ScheduleSettings }) {
  const mayClimb = useMayUse('climbingLimit');
  const save = useSaveScheduleSettings();
  const daysLegend = useId();
  const offLegend = useId();
  const regionId = useId();
  const [workingDays, setWorkingDays] = useState(saved.workingDays);
  const [daysOff, setDaysOff] = useState(saved.daysOff);
  const [newDayOff, setNewDayOff] = useState('');
  const [region, setRegion] = useState<BankHolidayRegion>(saved.bankHolidayRegion);
  const [climbing, setClimbing] = useState(String(saved.climbingWindLimitMs));
  const [errors, setErrors] = useState<{ workingDays?: string; daysOff?: string; climbing?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const typedLimit = climbingLimitOf(climbing);

  function addDayOff() {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(newDayOff)) return setErrors((e) => ({ ...e, daysOff: SCHEDULE_SETTINGS_MESSAGES.dayOff }));
    if (daysOff.length >= SCHEDULE_SETTINGS_LIMITS.daysOff) return setErrors((e) => ({ ...e, daysOff: SCHEDULE_SETTINGS_MESSAGES.daysOff }));
    setDaysOff([...new Set([...daysOff, newDayOff])].sort());
    setNewDayOff('');
    setErrors((e) => ({ ...e, daysOff: undefined }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    setFailure(null);
    const found: typeof errors = {};
    if (workingDays.length === 0) found.workingDays = SCHEDULE_SETTINGS_MESSAGES.workingDays;
    if (mayClimb && typeof typedLimit === 'string') found.climbing = typedLimit;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    // The climbing limit is the owner's: the office's patch never carries it (it would be refused whole).
    const body: ScheduleSettingsPatch = { workingDays, daysOff, bankHolidayRegion: region, ...(mayClimb && typeof typedLimit === 'number' ? { climbingWindLimitMs: typedLimit } : {}) };
    save.mutate(body, {
      onSuccess: (settings) => {
        setWorkingDays(settings.workingDays);
        setDaysOff(settings.daysOff);
        setClimbing(String(settings.climbingWindLimitMs));
        showToast({ title: 'Working week saved', description: `Working days: ${settings.workingDays.map((d) => WEEKDAY_NAMES[d - 1]).join(', ')}.` });
      },
      onError: (error) => {
        const details = isApiError(error, 'VALIDATION_ERROR') ? error.details : undefined;
        setErrors({ workingDays: details?.workingDays?.[0], daysOff: details?.daysOff?.[0] ?? Object.entries(details ?? {}).find(([key]) => key.startsWith('daysOff.'))?.[1][0], climbing: details?.climbingWindLimitMs?.[0] });
        setFailure(errorMessage(error, 'The working week could not be saved. Please try again.'));
      },
    });
  }

  return (
    <form noValidate aria-label="Working week" onSubmit={submit} className="mt-5 flex flex-col gap-5">
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
      <fieldset aria-labelledby={daysLegend} aria-describedby={errors.workingDays ? `${daysLegend}-error` : undefined}>
        <legend id={daysLegend} className="mb-1 text-sm font-medium text-stone-800">
          Working days
        </legend>
        <div className="flex flex-wrap gap-x-4">
          {WEEKDAY_NAMES.map((name, i) => (
            <label key={name} className="inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm text-stone-800">
              <input
                type="checkbox"
                checked={workingDays.includes(i + 1)}
                onChange={(event) => {
                  setWorkingDays(event.target.checked ? [...workingDays, i + 1].sort((a, b) => a - b) : workingDays.filter((d) => d !== i + 1));
                  setErrors((e) => ({ ...e, workingDays: undefined }));
                }}
                className="size-5 accent-green-800"
              />
              {name}
            </label>
          ))}
        </div>
        {errors.workingDays ? (
          <p id={`${daysLegend}-error`} className="text-sm text-red-700">
            {errors.workingDays}
          </p>
        ) : null}
      </fieldset>

      <fieldset aria-labelledby={offLegend} className="flex flex-col gap-2">
        <legend id={offLegend} className="mb-1 text-sm font-medium text-stone-800">
          Days off
        </legend>
        {daysOff.length === 0 ? <p className="text-sm text-stone-700">None: the team works every working day but the bank holidays.</p> : null}
        {daysOff.length > 0 ? (
          <ul aria-label="Days off" className="flex flex-wrap gap-2">
            {daysOff.map((day) => (
              <li key={day} className="inline-flex items-center gap-1 rounded-full bg-stone-100 py-0.5 pr-1 pl-3 text-sm text-stone-900">
                {`${longDayWords(day)} ${day.slice(0, 4)}`}
                <button type="button" aria-label={`Remove ${longDayWords(day)} ${day.slice(0, 4)}`} onClick={() => setDaysOff(daysOff.filter((d) => d !== day))} className="rounded-full p-1.5 text-stone-700 hover:bg-stone-200">
                  <X aria-hidden="true" className="size-3.5" />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex flex-wrap items-end gap-2">
          <TextField label="Add a day off" type="date" value={newDayOff} error={errors.daysOff} onChange={(event) => setNewDayOff(event.target.value)} />
          <button type="button" className={buttonStyles.secondary} onClick={addDayOff}>
            <Plus aria-hidden="true" className="size-4" />
            Add the day off
          </button>
        </div>
      </fieldset>

      <div className="flex max-w-xs flex-col gap-1.5">
        <label htmlFor={regionId} className="text-sm font-medium text-stone-800">
          Bank holidays
        </label>
        <select id={regionId} value={region} onChange={(event) => setRegion(event.target.value as BankHolidayRegion)} className="w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 sm:text-sm">
          {BANK_HOLIDAY_REGIONS.map((value) => (
            <option key={value} value={value}>
              {BANK_HOLIDAY_REGION_LABELS[value]}
            </option>
          ))}
        </select>
      </div>

      {mayClimb ? (
        <div className="max-w-xs">
          <TextField
            label="Climbing wind limit (m/s)"
            inputMode="decimal"
            autoComplete="off"
            value={climbing}
            error={errors.climbing}
            hint={typeof typedLimit === 'number' ? `${typedLimit} m/s is ${msToMph(typedLimit)} mph. Nobody climbs in gusts above it.` : 'Nobody climbs in gusts above it.'}
            onChange={(event) => {
              setClimbing(event.target.value);
              setErrors((e) => ({ ...e, climbing: undefined }));
            }}
          />
        </div>
      ) : (
        <p className="text-sm text-stone-700">{`Climbing wind limit: ${saved.climbingWindLimitMs} m/s (${saved.climbingWindLimitMph} mph), set by the owner.`}</p>
      )}
      <div>
        <SubmitButton pending={save.isPending} fullWidth={false} icon={<Save aria-hidden="true" className="size-4" />}>
          Save the working week
        </SubmitButton>
      </div>
    </form>
  );
}

/** Settings → Working week (docs/product.md, Schedule): the days the crews work, days off, the bank holidays' region, the climbing wind limit. */
export function ScheduleSettingsSection() {
  const settings = useScheduleSettings();
  return (
    <section aria-labelledby="working-week-title" className={`${cardStyles} mt-8 p-4 sm:p-6`}>
      <h2 id="working-week-title" className="flex items-center gap-2 text-xl font-bold text-green-900">
        <CalendarCog aria-hidden="true" className="size-5" />
        Working week
      </h2>
      <p className="mt-1 max-w-prose text-sm text-stone-700">The schedule marks the other days, and a postponed day moves only onto working days.</p>
      {settings.isPending ? (
        <PageState kind="loading" label="Loading the working week" className="py-8" />
      ) : settings.isError ? (
        <PageState kind="failed" error={settings.error} fallback="The working week could not be loaded." onRetry={settings.refetch} />
      ) : (
        <ScheduleSettingsForm saved={settings.data} />
      )}
    </section>
  );
}
