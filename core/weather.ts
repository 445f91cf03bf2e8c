import { effectiveWindLimitMs, type EquipmentKind } from './crews';
import { calendarDateParts, clockMinutes } from './job-booking';
import type { DayWeather } from './schedule';
import { msToMph } from './settings';

/*
 * The wind against the kit (docs/product.md, Schedule; docs/operations.md, WEATHER_URL): from a
 * site's forecast (MET Norway's Locationforecast 2.0, server/weather/), the highest gust and the
 * rain during a day's working hours, and the warning when the gusts pass the lowest wind limit of
 * the crew's kit or the team's climbing limit. Pure: the server fetches and keeps the forecasts.
 */

/**
 * One time step of a forecast, as kept (weather_forecasts.series): only the figures read here.
 * Locationforecast's `timeseries[].data`: `instant.details.wind_speed_of_gust` and `wind_speed`
 * (m/s, at the time), `next_1_hours.details.precipitation_amount` and `next_6_hours`'s (mm, over
 * the hour or six hours from the time). Hourly steps for about two and a half days, then six-hourly.
 */
export interface ForecastPoint {
  /** "2026-06-01T09:00:00Z" */
  time: string;
  gustMs?: number;
  windMs?: number;
  rain1hMm?: number;
  rain6hMm?: number;
}

/** A stretch of time as epoch milliseconds, start inclusive, end exclusive. */
export interface TimeWindow {
  start: number;
  end: number;
}

/** A site's figures over one day's working hours. */
export interface SiteFigures {
  /** The highest gust (or, where the forecast gives no gust, wind speed), m/s to one decimal. */
  gustMs: number;
  /** The rain forecast over the hours, mm to one decimal. */
  rainMm: number;
}

/** The working hours when a booking gives none: 08:00 to 17:00 UK time. */
export const WORKING_HOURS = { start: '08:00', minutes: 9 * 60 } as const;

/**
 * The credit MET Norway's terms ask for (api.met.no Terms of Service, Licensing and crediting: the
 * data are CC BY 4.0, credited to "MET Norway" as the source, with a link to the licence; the
 * figures shown are worked out from theirs, hence "based on"). Shown on the board wherever a
 * forecast is.
 */
export const weatherCredit = 'Weather forecast based on data from MET Norway, CC BY 4.0';
export const weatherCreditLinks = { source: 'https://api.met.no/', licence: 'https://creativecommons.org/licenses/by/4.0/' } as const;

const HOUR = 3_600_000;

const londonClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});

/** How far the UK's clock is ahead of UTC at `instant`: 0 in winter (GMT), an hour in summer (BST). */
function ukOffsetMs(instant: number): number {
  const p = Object.fromEntries(londonClock.formatToParts(new Date(instant)).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(instant / 1000) * 1000;
}

/** The instant the UK's clock reads `minutes` after midnight on `date` ("YYYY-MM-DD"). */
export function ukInstant(date: string, minutes: number): number {
  const parts = calendarDateParts(date);
  if (!parts) throw new Error(`not a date: ${date}`);
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, 0, minutes);
  const guess = asUtc - ukOffsetMs(asUtc);
  // Near a clock change the offset at the guess is the one that holds.
  return asUtc - ukOffsetMs(guess);
}

/** The working hours of `date` from `startTime` ("HH:MM", UK time) for `minutes`, as instants. */
export function workingWindow(date: string, startTime: string = WORKING_HOURS.start, minutes: number = WORKING_HOURS.minutes): TimeWindow {
  const from = clockMinutes(startTime) ?? (clockMinutes(WORKING_HOURS.start) as number);
  const start = ukInstant(date, from);
  return { start, end: start + Math.max(1, minutes) * 60_000 };
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** How far the forecast reaches: the last step's time, plus the period its rain covers. */
function reachOf(last: ForecastPoint, at: number): number {
  return at + (last.rain1hMm !== undefined ? HOUR : last.rain6hMm !== undefined ? 6 * HOUR : 0);
}

/**
 * A site's highest gust and its rain over `window`, from its forecast; undefined when the forecast
 * does not reach the window's end (days beyond its reach), the window is past, or it gives no wind.
 * Gusts: the steps inside the window, or, where the steps are six hours apart and none falls inside,
 * the steps either side of it. Rain: each hour of the window from next_1_hours where the step of
 * that hour has it, else its share of the six-hour amount covering it; part hours count in part.
 */
export function siteDayFigures(series: readonly ForecastPoint[], window: TimeWindow): SiteFigures | undefined {
  const steps = series
    .map((point) => ({ point, at: Date.parse(point.time) }))
    .filter((s) => Number.isFinite(s.at))
    .sort((a, b) => a.at - b.at);
  const last = steps.at(-1);
  if (!last || reachOf(last.point, last.at) < window.end || steps[0]!.at >= window.end) return undefined;

  let inside = steps.filter((s) => s.at >= window.start && s.at < window.end);
  if (inside.length === 0) {
    const before = steps.filter((s) => s.at < window.start).at(-1);
    const after = steps.find((s) => s.at >= window.end);
    inside = [before, after].filter((s) => s !== undefined);
  }
  const winds = inside.map((s) => s.point.gustMs ?? s.point.windMs).filter((v) => v !== undefined);
  if (winds.length === 0) return undefined;

  let rain = 0;
  for (let hour = Math.floor(window.start / HOUR) * HOUR; hour < window.end; hour += HOUR) {
    const overlap = (Math.min(hour + HOUR, window.end) - Math.max(hour, window.start)) / HOUR;
    const atHour = steps.find((s) => s.at === hour);
    if (atHour?.point.rain1hMm !== undefined) {
      rain += atHour.point.rain1hMm * overlap;
      continue;
    }
    const six = steps.filter((s) => s.at <= hour && s.at + 6 * HOUR > hour && s.point.rain6hMm !== undefined).at(-1);
    if (six) rain += (six.point.rain6hMm! / 6) * overlap;
  }
  return { gustMs: oneDecimal(Math.max(...winds)), rainMm: oneDecimal(rain) };
}

/** A piece of the crew's kit as the schedule reads it (core/crews.ts). */
export interface KitItem {
  name: string;
  kind: EquipmentKind;
  windLimitMs?: number | null;
}

const KIND_WORDS: Record<Exclude<EquipmentKind, 'other'>, string> = { mewp: 'MEWP', chipper: 'chipper', stump_grinder: 'stump grinder', crane: 'crane' };

/** "15", "12.5": a speed in m/s to one decimal, without a trailing ".0". */
const speed = (ms: number) => String(oneDecimal(ms));

/**
 * "Gusts to 15 m/s (34 mph) forecast; your MEWP's limit is 12.5 m/s; the climbing limit is 10.7 m/s":
 * the gust, then each limit it passes: the lowest among the crew's kit (a MEWP without its own is
 * held to 12.5 m/s; kit with no limit is not counted) and the team's climbing limit. Undefined when
 * the gust passes neither.
 */
export function windWarning(gustMs: number, kit: readonly KitItem[], climbingLimitMs: number | null): string | undefined {
  const passed: string[] = [];
  let lowest: { item: KitItem; limit: number } | undefined;
  for (const item of kit) {
    const limit = effectiveWindLimitMs({ name: item.name, kind: item.kind, windLimitMs: item.windLimitMs ?? undefined });
    if (limit !== null && (!lowest || limit < lowest.limit)) lowest = { item, limit };
  }
  if (lowest && gustMs > lowest.limit) {
    const words = lowest.item.kind === 'other' ? lowest.item.name : KIND_WORDS[lowest.item.kind];
    passed.push(`your ${words}'s limit is ${speed(lowest.limit)} m/s`);
  }
  if (climbingLimitMs !== null && gustMs > climbingLimitMs) passed.push(`the climbing limit is ${speed(climbingLimitMs)} m/s`);
  if (passed.length === 0) return undefined;
  return `Gusts to ${speed(gustMs)} m/s (${msToMph(gustMs)} mph) forecast; ${passed.join('; ')}`;
}

/**
 * A crew's day from its sites' figures: the highest gust at any of them, the most rain at any of
 * them, and the warning against the crew's kit and the climbing limit. Undefined when no site of
 * the day has a forecast (beyond its reach, or the service did not answer).
 */
export function crewDayWeather(sites: readonly (SiteFigures | undefined)[], kit: readonly KitItem[], climbingLimitMs: number | null): DayWeather | undefined {
  const known = sites.filter((s) => s !== undefined);
  if (known.length === 0) return undefined;
  const gustMs = Math.max(...known.map((s) => s.gustMs));
  const rainMm = Math.max(...known.map((s) => s.rainMm));
  const warning = windWarning(gustMs, kit, climbingLimitMs);
  return warning ? { gustMs, rainMm, warning } : { gustMs, rainMm };
}
