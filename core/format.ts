import { costForMinutes, formatGbp } from './money';

/**
 * Time and cost display rules of SPEC section 9, shared by the dashboard, the widget
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
