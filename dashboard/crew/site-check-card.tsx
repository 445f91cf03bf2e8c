import { CheckCircle2, Hospital, PenLine, ShieldAlert } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { SITE_HAZARD_KEYS, SITE_HAZARD_LABELS, siteCheckPutSchema, type JobSheet, type SiteCheck, type SiteCheckPut, type SiteHazardKey } from '../../core/crew-day';
import { useSession } from '../api/session';
import { ErrorAlert } from '../components/alert';
import { TextArea } from '../components/text-area';
import { TextField } from '../components/text-field';
import { cardStyles, tallButtonStyles } from '../components/ui';
import { crewPaths } from './api';
import { useQueueChange, useWaitingFor } from './use-outbox';

interface HazardAnswer {
  present: boolean | null;
  controls: string;
}

interface Draft {
  hazards: Record<SiteHazardKey, HazardAnswer>;
  meetingPoint: string;
  vehicleAccess: string;
  aerialRescuerId: string;
  what3words: string;
  signalNote: string;
}

/** The form's starting point: a check waiting to send, else the server's, else the sheet's what3words. */
function draftFrom(sheet: JobSheet, check: SiteCheck | null, waiting: SiteCheckPut | null): Draft {
  const hazards = Object.fromEntries(SITE_HAZARD_KEYS.map((key) => [key, { present: null, controls: '' }])) as Record<SiteHazardKey, HazardAnswer>;
  if (waiting) {
    for (const h of waiting.hazards) hazards[h.key] = { present: h.present, controls: h.controls ?? '' };
    const e = waiting.emergency;
    return { hazards, meetingPoint: e.meetingPoint, vehicleAccess: e.vehicleAccess, aerialRescuerId: String(e.aerialRescuerId), what3words: e.what3words ?? '', signalNote: e.signalNote ?? '' };
  }
  for (const h of check?.hazards ?? []) hazards[h.key] = { present: h.present, controls: h.controls ?? '' };
  const e = check?.emergency;
  return {
    hazards,
    meetingPoint: e?.meetingPoint ?? '',
    vehicleAccess: e?.vehicleAccess ?? '',
    aerialRescuerId: e ? String(e.aerialRescuer.id) : '',
    what3words: e?.what3words ?? sheet.what3words ?? '',
    signalNote: e?.signalNote ?? '',
  };
}

function bodyFrom(draft: Draft): unknown {
  return {
    hazards: SITE_HAZARD_KEYS.map((key) => {
      const h = draft.hazards[key];
      return { key, present: h.present, ...(h.present && h.controls.trim() ? { controls: h.controls } : {}) };
    }),
    emergency: {
      meetingPoint: draft.meetingPoint,
      vehicleAccess: draft.vehicleAccess,
      aerialRescuerId: Number(draft.aerialRescuerId) || 0,
      ...(draft.what3words.trim() ? { what3words: draft.what3words.trim() } : {}),
      ...(draft.signalNote.trim() ? { signalNote: draft.signalNote } : {}),
    },
  };
}

type Errors = Partial<Record<string, string>>;

function errorsOf(body: unknown): { value: SiteCheckPut | null; errors: Errors } {
  const parsed = siteCheckPutSchema.safeParse(body);
  if (parsed.success) return { value: parsed.data, errors: {} };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const [first, index, field] = issue.path;
    const key = first === 'hazards' && typeof index === 'number' ? `hazard.${SITE_HAZARD_KEYS[index]}.${String(field ?? 'present')}` : first === 'emergency' ? `emergency.${String(index)}` : String(first);
    errors[key] ??= issue.message;
  }
  return { value: null, errors };
}

function HazardQuestion({ hazardKey, answer, error, onChange }: { hazardKey: SiteHazardKey; answer: HazardAnswer; error?: string; onChange: (a: HazardAnswer) => void }) {
  const name = `hazard-${hazardKey}`;
  const choice = (present: boolean, text: string) => (
    <label className={`flex min-h-11 flex-1 cursor-pointer items-center justify-center gap-2 rounded-lg border px-3 text-sm font-semibold has-[:checked]:border-green-800 has-[:checked]:bg-green-800 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-green-800 ${answer.present === present ? '' : 'border-stone-300 bg-white text-stone-900'}`}>
      <input type="radio" name={name} className="sr-only" checked={answer.present === present} onChange={() => onChange({ ...answer, present })} />
      {text}
    </label>
  );
  return (
    <fieldset className="flex flex-col gap-2 border-b border-stone-100 pb-3" data-testid={`hazard-${hazardKey}`}>
      <legend className="mb-1 text-sm font-medium text-stone-900">{SITE_HAZARD_LABELS[hazardKey]}</legend>
      <div className="flex gap-2">
        {choice(true, 'Yes')}
        {choice(false, 'No')}
      </div>
      {answer.present ? (
        <TextArea
          label={`How it is controlled: ${SITE_HAZARD_LABELS[hazardKey]}`}
          rows={3}
          value={answer.controls}
          onChange={(e) => onChange({ ...answer, controls: e.target.value })}
          error={error}
        />
      ) : error ? (
        <p className="text-sm text-red-700">{error}</p>
      ) : null}
    </fieldset>
  );
}

/**
 * The site check before work (docs/product.md, The crew's day): every hazard answered, with its
 * controls when present, and the emergency plan; then each person on site signs with their own
 * sign-in. Saved and signed without signal, it waits in the outbox and the card says so.
 */
export function SiteCheckCard({ sheet, check }: { sheet: JobSheet; check: SiteCheck | null }) {
  const session = useSession().data;
  const queue = useQueueChange();
  const waiting = useWaitingFor(sheet.jobId);
  const waitingCheck = useMemo(() => {
    const last = waiting.filter((i) => i.kind === 'site-check').at(-1);
    return last ? (siteCheckPutSchema.safeParse(last.body).data ?? null) : null;
  }, [waiting]);
  const waitingSign = waiting.some((i) => i.kind === 'sign');
  const [draft, setDraft] = useState<Draft>(() => draftFrom(sheet, check, waitingCheck));
  const [errors, setErrors] = useState<Errors>({});
  const [saved, setSaved] = useState(false);
  const members = sheet.crew?.members ?? [];
  const me = session?.member.memberId ?? null;
  const signedByMe = waitingSign || (check?.signatures.some((s) => s.memberId === me) ?? false);
  const complete = check?.complete ?? sheet.siteCheck.complete;
  const missing = check?.missing ?? sheet.siteCheck.missing;

  const setHazard = (key: SiteHazardKey, answer: HazardAnswer) => {
    setSaved(false);
    setDraft((d) => ({ ...d, hazards: { ...d.hazards, [key]: answer } }));
  };
  const set = (field: keyof Omit<Draft, 'hazards'>) => (value: string) => {
    setSaved(false);
    setDraft((d) => ({ ...d, [field]: value }));
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const unanswered = SITE_HAZARD_KEYS.filter((key) => draft.hazards[key].present === null);
    const { value, errors: found } = errorsOf(bodyFrom(draft));
    for (const key of unanswered) found[`hazard.${key}.present`] = 'Answer yes or no';
    setErrors(found);
    if (!value || unanswered.length > 0) return;
    await queue({ jobId: sheet.jobId, kind: 'site-check', method: 'PUT', path: crewPaths.siteCheck(sheet.jobId), body: bodyFrom(draft) as Record<string, unknown>, label: `Site check for ${sheet.reference}` });
    setSaved(true);
  };

  const sign = () =>
    void queue({ jobId: sheet.jobId, kind: 'sign', method: 'POST', path: crewPaths.signCheck(sheet.jobId), body: {}, label: `${session?.member.name ?? 'Your'} signature on the site check for ${sheet.reference}` });

  const emergency = check?.emergency;
  return (
    <section aria-labelledby="site-check-title" className={`${cardStyles} flex flex-col gap-4 p-4`} data-testid="site-check">
      <div className="flex items-center gap-2">
        {complete ? <CheckCircle2 aria-hidden="true" className="size-5 text-green-800" /> : <ShieldAlert aria-hidden="true" className="size-5 text-amber-700" />}
        <h2 id="site-check-title" className="text-lg font-semibold text-stone-900">
          Site check
        </h2>
      </div>
      {complete ? (
        <p className="text-sm text-green-900">Complete and signed.</p>
      ) : missing.length > 0 ? (
        <div className="text-sm text-stone-800">
          <p>Before work starts:</p>
          <ul className="ml-5 list-disc">
            {missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <form onSubmit={(e) => void save(e)} className="flex flex-col gap-4" noValidate aria-label="Site check">
        <h3 className="font-semibold text-stone-900">Hazards on this site</h3>
        {SITE_HAZARD_KEYS.map((key) => (
          <HazardQuestion key={key} hazardKey={key} answer={draft.hazards[key]} error={errors[`hazard.${key}.controls`] ?? errors[`hazard.${key}.present`]} onChange={(a) => setHazard(key, a)} />
        ))}

        <h3 className="font-semibold text-stone-900">Emergency plan</h3>
        <TextField label="Meeting point" required value={draft.meetingPoint} onChange={(e) => set('meetingPoint')(e.target.value)} error={errors['emergency.meetingPoint']} />
        <TextField label="Vehicle access for an ambulance" required value={draft.vehicleAccess} onChange={(e) => set('vehicleAccess')(e.target.value)} error={errors['emergency.vehicleAccess']} />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="aerial-rescuer" className="text-sm font-medium text-stone-800">
            Aerial rescuer
          </label>
          <select
            id="aerial-rescuer"
            className={`min-h-11 rounded-lg border bg-white px-3 text-base ${errors['emergency.aerialRescuerId'] ? 'border-red-600' : 'border-stone-300'}`}
            value={draft.aerialRescuerId}
            onChange={(e) => set('aerialRescuerId')(e.target.value)}
            aria-invalid={errors['emergency.aerialRescuerId'] ? true : undefined}
            aria-describedby={errors['emergency.aerialRescuerId'] ? 'aerial-rescuer-error' : undefined}
          >
            <option value="">Choose from the crew</option>
            {members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
          {errors['emergency.aerialRescuerId'] ? (
            <p id="aerial-rescuer-error" className="text-sm text-red-700">
              {errors['emergency.aerialRescuerId']}
            </p>
          ) : null}
        </div>
        <TextField label="what3words" hint="For example ///filled.count.soap" autoCapitalize="none" value={draft.what3words} onChange={(e) => set('what3words')(e.target.value)} error={errors['emergency.what3words']} />
        <TextField label="Nearest phone signal, if none on site" value={draft.signalNote} onChange={(e) => set('signalNote')(e.target.value)} error={errors['emergency.signalNote']} />

        <div className="flex items-start gap-2 rounded-lg bg-stone-100 p-3 text-sm text-stone-800" data-testid="nearest-hospital">
          <Hospital aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {emergency?.nearestHospital ? (
            <p>
              Nearest A&amp;E: <strong>{emergency.nearestHospital.name}</strong>, {emergency.nearestHospital.postcode} ({emergency.nearestHospital.distanceKm.toFixed(1)} km in a straight line)
            </p>
          ) : (
            <p>The nearest A&amp;E is worked out from the office&rsquo;s list of hospitals when the check is saved.</p>
          )}
        </div>
        {Object.keys(errors).length > 0 ? <ErrorAlert>Some answers need a look: see the marked questions.</ErrorAlert> : null}
        <button type="submit" className={`${tallButtonStyles.primary} w-full`}>
          Save the check
        </button>
        {saved ? (
          <p className="text-sm text-green-900" role="status">
            Check saved on this phone{navigator.onLine ? '.' : ': it is sent when there is signal.'}
          </p>
        ) : null}
      </form>

      <div className="flex flex-col gap-2 border-t border-stone-200 pt-4">
        <h3 className="font-semibold text-stone-900">Signed by</h3>
        <ul className="flex flex-col gap-1 text-sm text-stone-800" data-testid="signatures">
          {(check?.signatures ?? []).map((s) => (
            <li key={`${s.memberId}-${s.signedAt}`}>
              {s.name}, {new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/London' }).format(new Date(s.signedAt))}
            </li>
          ))}
          {waitingSign ? <li>{session?.member.name ?? 'You'} (waiting to send)</li> : null}
          {(check?.signatures.length ?? 0) === 0 && !waitingSign ? <li>Nobody yet. Each person on site signs on their own phone.</li> : null}
        </ul>
        <button type="button" className={`${tallButtonStyles.secondary} w-full`} onClick={sign} disabled={signedByMe}>
          <PenLine aria-hidden="true" className="size-4" />
          {signedByMe ? 'You have signed the check' : 'Sign the check'}
        </button>
      </div>
    </section>
  );
}
