import { CheckCheck, HardHat, Pencil, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { formatBookingDate } from '../../../core/job-booking';
import type { Job } from '../../../core/jobs';
import { bookedDays } from '../../../core/site-check';
import { useSiteChecks } from '../../api/job-site';
import { formatAnalysisDate } from '../analysis/analysis-date';
import { buttonStyles } from '../ui';
import { CorrectTimesForm } from './correct-times-form';
import { itemTitle } from './job-item-editor';
import { correctedWords, finishedWords, minutesInWords, photoAlt, startedWithoutCheckWords, treeTotal, TIME_PARTS, workStateWords } from './on-site-words';
import { SiteCheckDay } from './site-check-day';

const subheading = 'text-base font-semibold text-stone-900';

/**
 * What happened on site, for the owner and the office (docs/product.md, The crew's day, On the
 * office's job page): the job's state, a start without a complete site check (first, for the
 * owner to see), the minutes on site by day, each booked day's site check, the crew's photos, the
 * finish, and each tree's actual times with "Correct the times". Crew members never open the job
 * page (its prices), so none of this is theirs to read here.
 */
export function OnSitePanel({ job }: { job: Job }) {
  const headingId = useId();
  if ((job.status !== 'booked' && job.status !== 'done') || !job.booking) return null;
  const done = job.status === 'done';
  const work = job.work ?? null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-xl border border-stone-200 bg-white p-4">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-stone-900">
        <HardHat aria-hidden="true" className="size-5" />
        On site
      </h2>
      <p className={`flex flex-wrap items-center gap-x-2 text-sm ${done ? 'text-green-900' : 'text-stone-800'}`}>
        {done ? <CheckCheck aria-hidden="true" className="size-4 shrink-0" /> : null}
        <span className="font-semibold">{workStateWords(work ?? { state: 'not_started' }, done)}</span>
        {done && job.finish ? (
          <>
            <span aria-hidden="true" className="hidden sm:inline">
              ·
            </span>
            <span>{finishedWords(job.finish)}</span>
          </>
        ) : null}
      </p>
      {work?.startedWithoutCheck ? (
        <div className="flex items-start gap-2 rounded-lg border border-amber-400 bg-amber-50 px-3 py-2.5 text-sm text-amber-950">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p>
            <span className="font-semibold">{startedWithoutCheckWords(work.startedWithoutCheck)}</span>
            {', '}
            <time dateTime={work.startedWithoutCheck.at}>{formatAnalysisDate(work.startedWithoutCheck.at)}</time>
          </p>
        </div>
      ) : null}
      <TimeOnSite work={work} />
      <SiteChecks job={job} booking={job.booking} />
      <Photos photos={job.photos ?? []} />
      {done ? <Finish job={job} /> : null}
    </section>
  );
}

function TimeOnSite({ work }: { work: Job['work'] }) {
  const days = work?.days ?? [];
  return (
    <div className="flex flex-col gap-1 text-sm">
      <h3 className={subheading}>Time on site</h3>
      {!work || (work.minutesOnSite === 0 && days.length === 0) ? (
        <p className="text-stone-800">The crew has not started the timer yet.</p>
      ) : (
        <>
          <p className="text-stone-800">
            <span className="font-semibold">{minutesInWords(work.minutesOnSite)}</span>
            {days.length === 1 ? ` on ${formatBookingDate(days[0]!.date)}, pauses left out` : ' in all, pauses left out'}
          </p>
          {days.length > 1 ? (
            <ul aria-label="Time on site by day" className="flex flex-col gap-0.5 text-stone-800">
              {days.map((day) => (
                <li key={day.date}>{`${formatBookingDate(day.date)}: ${minutesInWords(day.minutesOnSite)}`}</li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </div>
  );
}

function SiteChecks({ job, booking }: { job: Job; booking: NonNullable<Job['booking']> }) {
  const dates = bookedDays(booking);
  const checks = useSiteChecks(job.id, dates);
  return (
    <div className="flex flex-col gap-2">
      <h3 className={subheading}>{dates.length > 1 ? 'Site checks' : 'Site check'}</h3>
      {dates.map((date, i) => {
        const query = checks[i]!;
        const loaded = query.isPending ? { status: 'pending' as const } : query.isError ? { status: 'error' as const, error: query.error } : { status: 'success' as const, check: query.data! };
        return <SiteCheckDay key={date} jobId={job.id} date={date} multiDay={dates.length > 1} done={job.status === 'done'} loaded={loaded} />;
      })}
    </div>
  );
}

function Photos({ photos }: { photos: NonNullable<Job['photos']> }) {
  return (
    <div className="flex flex-col gap-2 text-sm">
      <h3 className={subheading}>Photos</h3>
      {photos.length === 0 ? <p className="text-stone-800">No photos from the crew yet.</p> : null}
      {(['before', 'after'] as const).map((kind) => {
        const some = photos.filter((p) => p.kind === kind);
        if (some.length === 0) return null;
        return (
          <div key={kind} className="flex flex-col gap-1">
            <h4 className="font-semibold text-stone-800">{kind === 'before' ? 'Before' : 'After'}</h4>
            <ul className="flex flex-wrap gap-2">
              {some.map((photo) => (
                <li key={photo.id}>
                  <a href={photo.url} target="_blank" rel="noopener" className="block rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2">
                    <img src={photo.url} alt={photoAlt(photo)} loading="lazy" width={144} height={108} className="h-27 w-36 rounded-lg border border-stone-200 bg-stone-100 object-cover" />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}

function Finish({ job }: { job: Job }) {
  const [correcting, setCorrecting] = useState(false);
  const finish = job.finish ?? null;
  const actuals = job.actuals ?? [];
  const titles = new Map(job.items.map((item, index) => [item.id, itemTitle(item, index)]));
  const corrected = finish ? correctedWords(finish) : null;
  return (
    <div className="flex flex-col gap-2 text-sm">
      <h3 className={subheading}>Actual times</h3>
      {finish?.note ? <p className="whitespace-pre-line text-stone-800">{`The crew's note: ${finish.note}`}</p> : null}
      {actuals.length === 0 ? (
        <p className="text-stone-800">No trees with an estimate, so no times to record.</p>
      ) : correcting ? (
        <CorrectTimesForm job={job} titles={titles} onDone={() => setCorrecting(false)} />
      ) : (
        <>
          <ul className="flex flex-col gap-1.5">
            {actuals.map((actual) => {
              const total = treeTotal(actual);
              return (
                <li key={actual.itemId} className="flex flex-col text-stone-800 sm:flex-row sm:gap-2">
                  <span className="font-semibold text-stone-900 sm:w-48 sm:shrink-0">{titles.get(actual.itemId) ?? 'Tree'}</span>
                  <span>
                    {total === null
                      ? 'No times recorded'
                      : `${TIME_PARTS.map((part) => `${part.label} ${actual[part.key] === null ? '–' : minutesInWords(actual[part.key]!)}`).join(' · ')} · In all ${minutesInWords(total)}`}
                  </span>
                </li>
              );
            })}
          </ul>
          {corrected ? <p className="text-xs text-stone-700">{corrected}</p> : null}
          <button type="button" className={`${buttonStyles.secondary} self-start`} onClick={() => setCorrecting(true)}>
            <Pencil aria-hidden="true" className="size-4" />
            Correct the times
          </button>
        </>
      )}
    </div>
  );
}
