import { CloudRain, Lock, TriangleAlert, Wind } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { CrewDay, ScheduleBooking, WaitingJob } from '../../../core/schedule';
import { depositWords, estimateWords, holdWords, isEstimated, overrunWords, plannedWords, startWords } from './schedule-words';

/** A booking's words on the board and in the list: who, where, when, how long, the deposit and any hold. */
export function BookingDetails({ booking, crewName }: { booking: ScheduleBooking; crewName?: string }) {
  const deposit = depositWords(booking.deposit);
  return (
    <div className="flex min-w-0 flex-col gap-0.5 text-xs text-stone-700">
      <p className="flex flex-wrap items-baseline gap-x-1.5">
        <Link href={`/jobs/${booking.jobId}`} className="font-mono font-semibold text-green-900 underline-offset-2 hover:underline">
          {booking.reference}
        </Link>
        {booking.dayLabel ? <span className="font-medium text-stone-800">{booking.dayLabel}</span> : null}
      </p>
      <p className="font-medium break-words text-stone-900">{booking.customerName}</p>
      {booking.postcode ? <p>{booking.postcode}</p> : null}
      {crewName ? <p className="font-medium text-stone-800">{crewName}</p> : null}
      <p>{startWords(booking)}</p>
      <p>{estimateWords(booking.estimatedMinutes)}</p>
      {deposit ? <p className={booking.deposit === 'unpaid' ? 'font-semibold text-amber-900' : undefined}>{deposit}</p> : null}
      {booking.holds.map((hold) => (
        // The lock flows inline with the words, so in a narrow day column a long word ("Cancellation") takes the next line whole rather than running out of the card.
        <p key={`${hold.kind}-${hold.until ?? ''}`} className="font-semibold break-words text-amber-900" title={hold.sentence}>
          <Lock aria-hidden="true" className="mr-1 inline size-3 align-[-1px]" />
          {holdWords(hold)}
        </p>
      ))}
    </div>
  );
}

/** A waiting job's words in the tray. */
export function WaitingDetails({ job, earliest }: { job: WaitingJob; earliest: string }) {
  const deposit = depositWords(job.deposit);
  return (
    <div className="flex min-w-0 flex-col gap-0.5 text-xs text-stone-700">
      <Link href={`/jobs/${job.jobId}`} className="font-mono font-semibold text-green-900 underline-offset-2 hover:underline">
        {job.reference}
      </Link>
      <p className="font-medium break-words text-stone-900">{job.customerName}</p>
      {job.postcode ? <p>{job.postcode}</p> : null}
      <p>{`Earliest start ${earliest}`}</p>
      <p>{estimateWords(job.estimatedMinutes)}</p>
      {deposit ? <p className={job.deposit === 'unpaid' ? 'font-semibold text-amber-900' : undefined}>{deposit}</p> : null}
      {job.holds.map((hold) => (
        // The lock flows inline with the words, so in a narrow day column a long word ("Cancellation") takes the next line whole rather than running out of the card.
        <p key={`${hold.kind}-${hold.until ?? ''}`} className="font-semibold break-words text-amber-900" title={hold.sentence}>
          <Lock aria-hidden="true" className="mr-1 inline size-3 align-[-1px]" />
          {holdWords(hold)}
        </p>
      ))}
    </div>
  );
}

function Warning({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <p className="flex items-start gap-1 rounded bg-amber-50 px-1.5 py-1 text-xs font-semibold text-amber-950 ring-1 ring-amber-300">
      {icon}
      <span>{children}</span>
    </p>
  );
}

/** A crew-day's figures: planned against capacity, over capacity in words, the chance of running over, the wind warning. */
export function CrewDaySummary({ day, action }: { day: CrewDay; action?: ReactNode }) {
  // A chance of running over is only worth saying when the day's work has times to run over.
  const overrun = isEstimated(day.plannedMinutes) ? overrunWords(day.overrunChance) : null;
  return (
    <div className="flex flex-col gap-1 text-xs text-stone-700">
      <p className="font-medium text-stone-800">{plannedWords(day.plannedMinutes, day.capacityMinutes)}</p>
      {day.over ? <Warning icon={<TriangleAlert aria-hidden="true" className="mt-px size-3 shrink-0" />}>Over capacity</Warning> : null}
      {overrun ? <p>{overrun}</p> : null}
      {day.weather?.warning ? <Warning icon={<Wind aria-hidden="true" className="mt-px size-3 shrink-0" />}>{day.weather.warning}</Warning> : null}
      {day.weather && !day.weather.warning && day.weather.rainMm >= 5 ? (
        <p className="flex items-start gap-1">
          <CloudRain aria-hidden="true" className="mt-px size-3 shrink-0" />
          {`Rain ${Math.round(day.weather.rainMm)} mm forecast`}
        </p>
      ) : null}
      {action}
    </div>
  );
}
