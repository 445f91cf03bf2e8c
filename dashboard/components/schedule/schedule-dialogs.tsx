import { CalendarCheck, CalendarClock, LoaderCircle, Mail, MailX } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { bookingMoveSchema, POSTPONE_REASONS, SCHEDULE_LIMITS, type PostponeReason, type Schedule, type ScheduleBooking, type WaitingJob } from '../../../core/schedule';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../alert';
import { Dialog } from '../dialog';
import { TextArea } from '../text-area';
import { TextField } from '../text-field';
import { buttonStyles } from '../ui';
import { crewNameOf, dayWords, POSTPONE_REASON_LABELS, type CellRef, type DropQuestion } from './schedule-words';

/** Focuses a dialog's main button once it is open (the native dialog would start on its Close button). */
function useFocusWhenOpen(open: boolean): RefObject<HTMLButtonElement | null> {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const frame = requestAnimationFrame(() => ref.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [open]);
  return ref;
}

/**
 * Asked when a booking is dropped on another day or crew: a new date asks whether to e-mail the
 * customer (yes unless they choose otherwise); a new crew alone only asks to confirm.
 */
export function DropDialog({ question, pending, onConfirm, onClose }: { question: DropQuestion | null; pending: boolean; onConfirm: (notifyCustomer: boolean) => void; onClose: () => void }) {
  // The last question stays shown while the dialog closes.
  const [last, setLast] = useState(question);
  if (question && question !== last) setLast(question);
  const shown = question ?? last;
  const main = useFocusWhenOpen(question !== null);
  if (!shown) return null;
  return (
    <Dialog
      open={question !== null}
      onClose={onClose}
      title={shown.title}
      actions={
        <>
          <button type="button" className={`${buttonStyles.secondary} whitespace-nowrap`} onClick={onClose} disabled={pending}>
            Cancel
          </button>
          {shown.asksEmail ? (
            <>
              <button type="button" className={`${buttonStyles.secondary} whitespace-nowrap`} onClick={() => onConfirm(false)} disabled={pending}>
                <MailX aria-hidden="true" className="size-4" />
                Move without e-mail
              </button>
              <button ref={main} type="button" className={`${buttonStyles.primary} whitespace-nowrap`} onClick={() => onConfirm(true)} aria-busy={pending || undefined}>
                {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <Mail aria-hidden="true" className="size-4" />}
                Move and e-mail
              </button>
            </>
          ) : (
            <button ref={main} type="button" className={`${buttonStyles.primary} whitespace-nowrap`} onClick={() => onConfirm(false)} aria-busy={pending || undefined}>
              {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <CalendarClock aria-hidden="true" className="size-4" />}
              Move
            </button>
          )}
        </>
      }
    >
      <p className="text-stone-800">{shown.summary}</p>
      {shown.asksEmail ? <p className="mt-2 text-sm text-stone-700">The e-mail gives the old and the new dates, with the calendar file updated.</p> : null}
    </Dialog>
  );
}

/** A waiting job dropped on a crew's day: booked there, the customer e-mailed as any booking is. */
export function BookDropDialog({ drop, schedule, pending, onConfirm, onClose }: { drop: { job: WaitingJob; cell: CellRef } | null; schedule: Schedule; pending: boolean; onConfirm: () => void; onClose: () => void }) {
  const [last, setLast] = useState(drop);
  if (drop && drop !== last) setLast(drop);
  const shown = drop ?? last;
  const main = useFocusWhenOpen(drop !== null);
  if (!shown) return null;
  const crew = shown.cell.crewId === null ? 'no crew' : crewNameOf(schedule, shown.cell.crewId);
  return (
    <Dialog
      open={drop !== null}
      onClose={onClose}
      title={`Book ${shown.job.reference} for ${dayWords(shown.cell.date)}?`}
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <button ref={main} type="button" className={buttonStyles.primary} onClick={onConfirm} aria-busy={pending || undefined}>
            {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <CalendarCheck aria-hidden="true" className="size-4" />}
            Book and e-mail
          </button>
        </>
      }
    >
      <p className="text-stone-800">{`${shown.job.customerName}'s work, with ${crew}, starting at 08:00. ${shown.job.customerName} is e-mailed the booking with a calendar file.`}</p>
      {shown.job.deposit === 'unpaid' ? <p className="mt-2 text-sm font-semibold text-amber-900">The deposit is not paid yet.</p> : null}
    </Dialog>
  );
}

/** The Move form of the list on a phone: the first day, the crew, and whether to e-mail the customer. */
export function MoveFormDialog({
  booking,
  schedule,
  pending,
  failure,
  onSubmit,
  onClose,
}: {
  booking: ScheduleBooking | null;
  schedule: Schedule;
  pending: boolean;
  failure: string | null;
  onSubmit: (body: { date?: string; crewId?: number | null; notifyCustomer: boolean }) => void;
  onClose: () => void;
}) {
  const [last, setLast] = useState(booking);
  if (booking && booking !== last) setLast(booking);
  const shown = booking ?? last;
  if (!shown) return null;
  return <MoveForm key={`${shown.jobId}-${shown.date}`} open={booking !== null} booking={shown} schedule={schedule} pending={pending} failure={failure} onSubmit={onSubmit} onClose={onClose} />;
}

function MoveForm({
  open,
  booking,
  schedule,
  pending,
  failure,
  onSubmit,
  onClose,
}: {
  open: boolean;
  booking: ScheduleBooking;
  schedule: Schedule;
  pending: boolean;
  failure: string | null;
  onSubmit: (body: { date?: string; crewId?: number | null; notifyCustomer: boolean }) => void;
  onClose: () => void;
}) {
  const formId = useId();
  const crewId = useId();
  const [date, setDate] = useState(booking.firstDay);
  const [crew, setCrew] = useState(booking.crewId === null ? '' : String(booking.crewId));
  const [email, setEmail] = useState(true);
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    const chosenCrew = crew === '' ? null : Number(crew);
    const body: { date?: string; crewId?: number | null; notifyCustomer: boolean } = { notifyCustomer: email };
    if (date !== booking.firstDay) body.date = date;
    if (chosenCrew !== booking.crewId) body.crewId = chosenCrew;
    const checked = bookingMoveSchema.safeParse(body);
    if (!checked.success) {
      const dateIssue = checked.error.issues.find((issue) => issue.path[0] === 'date');
      setError(dateIssue ? dateIssue.message : 'Choose a new date or another crew to move the booking.');
      return;
    }
    onSubmit(body);
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Move ${booking.reference}`}
      description={`${booking.customerName}, now ${dayWords(booking.firstDay)} with ${crewNameOf(schedule, booking.crewId)}.`}
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose} disabled={pending}>
            Cancel
          </button>
          <button type="submit" form={formId} className={buttonStyles.primary} aria-busy={pending || undefined}>
            {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <CalendarClock aria-hidden="true" className="size-4" />}
            Move the booking
          </button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={submit} className="flex flex-col gap-3">
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        <TextField
          label={booking.days > 1 ? 'First day' : 'Date'}
          type="date"
          required
          value={date}
          error={error}
          hint={booking.days > 1 ? `All ${booking.days} days move together.` : undefined}
          onChange={(event) => {
            setDate(event.target.value);
            setError(undefined);
          }}
        />
        <div className="flex flex-col gap-1.5">
          <label htmlFor={crewId} className="text-sm font-medium text-stone-800">
            Crew
          </label>
          <select
            id={crewId}
            value={crew}
            onChange={(event) => {
              setCrew(event.target.value);
              setError(undefined);
            }}
            className="w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 sm:text-sm"
          >
            {schedule.crews.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
            <option value="">No crew</option>
          </select>
        </div>
        <label className="inline-flex min-h-11 cursor-pointer items-center gap-2 self-start text-sm font-medium text-stone-800">
          <input type="checkbox" checked={email} onChange={(event) => setEmail(event.target.checked)} className="size-5 accent-green-800" />
          {`E-mail ${booking.customerName} the new date`}
        </label>
      </form>
    </Dialog>
  );
}

/** "Postpone this day": why, a note for the customers, then every booking of the crew's day moves to its next working day with room. */
export function PostponeDialog({
  target,
  schedule,
  pending,
  failure,
  onSubmit,
  onClose,
}: {
  target: CellRef | null;
  schedule: Schedule;
  pending: boolean;
  failure: string | null;
  onSubmit: (reason: PostponeReason, note: string) => void;
  onClose: () => void;
}) {
  const [last, setLast] = useState(target);
  if (target && target !== last) setLast(target);
  const shown = target ?? last;
  if (!shown) return null;
  return <PostponeForm key={`${shown.crewId ?? 'none'}-${shown.date}`} open={target !== null} target={shown} schedule={schedule} pending={pending} failure={failure} onSubmit={onSubmit} onClose={onClose} />;
}

function PostponeForm({ open, target, schedule, pending, failure, onSubmit, onClose }: { open: boolean; target: CellRef; schedule: Schedule; pending: boolean; failure: string | null; onSubmit: (reason: PostponeReason, note: string) => void; onClose: () => void }) {
  const formId = useId();
  const legendId = useId();
  const [reason, setReason] = useState<PostponeReason | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (pending) return;
    if (!reason) return setError('Choose why the day is postponed.');
    onSubmit(reason, note.trim());
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Postpone ${crewNameOf(schedule, target.crewId)}'s day, ${dayWords(target.date)}`}
      description="Every booking of the day moves to the crew's next working day with room, and each customer is e-mailed the new date and why."
      actions={
        <>
          <button type="button" className={buttonStyles.secondary} onClick={onClose} disabled={pending}>
            Keep the day
          </button>
          <button type="submit" form={formId} className={buttonStyles.primary} aria-busy={pending || undefined}>
            {pending ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : <CalendarClock aria-hidden="true" className="size-4" />}
            Postpone the day
          </button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={submit} className="flex flex-col gap-3">
        {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
        <fieldset aria-labelledby={legendId} aria-describedby={error ? `${legendId}-error` : undefined} className="flex flex-col gap-1">
          <legend id={legendId} className="mb-1 text-sm font-medium text-stone-800">
            Why
          </legend>
          {POSTPONE_REASONS.map((value) => (
            <label key={value} className="inline-flex min-h-11 cursor-pointer items-center gap-2 text-sm text-stone-800">
              <input
                type="radio"
                name={`${formId}-reason`}
                value={value}
                checked={reason === value}
                onChange={() => {
                  setReason(value);
                  setError(undefined);
                }}
                className="size-5 accent-green-800"
              />
              {POSTPONE_REASON_LABELS[value]}
            </label>
          ))}
          {error ? (
            <p id={`${legendId}-error`} className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </fieldset>
        <TextArea label="Note for the customers" hint="Optional: added to the e-mail." rows={2} maxLength={SCHEDULE_LIMITS.postponeNote} value={note} onChange={(event) => setNote(event.target.value)} />
      </form>
    </Dialog>
  );
}

/** The refusal's own sentence, else a general one. */
export function moveFailure(error: unknown): string {
  return errorMessage(error, 'The booking could not be moved. Please try again.');
}
