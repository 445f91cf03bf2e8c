import { describe, expect, it } from 'vitest';
import { hiddenCharacters } from '../../testing/hidden-characters';
import { buildCalendar, escapeText, foldLine, utcStamp, type CalendarEvent } from './ics';

/*
 * The booking's calendar file (docs/product.md, Jobs and quotes, Booking and done): RFC 5545 text
 * escaping, folding at 75 octets without splitting a character, CRLF, UK wall-clock times with
 * the Europe/London zone, stable UIDs and SEQUENCE.
 */

const WORK: CalendarEvent = {
  uid: 'job-12@trees.example',
  date: '2026-12-08',
  startTime: '08:00',
  minutes: 480,
  days: 1,
  summary: 'Tree work: Q-000012 — Birch Brothers',
  location: '12 Elm Road\nLeeds',
  description: 'Birch Brothers, quote Q-000012.',
};

/** The content lines with folding undone (RFC 5545 3.1: CRLF followed by one space). */
const unfold = (ics: string) => ics.replace(/\r\n /g, '').split('\r\n');

describe('escapeText', () => {
  it('escapes backslashes, semicolons, commas and newlines, backslash first', () => {
    expect(escapeText('a\\b; c, d\ne\r\nf')).toBe('a\\\\b\\; c\\, d\\ne\\nf');
    expect(escapeText('C:\\new')).toBe('C:\\\\new');
  });

  it('drops NUL, VT and the other controls RFC 5545 forbids, and bidi controls, from rows stored before input was cleaned', () => {
    expect(escapeText('Jo\u0000 \u202eSmith\u202c\u000b\u001b[2J\tgate\u2028code')).toBe('Jo Smith[2J\tgate\\ncode');
    const ics = buildCalendar({ stamp: new Date('2026-06-01T09:00:00Z'), sequence: 0, events: [{ ...WORK, location: '12 Elm\u0000 Road\u000b', description: 'Move the car\u202e\u0007' }] });
    expect(hiddenCharacters(ics, { lines: true })).toEqual([]);
    expect(unfold(ics)).toContain('LOCATION:12 Elm Road');
  });
});

describe('foldLine', () => {
  it('leaves a line of 75 octets alone and folds the 76th onto a line starting with a space', () => {
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('folds a long Cyrillic and Polish address at 75 octets without splitting a character', () => {
    const address = 'Москва, улица Тверская, дом 12, квартира 34; Łódź, ul. Źródlana 5, Gdańsk, Żółć Gęślą Jaźń';
    const line = `LOCATION:${escapeText(address)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(2);
    for (const [index, part] of parts.entries()) {
      expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
      if (index > 0) expect(part.startsWith(' ')).toBe(true);
      // Each part is whole UTF-8: encoding and decoding it gives it back (no replacement character).
      expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
      expect(part).not.toContain('\uFFFD');
    }
    expect(folded.replace(/\r\n /g, '')).toBe(line);
    // A two-octet letter that would cross the 75th octet moves whole to the next line.
    const tight = foldLine(`${'x'.repeat(74)}ł`);
    expect(tight).toBe(`${'x'.repeat(74)}\r\n ł`);
  });
});

describe('buildCalendar', () => {
  it('is a VCALENDAR with the London zone and one VEVENT, CRLF throughout, ending in CRLF', () => {
    const ics = buildCalendar({ stamp: new Date('2026-06-01T09:00:00Z'), sequence: 0, events: [WORK] });
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = unfold(ics);
    expect(lines.slice(0, 5)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//TreeAnalyzer Pro//Job booking//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH']);
    expect(lines).toContain('TZID:Europe/London');
    expect(lines).toContain('RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines).toContain('UID:job-12@trees.example');
    expect(lines).toContain('DTSTAMP:20260601T090000Z');
    expect(lines).toContain('SEQUENCE:0');
    expect(lines).toContain('DTSTART;TZID=Europe/London:20261208T080000');
    expect(lines).toContain('DTEND;TZID=Europe/London:20261208T160000');
    expect(lines).toContain('SUMMARY:Tree work: Q-000012 — Birch Brothers');
    expect(lines).toContain('LOCATION:12 Elm Road\\nLeeds');
    expect(lines).toContain('DESCRIPTION:Birch Brothers\\, quote Q-000012.');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(lines.some((l) => l.startsWith('RRULE:FREQ=DAILY'))).toBe(false);
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
  });

  it('repeats daily for a job of several days, keeps a late start within its day, and carries the sequence', () => {
    const ics = buildCalendar({ stamp: new Date('2026-06-01T09:00:00Z'), sequence: 2, events: [{ ...WORK, days: 3, startTime: '18:30' }] });
    const lines = unfold(ics);
    expect(lines).toContain('RRULE:FREQ=DAILY;COUNT=3');
    expect(lines).toContain('DTSTART;TZID=Europe/London:20261208T183000');
    expect(lines).toContain('DTEND;TZID=Europe/London:20261208T235900');
    expect(lines).toContain('SEQUENCE:2');
  });

  it('writes a site visit as a second event, and a dropped one as cancelled', () => {
    const visit: CalendarEvent = { ...WORK, uid: 'job-12-visit@trees.example', date: '2026-12-01', startTime: '16:15', minutes: 60, summary: 'Site visit' };
    const lines = unfold(buildCalendar({ stamp: new Date('2026-06-01T09:00:00Z'), sequence: 1, events: [WORK, { ...visit, cancelled: true }] }));
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2);
    expect(lines).toContain('UID:job-12-visit@trees.example');
    expect(lines).toContain('DTSTART;TZID=Europe/London:20261201T161500');
    expect(lines).toContain('DTEND;TZID=Europe/London:20261201T171500');
    expect(lines).toContain('STATUS:CANCELLED');
  });

  it('leaves LOCATION out when there is no address', () => {
    const lines = unfold(buildCalendar({ stamp: new Date('2026-06-01T09:00:00Z'), sequence: 0, events: [{ ...WORK, location: null }] }));
    expect(lines.some((l) => l.startsWith('LOCATION'))).toBe(false);
  });
});

describe('utcStamp', () => {
  it('is the instant in UTC, basic format, no milliseconds', () => {
    expect(utcStamp(new Date('2026-12-08T07:05:09.123Z'))).toBe('20261208T070509Z');
  });
});
