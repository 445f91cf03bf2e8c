import { CalendarDays, ChevronLeft, ChevronRight, Settings } from 'lucide-react';
import { weatherCreditLinks } from '../../core/weather';
import { useState, useSyncExternalStore } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ukToday } from '../../core/job-booking';
import type { PostponeReason, Schedule, ScheduleBooking } from '../../core/schedule';
import { isApiError } from '../api/client';
import { useBookFromBoard, useMoveBooking, usePostponeDay, useSchedule } from '../api/schedule';
import { BackLink, PageTitle, SignedInLayout } from '../components/page-layout';
import { PageState } from '../components/page-state';
import { Board, WaitingCard, type DragItem } from '../components/schedule/board';
import { DayList } from '../components/schedule/day-list';
import { BookDropDialog, DropDialog, MoveFormDialog, moveFailure, PostponeDialog } from '../components/schedule/schedule-dialogs';
import { addDaysTo, boardWeek, crewNameOf, dayWords, dropQuestion, postponedWords, referencesOf, weekWords, WEEK_DAYS, type CellRef, type DropQuestion } from '../components/schedule/schedule-words';
import { showErrorToast, showToast } from '../components/toast';
import { buttonStyles, cardStyles, linkStyles } from '../components/ui';

/** The board needs room for seven days; narrower (a phone at 390 px) it is a list by day. */
const WIDE = '(min-width: 48rem)';

function useWide(): boolean {
  return useSyncExternalStore(
    (change) => {
      const query = window.matchMedia(WIDE);
      query.addEventListener('change', change);
      return () => query.removeEventListener('change', change);
    },
    () => window.matchMedia(WIDE).matches,
    () => true,
  );
}

function WeekNav({ from, onGo }: { from: string; onGo: (from: string | null) => void }) {
  return (
    <nav aria-label="Weeks" className="mb-4 flex flex-wrap items-center gap-2">
      <button type="button" className={buttonStyles.secondary} onClick={() => onGo(addDaysTo(from, -WEEK_DAYS))}>
        <ChevronLeft aria-hidden="true" className="size-4" />
        Previous week
      </button>
      <button type="button" className={buttonStyles.secondary} onClick={() => onGo(null)}>
        This week
      </button>
      <button type="button" className={buttonStyles.secondary} onClick={() => onGo(addDaysTo(from, WEEK_DAYS))}>
        Next week
        <ChevronRight aria-hidden="true" className="size-4" />
      </button>
      <p aria-live="polite" className="ml-1 text-sm font-semibold text-stone-800">
        {`Week of ${weekWords(from)}`}
      </p>
    </nav>
  );
}

function WaitingTray({ schedule, draggable }: { schedule: Schedule; draggable: boolean }) {
  return (
    <section aria-labelledby="waiting-title" className={`${cardStyles} mt-6 p-4`}>
      <h2 id="waiting-title" className="text-lg font-semibold text-stone-900">
        Waiting to book
      </h2>
      {schedule.waiting.length === 0 ? (
        <p className="mt-1 text-sm text-stone-700">Every accepted job is booked.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-stone-700">
            {draggable ? 'Accepted jobs not booked yet. Drag one onto a crew’s day to book it, or open it to book it there.' : 'Accepted jobs not booked yet. Open one to book it.'}
          </p>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
            {schedule.waiting.map((job) => (
              <WaitingCard key={job.jobId} job={job} earliest={dayWords(job.earliestStart)} draggable={draggable} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/**
 * Schedule (docs/product.md, Schedule): the crews' week as a board, or a list by day on a phone;
 * bookings moved by drag or by the Move form, each move asking whether to e-mail the customer;
 * a crew's day postponed; the jobs waiting to book.
 */
export function SchedulePage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const today = ukToday(new Date());
  const from = boardWeek(new URLSearchParams(search).get('from'), today);
  const schedule = useSchedule(from, WEEK_DAYS);
  const wide = useWide();
  const move = useMoveBooking();
  const book = useBookFromBoard();
  const postpone = usePostponeDay();

  const [drop, setDrop] = useState<{ booking: ScheduleBooking; question: DropQuestion } | null>(null);
  const [bookDrop, setBookDrop] = useState<{ job: Extract<DragItem, { kind: 'waiting' }>['job']; cell: CellRef } | null>(null);
  const [moving, setMoving] = useState<ScheduleBooking | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [postponing, setPostponing] = useState<CellRef | null>(null);
  const [postponeError, setPostponeError] = useState<string | null>(null);

  function go(week: string | null) {
    navigate(week ? `/schedule?from=${week}` : '/schedule');
  }

  function moved(data: Schedule, booking: ScheduleBooking, body: { date?: string; crewId?: number | null }, answer: { emailed: boolean; nestingCheck: string | null }, notified: boolean) {
    const where = [body.date ? `to ${dayWords(body.date)}` : null, body.crewId !== undefined ? `to ${crewNameOf(data, body.crewId)}` : null].filter(Boolean).join(' and ');
    const mail = !notified ? 'The customer was not e-mailed.' : answer.emailed ? `${booking.customerName} was e-mailed the new date.` : 'No e-mail was sent: the job has no customer e-mail address.';
    showToast({ title: 'Booking moved', description: `${booking.reference} moved ${where}. ${mail}${answer.nestingCheck ? ` ${answer.nestingCheck}.` : ''}` });
  }

  function onDrop(item: DragItem, cell: CellRef) {
    if (!schedule.data) return;
    if (item.kind === 'waiting') return setBookDrop({ job: item.job, cell });
    const question = dropQuestion(schedule.data, item.booking, cell);
    if (question) setDrop({ booking: item.booking, question });
  }

  function confirmDrop(notifyCustomer: boolean) {
    if (!drop || !schedule.data || move.isPending) return;
    const { booking, question } = drop;
    const data = schedule.data;
    move.mutate(
      { jobId: booking.jobId, body: { ...question.body, notifyCustomer } },
      {
        onSuccess: (answer) => {
          setDrop(null);
          moved(data, booking, question.body, answer, notifyCustomer);
        },
        onError: (error) => {
          setDrop(null);
          showErrorToast({ title: isApiError(error, 'CANCELLATION_PERIOD') || isApiError(error, 'PROTECTION_NOTICE') ? 'Not moved' : 'Could not move the booking', description: moveFailure(error) });
        },
      },
    );
  }

  function confirmBook() {
    if (!bookDrop || book.isPending) return;
    const { job, cell } = bookDrop;
    book.mutate(
      { jobId: job.jobId, body: { date: cell.date, crewId: cell.crewId } },
      {
        onSuccess: ({ emailed }) => {
          setBookDrop(null);
          showToast({ title: 'Work booked', description: `${job.reference} is booked for ${dayWords(cell.date)}. ${emailed ? `${job.customerName} was e-mailed the booking.` : 'No e-mail was sent: the job has no customer e-mail address.'}` });
        },
        onError: (error) => {
          setBookDrop(null);
          showErrorToast({ title: 'Not booked', description: moveFailure(error) });
        },
      },
    );
  }

  function submitMove(body: { date?: string; crewId?: number | null; notifyCustomer: boolean }) {
    if (!moving || !schedule.data || move.isPending) return;
    const booking = moving;
    const data = schedule.data;
    setMoveError(null);
    move.mutate(
      { jobId: booking.jobId, body },
      {
        onSuccess: (answer) => {
          setMoving(null);
          moved(data, booking, body, answer, body.notifyCustomer);
        },
        // The form stays open with the refusal's sentence, so the date can be changed there.
        onError: (error) => setMoveError(moveFailure(error)),
      },
    );
  }

  function submitPostpone(reason: PostponeReason, note: string) {
    if (!postponing || !schedule.data || postpone.isPending) return;
    const references = referencesOf(schedule.data);
    setPostponeError(null);
    postpone.mutate(
      { date: postponing.date, crewId: postponing.crewId, reason, ...(note ? { note } : {}) },
      {
        onSuccess: ({ moved: list, kept }) => {
          setPostponing(null);
          showToast({ title: 'Day postponed', description: [postponedWords(list, references), ...kept.map((job) => job.sentence)].join(' ') });
        },
        onError: (error) => setPostponeError(moveFailure(error)),
      },
    );
  }

  let content;
  if (schedule.isPending) content = <PageState kind="loading" label="Loading the schedule" />;
  else if (schedule.isError) content = <PageState kind="failed" error={schedule.error} fallback="The schedule could not be loaded." onRetry={schedule.refetch} />;
  else {
    const data = schedule.data;
    content = (
      <>
        {data.crews.length === 0 ? (
          <p className={`${cardStyles} mb-4 flex flex-wrap items-center gap-2 p-3 text-sm text-stone-800`}>
            <Settings aria-hidden="true" className="size-4" />
            Your team has no crews yet: bookings show in the Unassigned row.
            <Link href="/settings#crews" className={linkStyles}>
              Add crews in Settings
            </Link>
          </p>
        ) : null}
        {wide ? (
          <Board schedule={data} waitingTray={<WaitingTray schedule={data} draggable />} onDrop={onDrop} onPostpone={setPostponing} />
        ) : (
          <>
            <DayList
              schedule={data}
              onMove={(booking) => {
                setMoveError(null);
                setMoving(booking);
              }}
              onPostpone={setPostponing}
            />
            <WaitingTray schedule={data} draggable={false} />
          </>
        )}
        {data.weatherCredit ? (
          <p className="mt-4 text-xs text-stone-600">
            {data.weatherCredit} (
            <a className="underline" href={weatherCreditLinks.source}>
              MET Norway
            </a>
            ,{' '}
            <a className="underline" href={weatherCreditLinks.licence}>
              the licence
            </a>
            )
          </p>
        ) : null}
        <DropDialog question={drop?.question ?? null} pending={move.isPending} onConfirm={confirmDrop} onClose={() => setDrop(null)} />
        <BookDropDialog drop={bookDrop} schedule={data} pending={book.isPending} onConfirm={confirmBook} onClose={() => setBookDrop(null)} />
        <MoveFormDialog booking={moving} schedule={data} pending={move.isPending} failure={moveError} onSubmit={submitMove} onClose={() => setMoving(null)} />
        <PostponeDialog
          target={postponing}
          schedule={data}
          pending={postpone.isPending}
          failure={postponeError}
          onSubmit={submitPostpone}
          onClose={() => {
            setPostponing(null);
            setPostponeError(null);
          }}
        />
      </>
    );
  }

  return (
    <SignedInLayout>
      <div className="mb-4">
        <BackLink href="/jobs">Back to Jobs</BackLink>
      </div>
      <div className="flex items-start gap-2">
        <CalendarDays aria-hidden="true" className="mt-1.5 size-6 shrink-0 text-green-900 sm:mt-2" />
        <PageTitle title="Schedule" subtitle="Your crews' week: who is where, and what is waiting to book." />
      </div>
      <WeekNav from={from} onGo={go} />
      {content}
    </SignedInLayout>
  );
}
