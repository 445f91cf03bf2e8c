import { CalendarCheck, CalendarClock, CheckCheck, LoaderCircle } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { formatDuration, formatTimeRange, parseDuration } from '../../../core/format';
import { addDays, BOOKING_DEFAULT_START, BOOKING_LIMITS, confirmProtectionSchema, formatBookingDate, jobBookSchema, ukToday, type JobBookInput } from '../../../core/job-booking';
import type { Job, JobItem } from '../../../core/jobs';
import { useAnalysis } from '../../api/analysis';
import { errorMessage, isApiError } from '../../api/client';
import { useBookJob, useMarkJobDone } from '../../api/job-booking';
import { useCrews, type CrewBookingInput } from '../../api/schedule';
import { useMayUse } from '../../api/session';
import { protectionKey } from '../../api/protection';
import { ErrorAlert } from '../alert';
import { formatAnalysisDate } from '../analysis/analysis-date';
import { Dialog } from '../dialog';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { showToast } from '../toast';
import { weekStart } from '../schedule/schedule-words';
import { buttonStyles, linkStyles } from '../ui';
import { BookBeforeDepositDialog } from './book-before-deposit-dialog';
import { CancellationPeriodNotice } from './cancellation-period-notice';
import { itemTitle } from './job-item-editor';
import { byPerson } from '../by-person';

/**
 * Booking the work and marking it done (docs/product.md, Jobs and quotes, Booking and done): once
 * the customer has accepted, a date (and perhaps a site visit first) e-mailed to them with a
 * calendar file; then each tree's actual times, which calibrate the next estimates.
 */

type BookingField = 'date' | 'startTime' | 'days' | 'siteVisit.date' | 'siteVisit.time' | 'note';
type BookingErrors = Partial<Record<BookingField, string>>;

interface BookingDraft {
  date: string;
  startTime: string;
  days: string;
  visit: boolean;
  visitDate: string;
  visitTime: string;
  note: string;
  /** The crew's id as the select holds it, "" for no crew; null until chosen (shownCrew). */
  crewId: string | null;
}

/** The crew a booking is on. */
function bookedCrewId(booking: Job['booking']): number | null {
  return booking?.crewId ?? null;
}

/** The crew the select shows: the one chosen; else the booking's; else a team's only crew; else none. */
function shownCrew(draft: BookingDraft, job: Job, crews: { id: number }[]): string {
  if (draft.crewId !== null) return draft.crewId;
  return String(bookedCrewId(job.booking) ?? (crews.length === 1 ? crews[0]!.id : ''));
}

function draftOf(job: Job): BookingDraft {
  const booking = job.booking;
  return {
    date: booking?.date ?? '',
    startTime: booking?.startTime ?? BOOKING_DEFAULT_START,
    days: String(booking?.days ?? 1),
    visit: booking?.siteVisit != null,
    visitDate: booking?.siteVisit?.date ?? '',
    visitTime: booking?.siteVisit?.time ?? '',
    note: booking?.note ?? '',
    crewId: null,
  };
}

function bodyOf(draft: BookingDraft, crew: string | null): CrewBookingInput {
  return {
    date: draft.date,
    startTime: draft.startTime || BOOKING_DEFAULT_START,
    days: draft.days.trim() === '' ? 1 : Number(draft.days),
    siteVisit: draft.visit ? { date: draft.visitDate, time: draft.visitTime } : null,
    note: draft.note.trim() || null,
    ...(crew !== null ? { crewId: crew === '' ? null : Number(crew) } : {}),
  };
}

const FIELDS: readonly BookingField[] = ['date', 'startTime', 'days', 'siteVisit.date', 'siteVisit.time', 'note'];

/** The messages of the book schema (the server's own) or of a 400, by field. */
function errorsOf(issues: { path: PropertyKey[]; message: string }[]): BookingErrors {
  const errors: BookingErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') as BookingField;
    if (FIELDS.includes(key)) errors[key] ??= issue.message;
  }
  return errors;
}

/** "Booked for Tue 8 December 2026, 08:00". */
export function bookedFor(booking: NonNullable<Job['booking']>): string {
  return `Booked for ${formatBookingDate(booking.date)}, ${booking.startTime}`;
}

function BookingSummary({ booking }: { booking: NonNullable<Job['booking']> }) {
  return (
    <div className="flex flex-col gap-1 text-sm text-stone-800">
      <p className="flex items-center gap-2 text-base font-semibold text-green-900">
        <CalendarCheck aria-hidden="true" className="size-5 shrink-0" />
        {bookedFor(booking)}
      </p>
      {booking.days > 1 ? <p>{`${booking.days} days, to ${formatBookingDate(addDays(booking.date, booking.days - 1))}`}</p> : null}
      {booking.siteVisit ? <p>{`Site visit first: ${formatBookingDate(booking.siteVisit.date)}, ${booking.siteVisit.time}`}</p> : null}
      {booking.note ? <p className="whitespace-pre-line">{`Note: ${booking.note}`}</p> : null}
      <p className="text-xs text-stone-600">
        Booked <time dateTime={booking.bookedAt}>{formatAnalysisDate(booking.bookedAt)}</time>
        {byPerson(booking.bookedBy)}
      </p>
    </div>
  );
}

/** The team's crews for the booking's crew select: none for a team of one (or while they load). */
function useTeamCrews(): { id: number; name: string }[] {
  const maySchedule = useMayUse('schedule');
  const crews = useCrews(maySchedule);
  return crews.data ?? [];
}

/** `waitingForDeposit`: the deposit rule asks one of this job and none is paid, so a first booking asks to confirm. */
function BookingForm({ job, waitingForDeposit, onDone, onCancel }: { job: Job; waitingForDeposit: boolean; onDone: () => void; onCancel?: () => void }) {
  const book = useBookJob(job.id);
  const crews = useTeamCrews();
  const crewSelectId = useId();
  const [draft, setDraft] = useState<BookingDraft>(() => draftOf(job));
  const [errors, setErrors] = useState<BookingErrors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const form = useRef<HTMLFormElement>(null);
  const today = ukToday(new Date());
  const rebooking = job.booking !== null;
  // The checked booking, held while the deposit question is open.
  const [unpaid, setUnpaid] = useState<JobBookInput | null>(null);
  // A protected tree's refusal (409 PROTECTION_NOTICE): the server's words and the booking it refused.
  const [held, setHeld] = useState<{ message: string; body: JobBookInput } | null>(null);
  // The customer's cancellation period (409 CANCELLATION_PERIOD): the server's sentence and the first day it allows.
  const [period, setPeriod] = useState<{ message: string; firstDay: string | null } | null>(null);
  const queryClient = useQueryClient();

  function edit(change: Partial<BookingDraft>, fields: BookingField[]) {
    setDraft((value) => ({ ...value, ...change }));
    // A new date is a new question for the protected tree's hold.
    if (change.date !== undefined) {
      setHeld(null);
      setPeriod(null);
    }
    setErrors((value) => ({ ...value, ...Object.fromEntries(fields.map((field) => [field, undefined])) }));
  }

  function focusFirstError() {
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (book.isPending) return;
    setFailure(undefined);
    setPeriod(null);
    const body = bodyOf(draft, crews.length > 0 ? shownCrew(draft, job, crews) : null);
    const checked = jobBookSchema.safeParse(body);
    if (!checked.success) {
      setErrors(errorsOf(checked.error.issues));
      return focusFirstError();
    }
    // Changing the date of work already booked does not ask again.
    if (waitingForDeposit && !rebooking) return setUnpaid(body);
    save(body);
  }

  function save(body: JobBookInput) {
    book.mutate(body, {
      onSuccess: ({ job: booked, emailed, nestingCheck }) => {
        setHeld(null);
        // The Protected trees panel shows the booking's nesting line and any reason given.
        void queryClient.invalidateQueries({ queryKey: protectionKey(job.id) });
        showToast({
          title: rebooking ? 'Date changed' : 'Work booked',
          description: `${emailed ? `${bookedFor(booked.booking!)}. The customer was e-mailed the booking with a calendar file.` : `${bookedFor(booked.booking!)}. No e-mail was sent: the job has no customer e-mail address.`}${nestingCheck ? ` ${nestingCheck}.` : ''}`,
        });
        onDone();
      },
      onError: (error) => {
        if (isApiError(error, 'PROTECTION_NOTICE')) {
          setHeld({ message: error.message, body });
          return;
        }
        if (isApiError(error, 'CANCELLATION_PERIOD')) {
          setPeriod({ message: error.message, firstDay: error.details?.firstDay?.[0] ?? null });
          return;
        }
        const fieldErrors = isApiError(error) && error.details ? errorsOf(Object.entries(error.details).map(([key, messages]) => ({ path: key.split('.'), message: messages[0] ?? '' }))) : {};
        setErrors(fieldErrors);
        if (Object.keys(fieldErrors).length > 0) focusFirstError();
        else setFailure(errorMessage(error, 'The booking could not be saved. Please try again.'));
      },
    });
  }

  return (
    <form ref={form} onSubmit={submit} noValidate className="flex flex-col gap-3">
      {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
      {period ? (
        <div role="alert" className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-stone-900">
          <p className="font-semibold">Not booked: the customer&apos;s cancellation period</p>
          <p>{period.message}</p>
          {period.firstDay ? (
            <button type="button" className={`${buttonStyles.secondary} self-start`} onClick={() => edit({ date: period.firstDay! }, ['date'])}>
              {`Use ${formatBookingDate(period.firstDay)}`}
            </button>
          ) : null}
        </div>
      ) : null}
      {held ? <BookAnyway message={held.message} pending={book.isPending} onConfirm={(reason) => save({ ...held.body, confirmProtection: { reason } })} /> : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField label="Date" type="date" min={today} required value={draft.date} error={errors.date} onChange={(event) => edit({ date: event.target.value }, ['date', 'siteVisit.date'])} />
        <TextField label="Start time" type="time" hint="UK time" value={draft.startTime} error={errors.startTime} onChange={(event) => edit({ startTime: event.target.value }, ['startTime', 'siteVisit.date'])} />
        <TextField
          label="Days"
          type="number"
          inputMode="numeric"
          min="1"
          max={String(BOOKING_LIMITS.days)}
          step="1"
          value={draft.days}
          error={errors.days}
          onChange={(event) => edit({ days: event.target.value }, ['days'])}
        />
      </div>
      {crews.length > 0 ? (
        <div className="flex max-w-xs flex-col gap-1.5">
          <label htmlFor={crewSelectId} className="text-sm font-medium text-stone-800">
            Crew
          </label>
          <select
            id={crewSelectId}
            value={shownCrew(draft, job, crews)}
            onChange={(event) => edit({ crewId: event.target.value }, [])}
            className="w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 sm:text-sm"
          >
            {crews.map((crew) => (
              <option key={crew.id} value={String(crew.id)}>
                {crew.name}
              </option>
            ))}
            <option value="">No crew yet</option>
          </select>
        </div>
      ) : null}
      <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 self-start text-sm font-medium text-stone-800">
        <input type="checkbox" checked={draft.visit} onChange={(event) => edit({ visit: event.target.checked }, ['siteVisit.date', 'siteVisit.time'])} className="size-5 accent-green-800" />
        A site visit first
      </label>
      {draft.visit ? (
        <div className="grid gap-3 sm:grid-cols-3">
          <TextField
            label="Site visit date"
            type="date"
            min={today}
            required
            value={draft.visitDate}
            error={errors['siteVisit.date']}
            onChange={(event) => edit({ visitDate: event.target.value }, ['siteVisit.date'])}
          />
          <TextField
            label="Site visit time"
            type="time"
            required
            value={draft.visitTime}
            error={errors['siteVisit.time']}
            onChange={(event) => edit({ visitTime: event.target.value }, ['siteVisit.time', 'siteVisit.date'])}
          />
        </div>
      ) : null}
      <TextArea
        label="Note for the customer"
        hint="Optional: what to expect, what to move out of the way."
        rows={2}
        maxLength={BOOKING_LIMITS.note}
        value={draft.note}
        error={errors.note}
        onChange={(event) => edit({ note: event.target.value }, ['note'])}
      />
      <p className="text-xs text-stone-600">
        {job.customer.email ? `The booking is e-mailed to ${job.customer.email} with a calendar file.` : 'The booking is e-mailed to the address the quote went to, with a calendar file.'}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="submit" className={buttonStyles.primary} aria-busy={book.isPending || undefined}>
          {book.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <CalendarCheck aria-hidden="true" className="size-4" />}
          {rebooking ? 'Save the new date' : 'Book the work'}
        </button>
        {onCancel ? (
          <button type="button" className={buttonStyles.secondary} onClick={onCancel}>
            Keep the date
          </button>
        ) : null}
      </div>
      <BookBeforeDepositDialog
        open={unpaid !== null}
        onClose={() => setUnpaid(null)}
        onConfirm={() => {
          if (unpaid) save(unpaid);
          setUnpaid(null);
        }}
      />
    </form>
  );
}

/**
 * A protected tree holds the date (docs/product.md, Protected trees): the server's words name the
 * earliest start or what is missing; the surgeon may book anyway with a reason, kept on the job.
 */
function BookAnyway({ message, pending, onConfirm }: { message: string; pending: boolean; onConfirm: (reason: string) => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const headingId = useId();
  return (
    <div role="alert" aria-labelledby={headingId} className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-stone-900">
      <p id={headingId} className="font-semibold">
        Not booked: a protected tree
      </p>
      <p>{message}</p>
      <TextField
        label="Reason to book anyway"
        autoComplete="off"
        value={reason}
        error={error}
        onChange={(event) => {
          setReason(event.target.value);
          setError(undefined);
        }}
      />
      <button
        type="button"
        className={`${buttonStyles.secondary} self-start`}
        aria-busy={pending || undefined}
        onClick={() => {
          const checked = confirmProtectionSchema.safeParse({ reason });
          if (!checked.success) return setError(checked.error.issues[0]?.message);
          if (!pending) onConfirm(checked.data.reason);
        }}
      >
        Book anyway
      </button>
    </div>
  );
}

const TIME_FIELDS = [
  { key: 'cuttingTime', label: 'Cutting', min: 'cuttingTimeMin', max: 'cuttingTimeMax', actual: 'actualCuttingTime' },
  { key: 'prepTime', label: 'Prep & setup', min: 'prepTimeMin', max: 'prepTimeMax', actual: 'actualPrepTime' },
  { key: 'cleanupTime', label: 'Cleanup', min: 'cleanupTimeMin', max: 'cleanupTimeMax', actual: 'actualCleanupTime' },
] as const;
type TimeKey = (typeof TIME_FIELDS)[number]['key'];
type TreeTimes = Record<TimeKey, string>;
const NO_TIMES: TreeTimes = { cuttingTime: '', prepTime: '', cleanupTime: '' };
const DURATION_MESSAGE = 'Enter minutes (45) or hours and minutes (2h 30m)';

/** One tree's three times, the estimate's beside each (read from its analysis). */
function TreeTimesFields({ item, index, value, errors, onChange }: { item: JobItem & { analysisId: number }; index: number; value: TreeTimes; errors: Partial<TreeTimes>; onChange: (change: Partial<TreeTimes>) => void }) {
  const analysis = useAnalysis(item.analysisId);
  const headingId = useId();
  return (
    <fieldset aria-labelledby={headingId} className="flex min-w-0 flex-col gap-2 rounded-xl border border-stone-200 p-3">
      <legend id={headingId} className="px-1 text-sm font-semibold text-stone-900">
        {itemTitle(item, index)}
      </legend>
      <p className="-mt-1 line-clamp-2 text-xs text-stone-700">{item.description}</p>
      <div className="grid gap-2 sm:grid-cols-3">
        {TIME_FIELDS.map((field) => (
          <TextField
            key={field.key}
            label={field.label}
            autoComplete="off"
            inputMode="text"
            placeholder="e.g. 1h 30m"
            hint={analysis.data ? `Estimated: ${formatTimeRange({ min: analysis.data[field.min], max: analysis.data[field.max] })}` : analysis.isPending ? 'Estimated: …' : undefined}
            value={value[field.key]}
            error={errors[field.key]}
            onChange={(event) => onChange({ [field.key]: event.target.value })}
          />
        ))}
      </div>
    </fieldset>
  );
}

/** The trees whose times can be recorded: in the work agreed (included, or optional and chosen), analysis still there. */
function doneTrees(job: Job): { item: JobItem & { analysisId: number }; index: number }[] {
  const chosen = new Set(job.acceptance?.optionalItemIds ?? []);
  return job.items.flatMap((item, index) =>
    item.kind === 'tree' && item.analysisId !== null && (!item.optional || chosen.has(item.id)) ? [{ item: { ...item, analysisId: item.analysisId }, index }] : [],
  );
}

function DoneDialog({ job, open, onClose }: { job: Job; open: boolean; onClose: () => void }) {
  const done = useMarkJobDone(job.id);
  const formId = useId();
  const trees = doneTrees(job);
  const [times, setTimes] = useState<Record<number, TreeTimes>>({});
  const [errors, setErrors] = useState<Record<number, Partial<TreeTimes>>>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [withoutTimes, setWithoutTimes] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (done.isPending) return;
    setFailure(undefined);
    const found: Record<number, Partial<TreeTimes>> = {};
    const actuals = trees.flatMap(({ item }) => {
      const entered = times[item.id] ?? NO_TIMES;
      const actual: { itemId: number } & Partial<Record<TimeKey, number>> = { itemId: item.id };
      for (const field of TIME_FIELDS) {
        const text = entered[field.key].trim();
        if (text === '') continue;
        const minutes = parseDuration(text);
        if (minutes === null) (found[item.id] ??= {})[field.key] = DURATION_MESSAGE;
        else actual[field.key] = minutes;
      }
      return Object.keys(actual).length > 1 ? [actual] : [];
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    // The times are what calibrate the next estimates: ask once before marking done without any.
    if (actuals.length === 0 && trees.length > 0 && !withoutTimes) return setWithoutTimes(true);
    done.mutate(
      { actuals },
      {
        onSuccess: () => {
          showToast({ title: 'Job done', description: actuals.length > 0 ? 'The actual times will calibrate your next estimates.' : `${job.reference} is marked done.` });
          onClose();
        },
        onError: (error) => setFailure(errorMessage(error, 'The job could not be marked done. Please try again.')),
      },
    );
  }

  const summary = (tree: number) => {
    const entered = times[tree];
    if (!entered) return null;
    const total = TIME_FIELDS.reduce((sum, f) => sum + (parseDuration(entered[f.key]) ?? 0), 0);
    return total > 0 ? formatDuration(total) : null;
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Mark as done"
      description="How long did each tree really take? Fill in what you know: the times calibrate your next estimates."
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose} disabled={done.isPending}>
            Not yet
          </button>
          <button type="submit" form={formId} className={buttonStyles.primary} aria-busy={done.isPending || undefined}>
            {done.isPending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <CheckCheck aria-hidden="true" className="size-4" />}
            {withoutTimes ? 'Mark done without times' : 'Mark as done'}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-3">
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        {trees.length === 0 ? <p className="text-sm text-stone-700">This job has no trees with an estimate, so there are no times to record.</p> : null}
        {trees.map(({ item, index }) => (
          <div key={item.id} className="flex flex-col gap-1">
            <TreeTimesFields
              item={item}
              index={index}
              value={times[item.id] ?? NO_TIMES}
              errors={errors[item.id] ?? {}}
              onChange={(change) => {
                setWithoutTimes(false);
                setTimes((all) => ({ ...all, [item.id]: { ...(all[item.id] ?? NO_TIMES), ...change } }));
                setErrors((all) => ({ ...all, [item.id]: { ...all[item.id], ...Object.fromEntries(Object.keys(change).map((key) => [key, undefined])) } }));
              }}
            />
            {summary(item.id) ? <p className="px-1 text-xs text-stone-700">{`In all: ${summary(item.id)}`}</p> : null}
          </div>
        ))}
        {withoutTimes ? (
          <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
            No times entered. They make your next estimates closer; mark the job done without them?
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}

/**
 * Asked before the times of a job whose booked day has not come: times typed months early (the
 * wrong job, a slip of the date) would calibrate the next estimates from work not yet done.
 */
function EarlyDoneDialog({ booking, open, onClose, onConfirm }: { booking: NonNullable<Job['booking']>; open: boolean; onClose: () => void; onConfirm: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Mark as done before the booked date?"
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose}>
            Not yet
          </button>
          <button type="button" className={buttonStyles.primary} onClick={onConfirm}>
            <CheckCheck aria-hidden="true" className="size-4" />
            It is done
          </button>
        </>
      }
    >
      <p className="text-stone-800">
        {`This job is booked for ${formatBookingDate(booking.date, 'long')}, ${booking.startTime}, and that day has not come yet. Mark it done only if the work is finished: its times calibrate your next estimates.`}
      </p>
    </Dialog>
  );
}

/**
 * The job page's booking section: shown once the customer has accepted. `waitingForDeposit` (GET
 * /api/invoices/jobs): booking asks first, as marking done before the booked day does.
 */
export function BookingPanel({ job, waitingForDeposit = false }: { job: Job; waitingForDeposit?: boolean }) {
  const [changing, setChanging] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const [early, setEarly] = useState(false);
  const headingId = useId();
  const maySchedule = useMayUse('schedule');
  if (job.status !== 'accepted' && job.status !== 'booked' && job.status !== 'done') return null;
  const open = job.status !== 'done';
  const beforeBookedDay = job.booking !== null && ukToday(new Date()) < job.booking.date;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl border border-stone-200 bg-white p-4">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-stone-900">
        <CalendarClock aria-hidden="true" className="size-5" />
        {job.status === 'done' ? 'Done' : job.booking ? 'Booking' : 'Book the work'}
      </h2>
      {open ? <CancellationPeriodNotice job={job} /> : null}
      {job.booking && !changing ? <BookingSummary booking={job.booking} /> : null}
      {job.booking && maySchedule ? (
        <Link href={`/schedule?from=${weekStart(job.booking.date)}`} className={`self-start text-sm ${linkStyles}`}>
          See it on the schedule
        </Link>
      ) : null}
      {open && (job.booking === null || changing) ? (
        <BookingForm key={job.booking?.bookedAt ?? 'new'} job={job} waitingForDeposit={waitingForDeposit} onDone={() => setChanging(false)} onCancel={changing ? () => setChanging(false) : undefined} />
      ) : null}
      {job.status === 'done' && job.doneAt ? (
        <p className="flex items-center gap-2 text-sm font-semibold text-green-900">
          <CheckCheck aria-hidden="true" className="size-4 shrink-0" />
          <span>
            Marked done <time dateTime={job.doneAt}>{formatAnalysisDate(job.doneAt)}</time>
            {byPerson(job.doneBy)}
          </span>
        </p>
      ) : null}
      {open ? (
        <div className="flex flex-col gap-2 sm:flex-row">
          {job.booking && !changing ? (
            <button type="button" className={buttonStyles.secondary} onClick={() => setChanging(true)}>
              <CalendarClock aria-hidden="true" className="size-4" />
              Change the date
            </button>
          ) : null}
          <button type="button" className={buttonStyles.secondary} onClick={() => (beforeBookedDay ? setEarly(true) : setFinishing(true))}>
            <CheckCheck aria-hidden="true" className="size-4" />
            Mark as done
          </button>
        </div>
      ) : null}
      {job.booking ? (
        <EarlyDoneDialog
          booking={job.booking}
          open={early}
          onClose={() => setEarly(false)}
          onConfirm={() => {
            setEarly(false);
            setFinishing(true);
          }}
        />
      ) : null}
      <DoneDialog job={job} open={finishing} onClose={() => setFinishing(false)} />
    </section>
  );
}
