import ICAL from 'ical.js';
import { decodeQuotedPrintable } from './mail';

/**
 * A booking e-mail's calendar file read back as a calendar program would (ical.js, RFC 5545):
 * the attachment's text out of the raw message, then each event's UID, SEQUENCE, start and its
 * time zone, repeat count and status.
 */

/** The text/calendar attachment of a raw message: its part's headers and its text, decoded by its transfer encoding. */
export function calendarPart(raw: string): { headers: string; text: string } {
  const start = raw.search(/Content-Type: text\/calendar/i);
  if (start < 0) throw new Error('no calendar attachment');
  const part = raw.slice(start);
  const split = part.search(/\r?\n\r?\n/);
  const headers = part.slice(0, split);
  const body = part.slice(split).replace(/^\r?\n\r?\n/, '');
  const encoded = body.slice(0, body.search(/\r?\n--/));
  const encoding = /Content-Transfer-Encoding: *([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return { headers, text: Buffer.from(encoded.replace(/\s+/g, ''), 'base64').toString('utf8') };
  if (encoding === 'quoted-printable') return { headers, text: Buffer.from(decodeQuotedPrintable(encoded), 'latin1').toString('utf8') };
  return { headers, text: encoded };
}

/** The text/calendar attachment of a raw message, decoded. */
export const calendarAttachment = (raw: string): string => calendarPart(raw).text;

export interface CalendarEventRead {
  uid: string;
  sequence: number;
  /** The start as written, "2026-12-07T08:00:00". */
  start: string;
  tzid: string | null;
  /** The RRULE's COUNT: the days of a multi-day booking; null for one day. */
  count: number | null;
  status: string | null;
}

/** Every VEVENT of a calendar file, parsed by ical.js (a file it cannot read throws). */
export function calendarEvents(ics: string): CalendarEventRead[] {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return calendar.getAllSubcomponents('vevent').map((event) => {
    const dtstart = event.getFirstProperty('dtstart');
    const rrule = event.getFirstPropertyValue('rrule') as ICAL.Recur | null;
    const tzid = dtstart?.getParameter('tzid');
    return {
      uid: String(event.getFirstPropertyValue('uid')),
      sequence: Number(event.getFirstPropertyValue('sequence')),
      start: String(dtstart?.getFirstValue()),
      tzid: typeof tzid === 'string' ? tzid : null,
      count: rrule?.count ?? null,
      status: (event.getFirstPropertyValue('status') as string | null) ?? null,
    };
  });
}

/** The work's event (not the site visit's) of a booking e-mail. */
export function workEvent(raw: string): CalendarEventRead {
  const found = calendarEvents(calendarAttachment(raw)).find((e) => !e.uid.includes('-visit@'));
  if (!found) throw new Error('no work event in the calendar');
  return found;
}
