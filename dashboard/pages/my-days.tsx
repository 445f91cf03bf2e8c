import { CalendarDays } from 'lucide-react';
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
      ) : days.data.days.length === 0 ? (
        <NoWorkBooked />
      ) : (
        <p className={`${cardStyles} p-4 text-stone-800`}>{`Work is booked for you on ${days.data.days.length} ${days.data.days.length === 1 ? 'day' : 'days'}.`}</p>
      )}
    </SignedInLayout>
  );
}
