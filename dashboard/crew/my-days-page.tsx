import { CalendarDays, ChevronRight } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { formatBookingDate, ukToday } from '../../core/booking-dates';
import { PageState } from '../components/page-state';
import { cardStyles } from '../components/ui';
import { useCrewMyDays } from './api';
import { CrewPage, SavedCopyNote } from './crew-frame';
import type { MyDaysShown } from './my-days-answer';

function NoWorkBooked() {
  return (
    <section aria-labelledby="no-work-title" className={`${cardStyles} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
      <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-800">
        <CalendarDays aria-hidden="true" className="size-6" />
      </span>
      <h2 id="no-work-title" className="text-lg font-semibold text-stone-900">
        No work booked for you yet
      </h2>
      <p className="max-w-prose text-sm text-stone-700">
        The office books work to crews. When a job is booked to a crew you are in, its day, the site and the trees show here.
      </p>
    </section>
  );
}

function dayTitle(date: string, today: string): string {
  const tomorrow = new Date(`${today}T12:00:00Z`);
  tomorrow.setUTCDate(tomorrow.getUTCDate() + 1);
  const long = formatBookingDate(date, 'long');
  if (date === today) return `Today, ${long}`;
  if (date === tomorrow.toISOString().slice(0, 10)) return `Tomorrow, ${long}`;
  return long;
}

/** The days with work, today first, each job a large link to its sheet. */
function BookedDays({ days }: { days: MyDaysShown['days'] }) {
  const today = ukToday(new Date());
  return (
    <ol className="flex flex-col gap-4" data-testid="my-days">
      {days.map((day) => (
        <li key={day.date}>
          <h2 className="mb-2 font-semibold text-stone-900">{dayTitle(day.date, today)}</h2>
          <ul className="flex flex-col gap-2">
            {day.bookings.map((b) => (
              <li key={b.jobId}>
                <Link
                  href={`/my-days/jobs/${b.jobId}`}
                  className={`${cardStyles} flex min-h-16 items-center justify-between gap-3 p-4 hover:border-green-700 focus-visible:outline-2`}
                  data-testid="my-day-booking"
                >
                  <span className="flex min-w-0 flex-col">
                    <span className="font-semibold text-stone-900">{b.customerName}</span>
                    <span className="text-sm break-words text-stone-700">{b.siteAddress || b.postcode || 'No address'}</span>
                    <span className="text-sm text-stone-700">
                      {b.arrivalWindow ? `Arrive between ${b.arrivalWindow.from} and ${b.arrivalWindow.to}` : `Start ${b.startTime}`}
                      {b.dayLabel ? ` (${b.dayLabel})` : ''} · {b.reference}
                    </span>
                  </span>
                  <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-green-800" />
                </Link>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

/** My days (docs/product.md, The crew's day): a crew member's home, the work booked to their crews. */
export function MyDaysPage() {
  const { read, query, fromSaved } = useCrewMyDays();
  const fresh = query.data;
  // With signal, each booked job's sheet is kept on the phone for the site (api.ts).
  useEffect(() => {
    if (!fresh || !navigator.onLine) return;
    const ids = [...new Set(fresh.data.days.flatMap((day) => day.bookings.map((b) => b.jobId)))];
    // The sheet's code, reads and schemas load now, not before My days is on screen (crew-app.tsx).
    const start = () => void Promise.all([import('./sheet-api'), import('./job-sheet-page')]).then(([m]) => m.keepJobsForOffline(ids)).catch(() => undefined);
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(start, { timeout: 2000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(start, 500);
    return () => clearTimeout(id);
  }, [fresh]);

  const booked = read?.data.days.filter((day) => day.bookings.length > 0) ?? [];
  return (
    <CrewPage title="My days" subtitle="The work booked to your crews, today first.">
      {read ? (
        <>
          <SavedCopyNote asOf={read.asOf} fromSaved={fromSaved} />
          {booked.length === 0 ? <NoWorkBooked /> : <BookedDays days={booked} />}
        </>
      ) : query.isError ? (
        <PageState kind="failed" error={query.error} fallback="Your days could not be loaded." onRetry={query.refetch} />
      ) : (
        <PageState kind="loading" label="Loading your days" />
      )}
    </CrewPage>
  );
}
