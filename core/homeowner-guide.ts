import { formatGbp } from './money';
import { headlineRange, VAT_SUFFIX, type JobPrice, type PriceLineCode, type VatMode } from './price';
import type { SiteDetails } from './questions';
import { assumedPhrases, CAUTIOUS_SITE } from './site-assumptions';
import { roundToStep } from './quote-totals';

/**
 * The guide price in a homeowner's words (docs/product.md, Embed widget, The guide price): what a
 * visitor on a business's site reads of an estimate. The estimate's own working (crew-hours,
 * methods, tonnes, density, the crew's safety rules, a confidence figure) stays with the business
 * in the lead, the History and the quote; the visitor reads the business's rounded price, what it
 * covers, the next step and the reasons for it, and a plain "How the price is made up".
 *
 * Worked out on the server (the embed answer's `guide`), so the widget's first chunk carries none
 * of these rules; the widget only formats a guide range and adds up its list of trees.
 */

/** A rounded range in whole pounds, and how VAT is said after it. */
export interface GuideRange {
  minPence: number;
  maxPence: number;
  vatMode: VatMode;
}

export interface GuideRow {
  label: string;
  /** In plain words: "A crew of 3 for about half a day". */
  detail?: string;
  value: string;
  strong?: boolean;
}

export interface HomeownerGuide {
  /** The business's rounded guide price; null when the business shows no price (no rate). */
  price: GuideRange | null;
  /** "We'll confirm the price when we see the tree" where a visit is recommended; the business's next step otherwise. */
  nextStep: { visit: boolean; heading: string; reasons: string[] };
  /** Behind "How the price is made up": each line in plain words, then the totals. */
  madeUp: GuideRow[];
  /** What a homeowner should know before the work (a protected tree, nesting birds). */
  goodToKnow: string[];
}

export const VISIT_HEADING = "We'll confirm the price when we see the tree";
export const NO_VISIT_HEADING = "We'll confirm the price with you";

/** "about £610 - £740 inc VAT", "about £300 inc VAT", "about £300" when a price says nothing of VAT. */
export function guidePriceText(range: GuideRange): string {
  const pounds = range.minPence === range.maxPence ? wholePounds(range.minPence) : `${wholePounds(range.minPence)} - ${wholePounds(range.maxPence)}`;
  return `about ${pounds}${range.vatMode === 'none' ? '' : ` ${VAT_SUFFIX[range.vatMode]}`}`;
}

/** "£610", "£1,185"; pence are shown only when a figure has them (a rounding rule of £1 never leaves any). */
export function wholePounds(pence: number): string {
  const text = formatGbp(pence);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
}

/** The sum of several trees' guide prices, each already rounded: the list's total. Null when none is priced. */
export function sumGuides(ranges: readonly (GuideRange | null)[]): GuideRange | null {
  const priced = ranges.filter((range): range is GuideRange => range !== null);
  const [first] = priced;
  if (!first) return null;
  return {
    minPence: priced.reduce((sum, range) => sum + range.minPence, 0),
    maxPence: priced.reduce((sum, range) => sum + range.maxPence, 0),
    // Every tree of one business is priced with its one VAT rule.
    vatMode: first.vatMode,
  };
}

/** The estimate's range, rounded by the business's rule (£1, £5 or £10 to the nearest, halves up). */
export function roundedGuide(price: JobPrice, roundingPence: number): GuideRange {
  const { minPence, maxPence } = headlineRange(price);
  const min = roundToStep(minPence, roundingPence);
  return { minPence: min, maxPence: Math.max(min, roundToStep(maxPence, roundingPence)), vatMode: price.vatMode };
}

/**
 * How long the crew is there, from the estimate's time (the middle of its range, on site): "about
 * an hour", "a couple of hours", "about half a day", "about a day", "about 2 days" (8-hour days).
 */
export function timeOnSiteWords(minMinutes: number, maxMinutes: number): string {
  const hours = (minMinutes + maxMinutes) / 2 / 60;
  if (hours <= 1.5) return 'about an hour';
  if (hours <= 3) return 'a couple of hours';
  if (hours <= 5) return 'about half a day';
  if (hours <= 10) return 'about a day';
  const halfDays = Math.round(hours / 4);
  const days = halfDays / 2;
  return `about ${Number.isInteger(days) ? days : `${Math.floor(days)}½`} days`;
}

/** Each price line as a homeowner reads it: what it is for, never how the trade works it out. */
const LINE_WORDS: Record<PriceLineCode, { label: string; detail?: string }> = {
  labour: { label: "The crew's time" },
  travel: { label: 'Getting to you', detail: 'The crew and their equipment' },
  waste: { label: 'Taking the wood and waste away' },
  stump_grinder: { label: 'Grinding out the stump', detail: 'Below ground level, so the ground can be levelled' },
  access_platform: { label: 'A lift to reach the top of the tree' },
  traffic_management: { label: 'Signs and lights', detail: 'For working beside a road or pavement' },
};

/** "£400 - £480" in whole pounds, by the business's rounding rule. */
function roundedValue(minPence: number, maxPence: number, roundingPence: number): string {
  const min = wholePounds(roundToStep(minPence, roundingPence));
  const max = wholePounds(roundToStep(maxPence, roundingPence));
  return min === max ? min : `${min} - ${max}`;
}

function madeUpRows(price: JobPrice, minutes: { min: number; max: number }, roundingPence: number): GuideRow[] {
  const onSite = timeOnSiteWords(minutes.min, minutes.max);
  const rows: GuideRow[] = price.lines.map((line) => ({
    label: LINE_WORDS[line.code].label,
    detail: line.code === 'labour' ? (price.crewSize > 0 ? `A crew of ${price.crewSize} for ${onSite}` : `Work for ${onSite}`) : LINE_WORDS[line.code].detail,
    value: roundedValue(line.minPence, line.maxPence, roundingPence),
  }));
  if (price.minimumChargePence > 0)
    rows.push({ label: 'Smallest job', detail: `Jobs start at ${wholePounds(price.minimumChargePence)} before VAT`, value: wholePounds(price.minimumChargePence) });
  const guide = roundedGuide(price, roundingPence);
  if (price.vatMode !== 'none') rows.push({ label: `VAT at ${price.vatRatePercent}%`, value: roundedValue(price.vatMinPence, price.vatMaxPence, roundingPence) });
  rows.push({ label: `Guide price${price.vatMode === 'none' ? '' : ` ${VAT_SUFFIX[price.vatMode]}`}`, value: guidePriceText({ ...guide, vatMode: 'none' }), strong: true });
  return rows;
}

/** What the estimate knew of the site and the tree, for the reasons to see it. */
export interface GuideInput {
  price: JobPrice | null;
  /** The estimate's time on site (the three parts summed), minutes. */
  minutes: { min: number; max: number };
  /** The visitor's own answers (undefined: not answered or "Not sure"). */
  site: SiteDetails | null;
  /** The estimate's factors: what it assumed for what nobody said is read from them (core/site-assumptions.ts). */
  factors: readonly string[];
  heightFt: number | null;
  dbhIn: number | null;
  /** Whether the estimate recommends a site visit (any reason, its confidence included). */
  visitRecommended: boolean;
  /** When the estimate was made, for what is true in the season. */
  at: Date;
  roundingPence: number;
}

/** "Large" as the site-visit rule says it (server/analysis/safety.ts): 50 ft tall or a 24 in trunk. */
export const LARGE_TREE = { heightFt: 50, dbhIn: 24 } as const;

/** March to August (Natural England / RSPB guidance on the main bird nesting season). */
export function isNestingSeason(date: Date): boolean {
  const month = date.getUTCMonth();
  return month >= 2 && month <= 7;
}

/**
 * Why the business wants to see the tree, in the visitor's words: what it could hit, power lines,
 * how the crew gets to it, its size; each said as known ("near a building") or as not yet known
 * ("may be near power lines") from the answers and what the estimate assumed.
 */
export function visitReasons(input: Pick<GuideInput, 'site' | 'factors' | 'heightFt' | 'dbhIn'>): string[] {
  const site = input.site ?? {};
  const assumed = new Set(assumedPhrases(input.factors));
  const reasons: string[] = [];
  if (site.targets === 'building') reasons.push('It could hit a building if it fell');
  else if (site.targets === 'road') reasons.push('It could reach a road or pavement if it fell');
  else if (assumed.has(CAUTIOUS_SITE.targets.phrase)) reasons.push('We do not know yet what it could hit if it fell');
  if (site.powerLines === true) reasons.push('There are power lines near it');
  else if (assumed.has(CAUTIOUS_SITE.powerLines.phrase)) reasons.push('There may be power lines near it');
  if (site.access === 'through_house') reasons.push('Everything has to be carried through the house');
  else if (site.access === 'side_gate') reasons.push('The crew can only get to it through a side gate');
  else if (assumed.has(CAUTIOUS_SITE.access.phrase)) reasons.push('We do not know yet how the crew gets to it');
  const sizeUnknown = [...assumed].some((phrase) => phrase.startsWith('tree height of') || phrase.startsWith('trunk width of'));
  if (sizeUnknown) reasons.push('We do not know its size yet');
  else if ((input.heightFt ?? 0) >= LARGE_TREE.heightFt || (input.dbhIn ?? 0) >= LARGE_TREE.dbhIn) reasons.push('It is a large tree');
  return reasons;
}

/** The guide a visitor reads of one estimate. */
export function homeownerGuide(input: GuideInput): HomeownerGuide {
  const goodToKnow = [
    // A Tree Preservation Order needs the council's consent (Town and Country Planning (Tree
    // Preservation) (England) Regulations 2012, reg. 13); a conservation area needs six weeks'
    // notice to it, not its agreement (Town and Country Planning Act 1990, s.211).
    "If the tree has a Tree Preservation Order, the council must agree to the work first; in a conservation area, the council must be given six weeks' notice before it. The business can check for you.",
  ];
  if (isNestingSeason(input.at)) goodToKnow.push('From March to August birds may be nesting: the work waits for any nest in use.');
  const reasons = visitReasons(input);
  if (reasons.some((reason) => reason.includes('power lines')))
    goodToKnow.push('Keep well away from power lines near a tree: only trained people work near them, with the power company where needed.');
  return {
    price: input.price ? roundedGuide(input.price, input.roundingPence) : null,
    // What the price took into account is said either way: a visit or not, the visitor sees that
    // the building, the power lines and the way in were heard.
    nextStep: { visit: input.visitRecommended, heading: input.visitRecommended ? VISIT_HEADING : NO_VISIT_HEADING, reasons },
    madeUp: input.price ? madeUpRows(input.price, input.minutes, input.roundingPence) : [],
    goodToKnow,
  };
}

/**
 * Words a visitor never reads: the trade's working and the crew's safety rules. Checked on every
 * screen of the estimator (e2e) and on the guide the server answers, beside OPERATOR_WORDS.
 */
export const SURVEYOR_WORDS =
  /\b(?:crew-hours?|confidence|density|tonnes?|section fell|dismantle|brush drag|LOLER|rescue plan|Distribution Network Operator|arborists?|Analy[sz]e Tree|Drag a photo|checked for quality only|rigging)\b|kg\/m³|\d+%\)/i;
