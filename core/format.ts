import { costForMinutes, formatGbp } from './money';

/**
 * Time and cost display rules (docs/product.md, Analysis), shared by the dashboard, the widget
 * and the PDF report so all three always agree.
 */
export interface MinuteRange {
  min: number;
  max: number;
}

function hoursAndMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h}h` : `${h}h ${m}m`;
}

/** Equal min and max: "N min"; both at or above 60: hours and minutes; otherwise "min-max min". */
export function formatTimeRange({ min, max }: MinuteRange): string {
  if (min === max) return min >= 60 ? hoursAndMinutes(min) : `${min} min`;
  if (min >= 60 && max >= 60) return `${hoursAndMinutes(min)} - ${hoursAndMinutes(max)}`;
  return `${min}-${max} min`;
}

export interface TimeBreakdown {
  cuttingTimeMin: number;
  cuttingTimeMax: number;
  prepTimeMin: number;
  prepTimeMax: number;
  cleanupTimeMin: number;
  cleanupTimeMax: number;
}

/** The sum of the three components' minimums and maximums. */
export function totalMinutes(t: TimeBreakdown): MinuteRange {
  return {
    min: t.cuttingTimeMin + t.prepTimeMin + t.cleanupTimeMin,
    max: t.cuttingTimeMax + t.prepTimeMax + t.cleanupTimeMax,
  };
}

/**
 * Total time: hours to one decimal when the minimum is at least 60 minutes, otherwise
 * minutes; a single value when min equals max.
 */
export function formatTotalTime({ min, max }: MinuteRange): string {
  if (min >= 60) {
    const a = (min / 60).toFixed(1);
    const b = (max / 60).toFixed(1);
    return a === b ? `${a} hours` : `${a}-${b} hours`;
  }
  return min === max ? `${min} min` : `${min}-${max} min`;
}

export interface CostRange {
  minPence: number;
  maxPence: number;
}

/** Cost = total hours x hourly rate; a rate of 0 gives no cost. */
export function costRange(total: MinuteRange, hourlyRatePence: number): CostRange | null {
  if (hourlyRatePence <= 0) return null;
  return { minPence: costForMinutes(total.min, hourlyRatePence), maxPence: costForMinutes(total.max, hourlyRatePence) };
}

/** "£12.50", or "£12.50 - £20.00" when min and max differ. */
export function formatCostRange(cost: CostRange): string {
  return cost.minPence === cost.maxPence ? formatGbp(cost.minPence) : `${formatGbp(cost.minPence)} - ${formatGbp(cost.maxPence)}`;
}

/** "1.2 tonnes", or "350 kg" under a tonne (at least 10 kg): green wood as the factors and the price say it. */
export function formatTonnes(tonnes: number): string {
  return tonnes < 1 ? `${Math.max(10, Math.round((tonnes * 1000) / 10) * 10)} kg` : `${tonnes.toFixed(1)} tonnes`;
}

/** The most a feedback time may say: the API's bound on whole minutes (about 69 days). */
export const MAX_DURATION_MINUTES = 100_000;

const MINUTE_UNIT = '(?:m|min|mins|minute|minutes)';
/** "45", "45m", "45 min", "45 minutes" */
const MINUTES_ONLY = new RegExp(`^(\\d+)\\s*${MINUTE_UNIT}?$`);
/**
 * "2h", "2.5 hours", "2h 30m", "2h30", "2 hours and 30 minutes". The spaces around the comma are
 * read one way (\s*(?:,\s*)?, not \s*,?\s*): split two ways, a run of spaces that ends
 * in anything else was tried at every split, and the work grew with the square of its length.
 */
const HOURS_AND_MINUTES = new RegExp(
  `^(\\d+(?:\\.\\d+)?)\\s*(?:h|hr|hrs|hour|hours)(?:\\s*(?:,\\s*)?(?:and\\s+)?(\\d+)\\s*${MINUTE_UNIT}?)?$`,
);
/** "2:30" */
const CLOCK = /^(\d+):([0-5]\d)$/;

/**
 * What a user typed for how long a job took, in whole minutes: "45" or "45 min" (minutes,
 * whole minutes), "2h 30m", "2 hours 30 minutes", "2h30", "2.5h" or "2:30", as
 * the estimates beside the field are written ("5h 30m - 8h 25m"). Fractions of a minute
 * round to the nearest. null for text that is none of these or past MAX_DURATION_MINUTES;
 * the caller treats empty text as "not given" before asking.
 */
export function parseDuration(text: string): number | null {
  const input = text.trim().toLowerCase();
  let minutes: number | undefined;
  let match: RegExpExecArray | null;
  if ((match = MINUTES_ONLY.exec(input))) minutes = Number(match[1]);
  else if ((match = HOURS_AND_MINUTES.exec(input))) minutes = Math.round(Number(match[1]) * 60) + Number(match[2] ?? 0);
  else if ((match = CLOCK.exec(input))) minutes = Number(match[1]) * 60 + Number(match[2]);
  if (minutes === undefined || !Number.isSafeInteger(minutes) || minutes > MAX_DURATION_MINUTES) return null;
  return minutes;
}

/** A whole number of minutes as a feedback field shows it again: "45 min" or "2h 30m". */
export function formatDuration(minutes: number): string {
  return minutes >= 60 ? hoursAndMinutes(minutes) : `${minutes} min`;
}
