import { clockMinutes } from '../../core/job-booking';
import { plainText } from '../../core/plain-text';

/**
 * The booking's calendar file (docs/product.md, Jobs and quotes, Booking and done): RFC 5545
 * iCalendar, METHOD:PUBLISH, built here as a pure function (no dependency for ~100 lines).
 *
 * Times: the booking is UK wall clock (core/job-booking.ts), so each event is written with
 * TZID=Europe/London and the file carries that zone's VTIMEZONE (GMT, BST from the last Sunday
 * of March at 01:00 UTC to the last Sunday of October): a calendar anywhere shows 08:00 in the
 * garden at the right moment, whatever the season. The work is one event at the start time that
 * repeats daily for as many days as booked (RRULE COUNT); each day is shown as a working day of
 * WORKING_DAY_MINUTES from the start (the surgeon gives only the start), ending by 23:59. A site
 * visit is a second event of VISIT_MINUTES.
 *
 * UIDs are stable per job (job-<id>@<host>, job-<id>-visit@<host>) and SEQUENCE counts the changes,
 * so a new date replaces the one a calendar already has; a visit dropped on re-booking is sent
 * STATUS:CANCELLED. Text is escaped (backslash, semicolon, comma, newline), lines end in CRLF and
 * are folded at 75 octets without splitting a UTF-8 character.
 */

export const WORKING_DAY_MINUTES = 8 * 60;
export const VISIT_MINUTES = 60;
const LAST_MINUTE = 23 * 60 + 59;

export interface CalendarEvent {
  uid: string;
  /** "YYYY-MM-DD", UK calendar. */
  date: string;
  /** "HH:MM", UK wall clock. */
  startTime: string;
  /** Minutes from the start to the end of each day's event. */
  minutes: number;
  /** Days in a row (1 is a single event). */
  days: number;
  summary: string;
  location: string | null;
  description: string;
  cancelled?: boolean;
}

export interface CalendarInput {
  /** When the file is made (DTSTAMP). */
  stamp: Date;
  /** How many times the booking was changed before this one (0 for the first). */
  sequence: number;
  events: CalendarEvent[];
}

/**
 * TEXT value escaping (RFC 5545 3.3.11): controls other than tab and bidi controls dropped (the
 * RFC forbids the first; rows stored before input was cleaned may hold them: core/plain-text.ts),
 * then backslash, ; , and newlines as \n.
 */
export function escapeText(text: string): string {
  return plainText(text)
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * One content line folded (RFC 5545 3.1): at most 75 octets a line, each continuation starting
 * with a space (which counts in its 75), never inside a UTF-8 character.
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (octets + size > 75) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n');
}

const compactDate = (date: string) => date.replace(/-/g, '');

/** "20261208T080000" for a date and minutes after its midnight. */
function localDateTime(date: string, minutes: number): string {
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${compactDate(date)}T${hh}${mm}00`;
}

/** "20260601T090000Z". */
export function utcStamp(instant: Date): string {
  return instant.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

const LONDON_TIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/London',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0100',
  'TZNAME:BST',
  'DTSTART:19700329T010000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0000',
  'TZNAME:GMT',
  'DTSTART:19701025T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

function eventLines(event: CalendarEvent, input: CalendarInput): string[] {
  const start = clockMinutes(event.startTime);
  if (start === null) throw new Error(`not a time: ${event.startTime}`);
  const end = Math.min(start + event.minutes, LAST_MINUTE);
  return [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${utcStamp(input.stamp)}`,
    `SEQUENCE:${input.sequence}`,
    `DTSTART;TZID=Europe/London:${localDateTime(event.date, start)}`,
    `DTEND;TZID=Europe/London:${localDateTime(event.date, end)}`,
    ...(event.days > 1 ? [`RRULE:FREQ=DAILY;COUNT=${event.days}`] : []),
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    `DESCRIPTION:${escapeText(event.description)}`,
    `STATUS:${event.cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
  ];
}

/** The whole file, CRLF line ends, folded. */
export function buildCalendar(input: CalendarInput): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//TreeAnalyzer Pro//Job booking//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...LONDON_TIMEZONE,
    ...input.events.flatMap((event) => eventLines(event, input)),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
