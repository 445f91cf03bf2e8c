import { ACCESS_LABELS, DRAG_LABELS, TARGET_LABELS, type SiteDetails, type Targets } from '../../core/site';
import { SITE_ASSUMED_PREFIX } from '../../core/quote';
import { describeWoodDensity } from '../../core/species';
import { boundToModel, estimateTimes, type Method, type TimeModelInput, type TimeRange } from '../../core/time-model';
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
}

export interface Estimate {
  species: string | null;
  /** Null when nobody gave it: the results show N/A and a factor says what was assumed. */
  dbhIn: number | null;
  heightFt: number | null;
  woodDensity: string;
  method: Method;
  site: ResolvedSite;
  usedDbhIn: number;
  usedHeightFt: number;
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

/**
 * An unanswered site is taken as a typical back garden: a fence or shed in reach, side-gate
 * access and a 10-30 m drag. It errs toward more time, never less.
 */
const DEFAULT_SITE: ResolvedSite = {
  targets: 'fence_shed',
  powerLines: false,
  access: 'side_gate',
  dragDistance: 'medium',
  stumpGrinding: false,
  wasteRemoval: true,
};
/** An assumed size widens the upper end of the range by half. Assumption. */
const ASSUMED_SIZE_WIDENING = 1.5;

/**
 * When only one size is known, the other follows a rough urban-broadleaf ratio of
 * height (ft) = 2 x DBH (in) + 10, within 10..90 ft. Assumption for planning only.
 */
const heightFromDbh = (dbhIn: number) => Math.min(90, Math.max(10, Math.round(2 * dbhIn + 10)));
const dbhFromHeight = (heightFt: number) => Math.min(48, Math.max(3, Math.round((heightFt - 10) / 2)));

function resolveSite(answers: SiteDetails, perceived: SiteDetails): { site: ResolvedSite; assumed: string[] } {
  const site = { ...DEFAULT_SITE };
  const assumed: string[] = [];
  for (const key of Object.keys(DEFAULT_SITE) as (keyof ResolvedSite)[]) {
    const value = answers[key] ?? perceived[key];
    if (value !== undefined) (site as Record<string, unknown>)[key] = value;
    else if (key === 'targets') assumed.push(`${TARGET_LABELS[site.targets].toLowerCase()} within falling distance`);
    else if (key === 'access') assumed.push(`${ACCESS_LABELS[site.access].toLowerCase()} access`);
    else if (key === 'dragDistance') assumed.push(`brush drag of ${DRAG_LABELS[site.dragDistance].toLowerCase()}`);
    else if (key === 'wasteRemoval') assumed.push('wood and waste taken away');
    else if (key === 'stumpGrinding') assumed.push('no stump grinding');
    else if (key === 'powerLines') assumed.push('no power lines near');
  }
  return { site, assumed };
}

function scale(range: TimeRange, factor: number): TimeRange {
  const round5 = (v: number) => Math.max(5, Math.round(v / 5) * 5);
  return { min: round5(range.min * factor), max: Math.max(round5(range.min * factor), round5(range.max * factor)) };
}

export function buildEstimate(input: EstimateInput): Estimate {
  const { values, perception, calibration } = input;
  const { species } = values;
  const factors: string[] = [...values.factors];

  let usedDbhIn = values.dbhIn;
  let usedHeightFt = values.heightFt;
  if (usedDbhIn === null && usedHeightFt === null) throw new Error('buildEstimate needs a size: abstain first (abstain.ts)');
  const sizesAssumed = usedDbhIn === null || usedHeightFt === null;
  if (usedHeightFt === null) {
    usedHeightFt = heightFromDbh(usedDbhIn!);
    factors.push(`Height not given: assumed about ${usedHeightFt} ft from the trunk size`);
  } else if (usedDbhIn === null) {
    usedDbhIn = dbhFromHeight(usedHeightFt);
    factors.push(`Trunk size not given: assumed about ${usedDbhIn} in from the height`);
  }
  if (!species.name) factors.push('Species not identified: assumed dense hardwood');
  else if (species.species?.generic) factors.push(`Species not identified: assumed a typical ${species.kind === 'conifer' ? 'conifer' : 'broadleaf'}`);
  else if (!species.species) factors.push(`${species.name} is not in our species list: assumed dense hardwood`);

  const { site, assumed } = resolveSite(input.answers, { ...input.described, ...perception.site });
  if (assumed.length > 0) factors.push(`${SITE_ASSUMED_PREFIX}${assumed.join(', ')}`);

  const model = estimateTimes({
    dbhIn: usedDbhIn!,
    heightFt: usedHeightFt,
    crownSpreadFt: values.crownSpreadFt ?? undefined,
    greenDensityKgM3: species.greenDensityKgM3,
    kind: species.kind,
    site,
  });
  factors.push(...model.factors);

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
    usedDbhIn: usedDbhIn!,
    usedHeightFt,
    times,
    baseTimes,
    calibration: applied,
    sources: values.sources,
    factors: [...factors, ...perception.factors],
    greenMassKg: model.greenMassKg,
  };
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
