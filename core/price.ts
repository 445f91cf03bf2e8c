import { formatCostRange, formatTonnes, type CostRange, type MinuteRange } from './format';
import { costForMinutes, formatGbp } from './money';
import type { Access, Targets } from './questions';
import type { Method } from './time-model';

/**
 * A job's price as a UK tree surgeon builds it: crew time at the crew-hour rate (the base line:
 * total hours x rate, nothing at a rate of 0), then travel, waste disposal by weight and fixed
 * prices for the equipment the job needs, a minimum charge, and VAT as the contractor charges
 * it. Worked out once when the analysis is made and stored with it, so the results, History,
 * the widget, the lead e-mail and the PDF quote all show the same figures.
 *
 * Zod-free and pure: the widget imports it (its first chunk is budgeted). Money is integer
 * pence throughout; the rules' schema is in core/pricing.ts.
 */

/**
 * How VAT is charged: `none` (not VAT-registered, no VAT is charged), `inc` (VAT at the standard
 * rate is added and prices are shown including it, what a homeowner expects), `ex` (VAT is added
 * but prices are shown before it, for trade customers). The rates a contractor types are always
 * before VAT.
 */
export const VAT_MODES = ['none', 'inc', 'ex'] as const;
export type VatMode = (typeof VAT_MODES)[number];

export const VAT_MODE_LABELS: Record<VatMode, string> = {
  none: 'Not VAT-registered: no VAT is charged',
  inc: 'Add VAT and show prices including VAT',
  ex: 'Add VAT and show prices excluding VAT (trade customers)',
};

/**
 * UK standard rate of VAT, 20% since 4 January 2011 (GOV.UK "VAT rates"). Tree surgery and
 * felling are standard-rated services.
 */
export const VAT_STANDARD_RATE_PERCENT = 20;

/** A contractor's pricing rules beside the hourly rate; every amount in pence, before VAT. */
export interface PricingRules {
  /** How many people the crew-hour rate pays for; said beside the rate, never multiplied by it. */
  crewSize: number;
  /** The least a job is priced at, before VAT; 0 for none. */
  minimumChargePence: number;
  /** A fixed charge for getting the crew and kit to the job; 0 for none. */
  travelPence: number;
  /** Disposal of green waste taken away, per tonne of the tree's green mass; 0 for none. */
  wastePerTonnePence: number;
  /** The stump grinder, when the stump is ground out (its time is in the cleanup hours). */
  stumpGrindingPence: number;
  /** An access platform (MEWP), when the job is a dismantle a vehicle can reach. */
  accessPlatformPence: number;
  /** Traffic management (signs and lights), when the tree could fall on a road or footpath. */
  trafficManagementPence: number;
  vatMode: VatMode;
}

/** A new account's rules: a crew of two, nothing beyond the hours, no VAT. */
export const DEFAULT_PRICING_RULES: PricingRules = {
  crewSize: 2,
  minimumChargePence: 0,
  travelPence: 0,
  wastePerTonnePence: 0,
  stumpGrindingPence: 0,
  accessPlatformPence: 0,
  trafficManagementPence: 0,
  vatMode: 'none',
};

export const PRICE_LINE_CODES = ['labour', 'travel', 'waste', 'stump_grinder', 'access_platform', 'traffic_management'] as const;
export type PriceLineCode = (typeof PRICE_LINE_CODES)[number];

export interface PriceLine {
  code: PriceLineCode;
  /** "Crew time", "Travel", ... */
  label: string;
  /** How the line was worked out: "5.5-8.0 crew-hours at £90.00 an hour (crew of 2)". */
  detail: string;
  minPence: number;
  maxPence: number;
}

/** The stored price of one analysis (tree_analyses.price) and what the API answers. */
export interface JobPrice {
  lines: PriceLine[];
  /** The minimum charge that applied to the lower end, the higher end or both; 0 when none did. */
  minimumChargePence: number;
  /** Before VAT, after the minimum charge. */
  netMinPence: number;
  netMaxPence: number;
  vatMode: VatMode;
  vatRatePercent: number;
  vatMinPence: number;
  vatMaxPence: number;
  grossMinPence: number;
  grossMaxPence: number;
  crewSize: number;
}

/** What the job calls for, from the estimate and the site answers. */
export interface PriceInput {
  /** Total crew time (the three components summed). */
  minutes: MinuteRange;
  hourlyRatePence: number;
  rules: PricingRules;
  /** The tree's green mass in tonnes, as the time model worked it out. */
  greenTonnes: number;
  wasteRemoval: boolean;
  stumpGrinding: boolean;
  accessPlatform: boolean;
  trafficManagement: boolean;
}

/**
 * The equipment a job calls for, from the site and the method: an access platform for a
 * dismantle a vehicle can reach (open access; through a gate or a house a platform cannot get
 * in, so the crew climbs), and traffic management where the tree could fall on a road or
 * footpath (Chapter 8 signs and lights, or a council permit's conditions). A contractor who never
 * uses a platform leaves its price at 0 and no line is added.
 */
export function equipmentFor(
  site: { targets: Targets; access: Access },
  method: Method,
): { accessPlatform: boolean; trafficManagement: boolean } {
  return { accessPlatform: method === 'climb_dismantle' && site.access === 'open', trafficManagement: site.targets === 'road' };
}

/**
 * VAT on an amount in pence, rounded to the nearer penny, a half penny up: HMRC's VAT Notice 700
 * paragraph 17.5 allows line-level VAT rounded to the nearer 1p (and forbids rounding it down to
 * whole pence at line level; HMRC manual VATREC12010). Integer arithmetic, no floats.
 */
export function vatOn(netPence: number, ratePercent = VAT_STANDARD_RATE_PERCENT): number {
  return Math.floor((netPence * ratePercent + 50) / 100);
}

/**
 * The crew time's working: "5.5-8.0 crew-hours at £90.00 an hour (crew of 2)", hours to one
 * decimal; without the crew when its size was never said (a price from before pricing rules).
 */
function crewTimeDetail(minutes: MinuteRange, hourlyRatePence: number, crewSize: number): string {
  const crew = crewSize > 0 ? ` (crew of ${crewSize})` : '';
  return `${crewHours(minutes)} at ${formatGbp(hourlyRatePence)} an hour${crew}`;
}

/** "5.5-8.0 crew-hours" or "1.5 crew-hours". */
function crewHours({ min, max }: MinuteRange): string {
  const a = (min / 60).toFixed(1);
  const b = (max / 60).toFixed(1);
  return a === b ? `${a} crew-hours` : `${a}-${b} crew-hours`;
}

const fixed = (code: PriceLineCode, label: string, detail: string, pence: number): PriceLine[] =>
  pence > 0 ? [{ code, label, detail, minPence: pence, maxPence: pence }] : [];

/**
 * The price of a job, or null when the hourly rate is 0 (no price at all, as before: a
 * contractor who has not set a rate has not priced anything). Lines in the order a quote lists
 * them; a line whose rule is 0 or that the job does not need is left out. The minimum charge
 * raises each end of the range to it; VAT is worked out on each end's total.
 */
export function priceJob(input: PriceInput): JobPrice | null {
  const { minutes, hourlyRatePence, rules } = input;
  if (hourlyRatePence <= 0) return null;
  const lines: PriceLine[] = [
    {
      code: 'labour',
      label: 'Crew time',
      detail: crewTimeDetail(minutes, hourlyRatePence, rules.crewSize),
      minPence: costForMinutes(minutes.min, hourlyRatePence),
      maxPence: costForMinutes(minutes.max, hourlyRatePence),
    },
    ...fixed('travel', 'Travel', 'Getting the crew and equipment to the job', rules.travelPence),
  ];
  if (input.wasteRemoval && rules.wastePerTonnePence > 0 && input.greenTonnes > 0) {
    const pence = Math.round(input.greenTonnes * rules.wastePerTonnePence);
    lines.push({
      code: 'waste',
      label: 'Waste disposal',
      detail: `About ${formatTonnes(input.greenTonnes)} of green waste at ${formatGbp(rules.wastePerTonnePence)} a tonne`,
      minPence: pence,
      maxPence: pence,
    });
  }
  if (input.stumpGrinding) lines.push(...fixed('stump_grinder', 'Stump grinder', 'Grinding the stump out below ground level', rules.stumpGrindingPence));
  if (input.accessPlatform)
    lines.push(...fixed('access_platform', 'Access platform', 'A platform to reach the crown from a vehicle', rules.accessPlatformPence));
  if (input.trafficManagement)
    lines.push(...fixed('traffic_management', 'Traffic management', 'Signs and lights for working beside a road or footpath', rules.trafficManagementPence));

  const sumMin = lines.reduce((sum, line) => sum + line.minPence, 0);
  const sumMax = lines.reduce((sum, line) => sum + line.maxPence, 0);
  const netMinPence = Math.max(sumMin, rules.minimumChargePence);
  const netMaxPence = Math.max(sumMax, rules.minimumChargePence);
  const vatRatePercent = rules.vatMode === 'none' ? 0 : VAT_STANDARD_RATE_PERCENT;
  const vatMinPence = vatOn(netMinPence, vatRatePercent);
  const vatMaxPence = vatOn(netMaxPence, vatRatePercent);
  return {
    lines,
    minimumChargePence: netMinPence > sumMin ? rules.minimumChargePence : 0,
    netMinPence,
    netMaxPence,
    vatMode: rules.vatMode,
    vatRatePercent,
    vatMinPence,
    vatMaxPence,
    grossMinPence: netMinPence + vatMinPence,
    grossMaxPence: netMaxPence + vatMaxPence,
    crewSize: rules.crewSize,
  };
}

/**
 * The price of an analysis stored before pricing rules existed: its cost (hours x rate) as the
 * only line, no VAT stated. Its crew size was never said; 0 means unknown.
 */
export function priceFromCost(cost: CostRange | null, minutes: MinuteRange, hourlyRatePence: number): JobPrice | null {
  if (!cost) return null;
  return {
    lines: [
      {
        code: 'labour',
        label: 'Crew time',
        detail: crewTimeDetail(minutes, hourlyRatePence, 0),
        minPence: cost.minPence,
        maxPence: cost.maxPence,
      },
    ],
    minimumChargePence: 0,
    netMinPence: cost.minPence,
    netMaxPence: cost.maxPence,
    vatMode: 'none',
    vatRatePercent: 0,
    vatMinPence: 0,
    vatMaxPence: 0,
    grossMinPence: cost.minPence,
    grossMaxPence: cost.maxPence,
    crewSize: 0,
  };
}

/** The words after a price: "inc VAT", "ex VAT", or "no VAT" when none is charged. */
export const VAT_SUFFIX: Record<VatMode, string> = { none: 'no VAT', inc: 'inc VAT', ex: 'ex VAT' };

/** The range everyone is shown, in pence: including VAT in `inc` mode, before it otherwise. */
export function headlineRange(price: JobPrice): CostRange {
  return price.vatMode === 'inc'
    ? { minPence: price.grossMinPence, maxPence: price.grossMaxPence }
    : { minPence: price.netMinPence, maxPence: price.netMaxPence };
}

/**
 * The one price text every screen, e-mail and quote shows: "£920.00 - £1,364.00 inc VAT".
 * "no VAT" is said only when it matters to the reader; a price stored before VAT was a setting
 * says nothing about it.
 */
export function formatPrice(price: JobPrice): string {
  const range = formatCostRange(headlineRange(price));
  return price.crewSize === 0 && price.vatMode === 'none' ? range : `${range} ${VAT_SUFFIX[price.vatMode]}`;
}

export interface PriceRow {
  /** The price line's code; none for the minimum charge and the totals. */
  code?: PriceLineCode;
  label: string;
  detail?: string;
  value: string;
  /** The total the reader pays (or the figure headlined), drawn stronger. */
  strong?: boolean;
}

/**
 * The price as rows, the same on every screen and in the PDF: each line, the minimum charge
 * when it applied, then the totals as the VAT mode calls for (ex VAT, VAT and inc VAT when VAT
 * is charged; the total alone when it is not).
 */
export function priceRows(price: JobPrice): PriceRow[] {
  const rows: PriceRow[] = price.lines.map((line) => ({
    code: line.code,
    label: line.label,
    detail: line.detail,
    value: formatCostRange({ minPence: line.minPence, maxPence: line.maxPence }),
  }));
  if (price.minimumChargePence > 0)
    rows.push({ label: 'Minimum charge', detail: `Jobs start at ${formatGbp(price.minimumChargePence)} before VAT`, value: formatGbp(price.minimumChargePence) });
  const net = formatCostRange({ minPence: price.netMinPence, maxPence: price.netMaxPence });
  if (price.vatMode === 'none') {
    rows.push({ label: price.crewSize === 0 ? 'Total' : 'Total (no VAT charged)', value: net, strong: true });
    return rows;
  }
  const vat = formatCostRange({ minPence: price.vatMinPence, maxPence: price.vatMaxPence });
  const gross = formatCostRange({ minPence: price.grossMinPence, maxPence: price.grossMaxPence });
  rows.push(
    { label: 'Total ex VAT', value: net, strong: price.vatMode === 'ex' },
    { label: `VAT at ${price.vatRatePercent}%`, value: vat },
    { label: 'Total inc VAT', value: gross, strong: price.vatMode === 'inc' },
  );
  return rows;
}
