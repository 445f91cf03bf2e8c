import { formatTonnes } from '../../core/format';
import type { SiteDetails, Targets } from '../../core/site';
import { cautiousSite, SITE_ASSUMED_PREFIX, sizeRangePhrase, TYPICAL_GARDEN_TREE } from '../../core/site-assumptions';
import { describeWoodDensity } from '../../core/species';
import { boundToModel, estimateTimes, type Method, type TimeEstimate, type TimeModelInput, type TimeRange } from '../../core/time-model';
import type { ValueSources } from '../../core/tree-details';
import { applyCalibration, type AppliedCalibration, type Calibration } from './calibration';
import type { TimeMultipliers } from './hazards';
import type { TreeValues } from './tree-values';
import type { Perception } from './types';

/**
 * From what was given and perceived to the three time ranges: take the tree's values in their
 * order of precedence (tree-values.ts), fill what is unknown with conservative assumptions
 * (and say so), run the time model, lengthen it for the hazards named, bound a model's own
 * times to it, then apply the crew's calibration. Abstention (abstain.ts) has already made
 * sure at least one size is known.
 */
export type ResolvedSite = TimeModelInput['site'];
type Component = 'cutting' | 'prep' | 'cleanup';
export type ComponentFactors = Record<Component, number>;

export interface EstimateInput {
  values: TreeValues;
  perception: Perception;
  /** The site questions the user answered; they win over anything read. */
  answers: SiteDetails;
  /** Site facts read from the project details, under the provider's. */
  described: SiteDetails;
  /** How much longer the named hazards make each component (hazards.ts). */
  hazardTimes: TimeMultipliers;
  /** The crew's and the install's feedback (calibration.ts loadCalibration); its factors are picked once the method is known. */
  calibration: Calibration | null;
  /**
   * Sizes the user said "Not sure" of (or left blank where nothing can read them): one nobody
   * gave is priced across a typical garden tree's range (core/site-assumptions.ts).
   */
  sizesNotSure?: { height: boolean; diameter: boolean };
}

export interface Estimate {
  species: string | null;
  /** Null when nobody gave it: the results show N/A and a factor says what was assumed. */
  dbhIn: number | null;
  heightFt: number | null;
  woodDensity: string;
  method: Method;
  site: ResolvedSite;
  /** The sizes the safety checks use: the upper end of a range priced across. */
  usedDbhIn: number;
  usedHeightFt: number;
  /** The sizes priced across a typical garden tree's range because nobody could give them. */
  rangedSizes: ('height' | 'diameter')[];
  times: Record<Component, TimeRange>;
  /** Uncalibrated midpoints: what later feedback is compared with. */
  baseTimes: ComponentFactors;
  /** What the times were scaled by for this method, and from what; null when uncalibrated. */
  calibration: AppliedCalibration | null;
  sources: ValueSources;
  factors: string[];
  /** The tree's green mass (kg) as the time model worked it out: what waste disposal is priced by. */
  greenMassKg: number;
}

/** An assumed size widens the upper end of the range by half. Assumption. */
const ASSUMED_SIZE_WIDENING = 1.5;

/**
 * When only one size is known, the other follows a rough urban-broadleaf ratio of
 * height (ft) = 2 x DBH (in) + 10, within 10..90 ft. Assumption for planning only.
 */
const heightFromDbh = (dbhIn: number) => Math.min(90, Math.max(10, Math.round(2 * dbhIn + 10)));
const dbhFromHeight = (heightFt: number) => Math.min(48, Math.max(3, Math.round((heightFt - 10) / 2)));

function scale(range: TimeRange, factor: number): TimeRange {
  const round5 = (v: number) => Math.max(5, Math.round(v / 5) * 5);
  return { min: round5(range.min * factor), max: Math.max(round5(range.min * factor), round5(range.max * factor)) };
}

export function buildEstimate(input: EstimateInput): Estimate {
  const { values, perception, calibration } = input;
  const { species } = values;
  const factors: string[] = [...values.factors];

  const sizes = sizeRanges(values, input.sizesNotSure);
  if (!sizes) throw new Error('buildEstimate needs a size: abstain first (abstain.ts)');
  const { height, dbh, rangedSizes } = sizes;
  factors.push(...sizes.factors);
  // A size worked out from the other widens the range; one priced across a range already is wide.
  const sizesAssumed = rangedSizes.length === 0 && (values.dbhIn === null || values.heightFt === null);
  if (!species.name) factors.push('Species not identified: assumed dense hardwood');
  else if (species.species?.generic) factors.push(`Species not identified: assumed a typical ${species.kind === 'conifer' ? 'conifer' : 'broadleaf'}`);
  else if (!species.species) factors.push(`${species.name} is not in our species list: assumed dense hardwood`);

  const resolved = cautiousSite(input.answers, { ...input.described, ...perception.site });
  const site: ResolvedSite = resolved.site;
  const assumed = [...sizes.assumed, ...resolved.assumed];
  if (assumed.length > 0) factors.push(`${SITE_ASSUMED_PREFIX}${assumed.join(', ')}`);

  const timesAt = (heightFt: number, dbhIn: number) =>
    estimateTimes({
      dbhIn,
      heightFt,
      crownSpreadFt: values.crownSpreadFt ?? undefined,
      greenDensityKgM3: species.greenDensityKgM3,
      kind: species.kind,
      site,
    });
  // Across a range: the small end's lower times and the large end's higher ones, and the large
  // end's method, mass and equipment (the model is monotone, so the large end is never quicker).
  const model = timesAt(height.max, dbh.max);
  const small = rangedSizes.length > 0 ? timesAt(height.min, dbh.min) : model;
  for (const part of ['cutting', 'prep', 'cleanup'] as const) model[part] = { min: Math.min(small[part].min, model[part].min), max: model[part].max };
  factors.push(...massFactor(model, small));
  const usedHeightFt = height.max;
  const usedDbhIn = dbh.max;

  const times = {} as Record<Component, TimeRange>;
  for (const part of ['cutting', 'prep', 'cleanup'] as const) {
    // The named hazards lengthen the time model's figure; a model's own times are judged against that.
    const reference = lengthen(model[part], input.hazardTimes[part]);
    let range = reference;
    const proposed = perception.times?.[part];
    if (proposed) {
      const bounded = boundToModel(proposed, reference);
      range = bounded.range;
      if (bounded.adjusted) factors.push(`The AI's ${part} time was outside 0.25x-4x of the time model and was pulled back`);
    }
    if (sizesAssumed && part !== 'prep') range = { min: range.min, max: Math.ceil((range.max * ASSUMED_SIZE_WIDENING) / 5) * 5 };
    times[part] = range;
  }
  const baseTimes = {
    cutting: (times.cutting.min + times.cutting.max) / 2,
    prep: (times.prep.min + times.prep.max) / 2,
    cleanup: (times.cleanup.min + times.cleanup.max) / 2,
  };
  // The kind of job is the method the model chose: its factors come from the chain kind ->
  // account -> install -> 1 (core/calibration.ts).
  const applied = calibration ? applyCalibration(calibration, model.method) : null;
  if (applied) {
    for (const part of ['cutting', 'prep', 'cleanup'] as const) times[part] = scale(times[part], applied.factors[part]);
  }

  return {
    species: species.name,
    dbhIn: values.dbhIn,
    heightFt: values.heightFt,
    woodDensity: describeWoodDensity(species.greenDensityKgM3) + (species.densityAssumed ? ', assumed' : ''),
    method: model.method,
    site,
    usedDbhIn,
    usedHeightFt,
    rangedSizes,
    times,
    baseTimes,
    calibration: applied,
    sources: values.sources,
    factors: [...factors, ...perception.factors],
    greenMassKg: model.greenMassKg,
  };
}

/** The model's factors, the mass across the range when there is one. */
function massFactor(large: TimeEstimate, small: TimeEstimate): string[] {
  if (small === large || small.greenMassKg === large.greenMassKg) return large.factors;
  const mass = `About ${formatTonnes(small.greenMassKg / 1000)} to ${formatTonnes(large.greenMassKg / 1000)} of green wood and brush to clear`;
  return large.factors.map((factor) => (/^About .* of green wood and brush to clear$/.test(factor) ? mass : factor));
}

interface SizeRanges {
  height: TimeRange;
  dbh: TimeRange;
  rangedSizes: ('height' | 'diameter')[];
  factors: string[];
  /** Phrases of what was assumed, for the estimate's "Not answered, assumed" factor. */
  assumed: string[];
}

/**
 * The height and trunk the estimate prices, as ranges (min = max for a size someone gave). A size
 * nobody gave is, when the user said "Not sure" of either, a typical garden tree's range, widened
 * to take in what the other size suggests; otherwise (only one given, nobody said "Not sure") it
 * is worked out from the other, as before. Null when no size is known and nobody said "Not sure":
 * abstention asks for one (abstain.ts).
 */
export function sizeRanges(values: Pick<TreeValues, 'heightFt' | 'dbhIn'>, notSure: EstimateInput['sizesNotSure']): SizeRanges | null {
  const anyNotSure = notSure !== undefined && (notSure.height || notSure.diameter);
  const factors: string[] = [];
  const assumed: string[] = [];
  const rangedSizes: SizeRanges['rangedSizes'] = [];
  const exact = (v: number): TimeRange => ({ min: v, max: v });
  if (values.heightFt === null && values.dbhIn === null && !anyNotSure) return null;

  let height: TimeRange;
  let dbh: TimeRange;
  if (values.heightFt !== null && values.dbhIn !== null) return { height: exact(values.heightFt), dbh: exact(values.dbhIn), rangedSizes, factors, assumed };
  if (!anyNotSure) {
    if (values.heightFt === null) {
      const derived = heightFromDbh(values.dbhIn!);
      factors.push(`Height not given: assumed about ${derived} ft from the trunk size`);
      return { height: exact(derived), dbh: exact(values.dbhIn!), rangedSizes, factors, assumed };
    }
    const derived = dbhFromHeight(values.heightFt);
    factors.push(`Trunk size not given: assumed about ${derived} in from the height`);
    return { height: exact(values.heightFt), dbh: exact(derived), rangedSizes, factors, assumed };
  }
  const typical = TYPICAL_GARDEN_TREE;
  if (values.heightFt === null) {
    const derived = values.dbhIn === null ? null : heightFromDbh(values.dbhIn);
    height = { min: Math.min(typical.height.minFt, derived ?? Infinity), max: Math.max(typical.height.maxFt, derived ?? 0) };
    rangedSizes.push('height');
    factors.push(`Height not known: priced from ${height.min} to ${height.max} ft, a typical garden tree`);
    assumed.push(sizeRangePhrase('height', height.min, height.max));
  } else height = exact(values.heightFt);
  if (values.dbhIn === null) {
    const derived = values.heightFt === null ? null : dbhFromHeight(values.heightFt);
    dbh = { min: Math.min(typical.trunk.minIn, derived ?? Infinity), max: Math.max(typical.trunk.maxIn, derived ?? 0) };
    rangedSizes.push('diameter');
    factors.push(`Trunk size not known: priced from ${dbh.min} to ${dbh.max} in, a typical garden tree`);
    assumed.push(sizeRangePhrase('trunk', dbh.min, dbh.max));
  } else dbh = exact(values.dbhIn);
  return { height, dbh, rangedSizes, factors, assumed };
}

function lengthen(range: TimeRange, factor: number): TimeRange {
  if (factor === 1) return range;
  const up5 = (v: number) => Math.max(5, Math.ceil(v / 5) * 5);
  return { min: up5(range.min * factor), max: up5(range.max * factor) };
}

/** Everything within falling distance: what the time model used, and anything else the details named. */
export function targetsNear(site: ResolvedSite, described: readonly Targets[]): Targets[] {
  return [...new Set([site.targets, ...described])];
}
