import { CalendarClock, CalendarX2 } from 'lucide-react';
import type { Schedule, ScheduleBooking } from '../../../core/schedule';
import { cardStyles } from '../ui';
import { BookingDetails, CrewDaySummary } from './booking-card';
import { dayNotes, longDayWords, listByDay, type CellRef } from './schedule-words';

/**
 * The board on a phone (docs/product.md, Schedule): a heading for each day, its bookings under
 * their crews, each with a Move button for the same move the board's drag makes.
 */
export function DayList({ schedule, onMove, onPostpone }: { schedule: Schedule; onMove: (booking: ScheduleBooking) => void; onPostpone: (cell: CellRef) => void }) {
  return (
    <ol className="flex flex-col gap-4">
      {listByDay(schedule).map(({ day, groups }) => {
        const headingId = `day-${day.date}`;
        const notes = dayNotes(day);
        return (
          <li key={day.date}>
            <section aria-labelledby={headingId} className={`${cardStyles} p-3 ${day.today ? 'ring-2 ring-green-700' : ''}`}>
              <h2 id={headingId} className="text-base font-semibold text-stone-900">
                {longDayWords(day.date)}
                {notes.length > 0 ? <span className={`ml-2 text-sm ${day.today ? 'font-bold text-green-900' : 'font-medium text-stone-700'}`}>{notes.join(' · ')}</span> : null}
              </h2>
              {groups.length === 0 ? <p className="mt-1 text-sm text-stone-600">Nothing booked</p> : null}
              {groups.map((group) => (
                <div key={group.crewId ?? 'none'} className="mt-3 flex flex-col gap-2">
                  <h3 className="text-sm font-semibold text-stone-800">{group.crewName}</h3>
                  {group.crewDay ? (
                    <CrewDaySummary
                      day={group.crewDay}
                      action={
                        group.crewId !== null ? (
                          <button
                            type="button"
                            aria-label={`Postpone this day (${group.crewName}, ${longDayWords(day.date)})`}
                            onClick={() => onPostpone({ crewId: group.crewId, date: day.date })}
                            className="inline-flex min-h-11 items-center gap-1 self-start rounded px-2 text-sm font-semibold text-green-900 hover:bg-green-50"
                          >
                            <CalendarX2 aria-hidden="true" className="size-4" />
                            Postpone this day
                          </button>
                        ) : null
                      }
                    />
                  ) : null}
                  <ul className="flex flex-col gap-2">
                    {group.bookings.map((booking) => (
                      <li key={`${booking.jobId}-${booking.date}`} data-testid={`booking-${booking.reference}-${booking.date}`} className="flex items-start justify-between gap-2 rounded-lg border border-stone-200 p-2">
                        <BookingDetails booking={booking} crewName={group.crewName} />
                        <button
                          type="button"
                          aria-label={`Move ${booking.reference}${booking.dayLabel ? `, ${booking.dayLabel}` : ''}`}
                          onClick={() => onMove(booking)}
                          className="inline-flex min-h-11 shrink-0 items-center gap-1 rounded-lg border border-green-800 px-3 text-sm font-semibold text-green-900 hover:bg-green-50"
                        >
                          <CalendarClock aria-hidden="true" className="size-4" />
                          Move
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </section>
          </li>
        );
      })}
    </ol>
  );
}
