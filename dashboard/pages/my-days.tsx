import { CalendarDays } from 'lucide-react';
import { formatBookingDate } from '../../core/job-booking';
import type { MyDays } from '../../core/schedule';
import { useMyDays } from '../api/my-days';
import { PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { cardStyles } from '../components/ui';

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

/** The days with work, each with its jobs in the crew's order: where, when, and which day of a longer job. */
function BookedDays({ days }: { days: MyDays['days'] }) {
  return (
    <ol className="flex flex-col gap-4">
      {days.map((day) => (
        <li key={day.date} className={`${cardStyles} p-4`}>
          <h2 className="font-semibold text-stone-900">{formatBookingDate(day.date, 'long')}</h2>
          <ul className="mt-2 flex flex-col gap-2">
            {day.bookings.map((b) => (
              <li key={b.jobId} className="text-sm text-stone-800">
                <span className="font-medium">{b.customerName}</span>, {b.siteAddress || b.postcode || 'no address'}:{' '}
                {b.arrivalWindow ? `arrive between ${b.arrivalWindow.from} and ${b.arrivalWindow.to}` : `start ${b.startTime}`}
                {b.dayLabel ? ` (${b.dayLabel})` : ''}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

/** My days (docs/product.md, Team): a crew member's home, the work booked to their crews. */
export function MyDaysPage() {
  const days = useMyDays();
  return (
    <SignedInLayout>
      <PageTitle title="My days" subtitle="The work booked to your crews." />
      {days.isPending ? (
        <PageState kind="loading" label="Loading your days" />
      ) : days.isError ? (
        <PageState kind="failed" error={days.error} fallback="Your days could not be loaded." onRetry={days.refetch} />
      ) : days.data.days.every((day) => day.bookings.length === 0) ? (
        <NoWorkBooked />
      ) : (
        <BookedDays days={days.data.days.filter((day) => day.bookings.length > 0)} />
      )}
    </SignedInLayout>
  );
}
