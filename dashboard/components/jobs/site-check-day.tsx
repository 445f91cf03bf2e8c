import { CircleAlert, CircleCheck, FileDown } from 'lucide-react';
import { useId } from 'react';
import type { SiteCheck } from '../../../core/crew-day';
import { formatBookingDate } from '../../../core/job-booking';
import { errorMessage } from '../../api/client';
import { formatAnalysisDate } from '../analysis/analysis-date';
import { linkStyles } from '../ui';
import { hazardsAbsentWords, hazardsPresent, nearestHospitalWords, signatureWords, siteCheckStateWords } from './on-site-words';

type Loaded = { status: 'pending' } | { status: 'error'; error: unknown } | { status: 'success'; check: SiteCheck };

/** A label and its words on one line, the label bold (the plan's parts). */
function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col sm:flex-row sm:gap-2">
      <dt className="shrink-0 font-semibold text-stone-900 sm:w-40">{label}</dt>
      <dd className="min-w-0 text-stone-800">{children}</dd>
    </div>
  );
}

/**
 * One booked day's site check on the job page: complete or what is missing, the hazards found
 * with their controls, the emergency plan with the nearest A&E, who signed and when, and the
 * record as a PDF. `multiDay` names the day in the heading and the link; on a `done` job a day
 * never checked says so instead of what it lacks.
 */
export function SiteCheckDay({ jobId, date, multiDay, done, loaded }: { jobId: number; date: string; multiDay: boolean; done: boolean; loaded: Loaded }) {
  const headingId = useId();
  const day = formatBookingDate(date);
  const pdfHref = `/api/jobs/${jobId}/site-check.pdf?date=${encodeURIComponent(date)}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-xl border border-stone-200 p-3 text-sm">
      <h4 id={headingId} className="font-semibold text-stone-900">
        {multiDay ? `Site check, ${day}` : `Site check (${day})`}
      </h4>
      {loaded.status === 'pending' ? <p className="text-stone-700">Loading the site check…</p> : null}
      {loaded.status === 'error' ? <p className="text-red-800">{errorMessage(loaded.error, 'The site check could not be loaded.')}</p> : null}
      {loaded.status === 'success' ? (
        done && loaded.check.updatedAt === null ? (
          // A done job's day nobody checked (finished on an earlier day): nothing to ask for now.
          <p className="text-stone-800">No site check was recorded for this day.</p>
        ) : (
          <CheckBody check={loaded.check} />
        )
      ) : null}
      {loaded.status === 'success' && loaded.check.updatedAt !== null ? (
        <a href={pdfHref} download className={`inline-flex min-h-11 items-center gap-1.5 self-start ${linkStyles}`}>
          <FileDown aria-hidden="true" className="size-4" />
          {multiDay ? `Download the site check for ${day} (PDF)` : 'Download the site check (PDF)'}
        </a>
      ) : null}
    </section>
  );
}

function CheckBody({ check }: { check: SiteCheck }) {
  const state = siteCheckStateWords(check);
  const present = hazardsPresent(check);
  const absent = hazardsAbsentWords(check);
  const plan = check.emergency;
  return (
    <>
      <p className={`flex items-center gap-2 font-semibold ${check.complete ? 'text-green-900' : 'text-amber-900'}`}>
        {check.complete ? <CircleCheck aria-hidden="true" className="size-4 shrink-0" /> : <CircleAlert aria-hidden="true" className="size-4 shrink-0" />}
        {state.headline}
      </p>
      {state.missing.length > 0 ? (
        <ul aria-label="What is missing" className="list-disc pl-5 text-stone-800">
          {state.missing.map((words) => (
            <li key={words}>{words}</li>
          ))}
        </ul>
      ) : null}
      {check.updatedAt === null ? null : (
        <>
          <h5 className="mt-1 font-semibold text-stone-900">Hazards</h5>
          {present.length === 0 ? (
            <p className="text-stone-800">None of the listed hazards found on site.</p>
          ) : (
            <dl className="flex flex-col gap-1">
              {present.map((hazard) => (
                <Fact key={hazard.label} label={hazard.label}>
                  {hazard.controls}
                </Fact>
              ))}
            </dl>
          )}
          {absent && present.length > 0 ? <p className="text-xs text-stone-700">{absent}</p> : null}
          {plan ? (
            <>
              <h5 className="mt-1 font-semibold text-stone-900">Emergency plan</h5>
              <dl className="flex flex-col gap-1">
                <Fact label="Nearest A&E">{plan.nearestHospital ? nearestHospitalWords(plan.nearestHospital) : 'None worked out: add hospitals in Settings, and a postcode to the site address.'}</Fact>
                <Fact label="Site">{[plan.postcode, plan.what3words].filter(Boolean).join(', ') || 'No postcode found'}</Fact>
                <Fact label="Meeting point">{plan.meetingPoint}</Fact>
                <Fact label="Vehicle access">{plan.vehicleAccess}</Fact>
                <Fact label="Aerial rescuer">{plan.aerialRescuer.name}</Fact>
                {plan.signalNote ? <Fact label="Phone signal">{plan.signalNote}</Fact> : null}
              </dl>
            </>
          ) : null}
          <h5 className="mt-1 font-semibold text-stone-900">Signed</h5>
          {check.signatures.length === 0 ? (
            <p className="text-stone-800">No one has signed yet.</p>
          ) : (
            <ul className="flex flex-col gap-0.5 text-stone-800">
              {check.signatures.map((signature) => (
                <li key={signature.memberId}>{signatureWords(signature)}</li>
              ))}
            </ul>
          )}
          {check.updatedAt ? (
            <p className="text-xs text-stone-600">
              Last changed <time dateTime={check.updatedAt}>{formatAnalysisDate(check.updatedAt)}</time>
              {check.updatedBy ? ` by ${check.updatedBy}` : ''}
            </p>
          ) : null}
        </>
      )}
    </>
  );
}
