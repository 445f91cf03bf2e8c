import {
  closestCenter,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { CalendarX2, GripVertical } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import type { CrewDay, Schedule, ScheduleBooking, WaitingJob } from '../../../core/schedule';
import { BookingDetails, CrewDaySummary, WaitingDetails } from './booking-card';
import { cellId, cellOf, cellWords, dayNotes, dayWords, neighbourCell, type CellRef } from './schedule-words';

/** What is being dragged: a day of a booking (from its cell) or a job waiting to be booked. */
export type DragItem = { kind: 'booking'; booking: ScheduleBooking; origin: CellRef } | { kind: 'waiting'; job: WaitingJob };

const INSTRUCTIONS =
  'To move a booking, press space to pick it up. Use the arrow keys to move it between crews and days, then press space to drop it, or Escape to cancel.';

function itemWords(item: DragItem): string {
  return item.kind === 'booking' ? `${item.booking.reference}, ${item.booking.customerName}` : `${item.job.reference}, ${item.job.customerName}`;
}

/** A pointer drops where it points; the keyboard (no pointer) on the cell its card is centred on. */
const collisions: CollisionDetection = (args) => {
  const within = pointerWithin(args);
  return within.length > 0 ? within : closestCenter(args);
};

/** Arrow keys step from cell to cell: the card is centred on the next crew's or day's cell. */
function cellStepper(rows: (number | null)[], dates: string[]): KeyboardCoordinateGetter {
  return (event, { context }) => {
    const item = context.active?.data.current as DragItem | undefined;
    const from = (context.over ? cellOf(context.over.id) : null) ?? (item?.kind === 'booking' ? item.origin : null);
    const first = rows.length > 0 && dates.length > 0 ? { crewId: rows[0]!, date: dates[0]! } : null;
    const to = from ? neighbourCell(rows, dates, from, event.code) : ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp'].includes(event.code) ? first : null;
    if (!to) return undefined;
    event.preventDefault();
    const rect = context.droppableRects.get(cellId(to));
    const dragged = context.collisionRect;
    if (!rect || !dragged) return undefined;
    return { x: rect.left + (rect.width - dragged.width) / 2, y: rect.top + (rect.height - dragged.height) / 2 };
  };
}

function BookingCard({ booking, origin, colour }: { booking: ScheduleBooking; origin: CellRef; colour: string | null }) {
  const item: DragItem = { kind: 'booking', booking, origin };
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, isDragging } = useDraggable({ id: `booking:${booking.jobId}:${booking.date}`, data: item });
  return (
    <li
      ref={setNodeRef}
      {...listeners}
      data-testid={`booking-${booking.reference}-${booking.date}`}
      style={colour ? { borderLeftColor: colour } : undefined}
      className={`flex touch-none gap-1 rounded-lg border border-l-4 border-stone-200 border-l-green-700 bg-white p-1.5 shadow-xs ${isDragging ? 'opacity-40' : ''}`}
    >
      <button
        ref={setActivatorNodeRef}
        type="button"
        {...attributes}
        aria-label={`Drag ${booking.reference}, ${booking.customerName}${booking.dayLabel ? `, ${booking.dayLabel}` : ''}`}
        className="-m-0.5 flex h-8 w-6 shrink-0 cursor-grab items-center justify-center rounded text-stone-600 hover:bg-stone-100 hover:text-stone-900"
      >
        <GripVertical aria-hidden="true" className="size-4" />
      </button>
      <BookingDetails booking={booking} />
    </li>
  );
}

export function WaitingCard({ job, earliest, draggable }: { job: WaitingJob; earliest: string; draggable: boolean }) {
  const item: DragItem = { kind: 'waiting', job };
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, isDragging } = useDraggable({ id: `waiting:${job.jobId}`, data: item, disabled: !draggable });
  return (
    <li ref={setNodeRef} {...(draggable ? listeners : {})} data-testid={`waiting-${job.reference}`} className={`flex gap-1 rounded-lg border border-stone-200 bg-white p-2 shadow-xs ${draggable ? 'touch-none' : ''} ${isDragging ? 'opacity-40' : ''}`}>
      {draggable ? (
        <button
          ref={setActivatorNodeRef}
          type="button"
          {...attributes}
          aria-label={`Drag ${job.reference}, ${job.customerName}, to book it`}
          className="-m-0.5 flex h-8 w-6 shrink-0 cursor-grab items-center justify-center rounded text-stone-600 hover:bg-stone-100 hover:text-stone-900"
        >
          <GripVertical aria-hidden="true" className="size-4" />
        </button>
      ) : null}
      <WaitingDetails job={job} earliest={earliest} />
    </li>
  );
}

function Cell({ cell, label, crewDay, bookings, colour, onPostpone }: { cell: CellRef; label: string; crewDay: CrewDay | null; bookings: ScheduleBooking[]; colour: string | null; onPostpone?: (cell: CellRef) => void }) {
  const { setNodeRef, isOver } = useDroppable({ id: cellId(cell), data: cell });
  return (
    <td ref={setNodeRef} data-testid={`cell-${cell.crewId ?? 'none'}-${cell.date}`} className={`border border-stone-200 p-1.5 align-top ${isOver ? 'bg-green-50 outline-2 -outline-offset-2 outline-green-700' : ''}`}>
      <div className="flex min-h-14 flex-col gap-1.5">
        {crewDay && bookings.length > 0 ? (
          <CrewDaySummary
            day={crewDay}
            action={
              onPostpone ? (
                <button type="button" aria-label={`Postpone this day (${label})`} onClick={() => onPostpone(cell)} className="inline-flex items-start gap-1 self-start rounded px-1 py-0.5 text-left text-xs font-semibold text-green-900 underline-offset-2 hover:bg-green-50 hover:underline">
                  <CalendarX2 aria-hidden="true" className="mt-px size-3 shrink-0" />
                  Postpone this day
                </button>
              ) : null
            }
          />
        ) : null}
        {bookings.length > 0 ? (
          <ul className="flex flex-col gap-1.5" aria-label={`Bookings: ${label}`}>
            {bookings.map((booking) => (
              <BookingCard key={`${booking.jobId}-${booking.date}`} booking={booking} origin={cell} colour={colour} />
            ))}
          </ul>
        ) : (
          <span className="sr-only">Nothing booked</span>
        )}
      </div>
    </td>
  );
}

function RowHead({ children, colour }: { children: ReactNode; colour: string | null }) {
  return (
    <th scope="row" className="border border-stone-200 bg-stone-50 p-2 text-left align-top text-sm font-semibold text-stone-900">
      <span className="flex items-center gap-1.5">
        {colour ? <span aria-hidden="true" className="inline-block size-3 shrink-0 rounded-full" style={{ backgroundColor: colour }} /> : null}
        <span className="min-w-0 break-words">{children}</span>
      </span>
    </th>
  );
}

/**
 * The board (docs/product.md, Schedule): crews as rows, the week's days as columns, the unassigned
 * row under them. A booking's day is dragged by mouse, touch or keyboard to another crew or day;
 * the drop is handed to `onDrop`, which asks before anything moves.
 */
export function Board({
  schedule,
  waitingTray,
  onDrop,
  onPostpone,
}: {
  schedule: Schedule;
  /** The tray of jobs waiting to book, inside the drag area so its cards can be dropped on the board. */
  waitingTray: ReactNode;
  onDrop: (item: DragItem, cell: CellRef) => void;
  onPostpone: (cell: CellRef) => void;
}) {
  const dates = useMemo(() => schedule.dates.map((d) => d.date), [schedule.dates]);
  const rows = useMemo<(number | null)[]>(() => [...schedule.crews.map((c) => c.id), null], [schedule.crews]);
  const [dragging, setDragging] = useState<DragItem | null>(null);
  const stepper = useMemo(() => cellStepper(rows, dates), [rows, dates]);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor, { coordinateGetter: stepper }));

  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      const item = active.data.current as DragItem;
      return item.kind === 'booking' ? `Picked up ${itemWords(item)}, on ${cellWords(schedule, item.origin)}.` : `Picked up ${itemWords(item)}, waiting to book.`;
    },
    onDragOver: ({ active, over }) => {
      const item = active.data.current as DragItem;
      const cell = over ? cellOf(over.id) : null;
      return cell ? `${itemWords(item)} is over ${cellWords(schedule, cell)}.` : `${itemWords(item)} is not over a crew's day.`;
    },
    onDragEnd: ({ active, over }) => {
      const item = active.data.current as DragItem;
      const cell = over ? cellOf(over.id) : null;
      return cell ? `${itemWords(item)} dropped on ${cellWords(schedule, cell)}.` : `${itemWords(item)} dropped outside the board; nothing moves.`;
    },
    onDragCancel: ({ active }) => {
      const item = active.data.current as DragItem;
      return item.kind === 'booking' ? `Moving ${itemWords(item)} cancelled; it stays on ${cellWords(schedule, item.origin)}.` : `Booking ${itemWords(item)} cancelled.`;
    },
  };

  function dragStart(event: DragStartEvent) {
    setDragging(event.active.data.current as DragItem);
  }

  function dragEnd(event: DragEndEvent) {
    setDragging(null);
    const item = event.active.data.current as DragItem | undefined;
    const cell = event.over ? cellOf(event.over.id) : null;
    if (item && cell) onDrop(item, cell);
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collisions}
      accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}
      onDragStart={dragStart}
      onDragEnd={dragEnd}
      onDragCancel={() => setDragging(null)}
    >
      <div className="overflow-x-auto rounded-xl border border-stone-200 bg-white">
        <table className="w-full min-w-[60rem] table-fixed border-collapse text-sm">
          <caption className="sr-only">The crews&apos; bookings by day</caption>
          <colgroup>
            <col className="w-32" />
            {dates.map((date) => (
              <col key={date} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th scope="col" className="border border-stone-200 bg-stone-50 p-2 text-left text-xs font-semibold text-stone-700">
                Crew
              </th>
              {schedule.dates.map((day) => {
                const notes = dayNotes(day);
                return (
                  <th key={day.date} scope="col" className={`border border-stone-200 p-2 text-left align-top ${day.today ? 'bg-green-50' : day.kind === 'working' ? 'bg-stone-50' : 'bg-stone-100'}`}>
                    <span className="block text-sm font-semibold text-stone-900">{dayWords(day.date)}</span>
                    {notes.map((note) => (
                      <span key={note} className={`block text-xs ${note === 'Today' ? 'font-bold text-green-900' : 'font-medium text-stone-700'}`}>
                        {note}
                      </span>
                    ))}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {schedule.crews.map((crew) => (
              <tr key={crew.id}>
                <RowHead colour={crew.colour}>{crew.name}</RowHead>
                {dates.map((date) => {
                  const day = crew.days.find((d) => d.date === date) ?? null;
                  const cell = { crewId: crew.id, date };
                  return <Cell key={date} cell={cell} label={cellWords(schedule, cell)} crewDay={day} bookings={day?.bookings ?? []} colour={crew.colour} onPostpone={onPostpone} />;
                })}
              </tr>
            ))}
            <tr>
              <RowHead colour={null}>Unassigned</RowHead>
              {dates.map((date) => {
                const cell = { crewId: null, date };
                const bookings = schedule.unassigned.find((d) => d.date === date)?.bookings ?? [];
                return <Cell key={date} cell={cell} label={cellWords(schedule, cell)} crewDay={null} bookings={bookings} colour={null} />;
              })}
            </tr>
          </tbody>
        </table>
      </div>
      {waitingTray}
      <DragOverlay dropAnimation={null}>
        {dragging ? (
          <div className="w-40 rounded-lg border border-green-700 bg-white p-2 text-xs shadow-lg">
            <p className="font-mono font-semibold text-green-900">{dragging.kind === 'booking' ? dragging.booking.reference : dragging.job.reference}</p>
            <p className="font-medium text-stone-900">{dragging.kind === 'booking' ? dragging.booking.customerName : dragging.job.customerName}</p>
          </div>
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}
