import { ACCESS_LABELS, DRAG_LABELS, TARGET_LABELS, type SiteDetails } from '../../core/site';
import { describeWoodDensity, matchSpecies, UNKNOWN_SPECIES_GREEN_DENSITY_KG_M3 } from '../../core/species';
import { boundToModel, estimateTimes, type Method, type TimeModelInput, type TimeRange } from '../../core/time-model';
import type { Perception } from './types';

/**
 * From what was perceived and answered to the three time ranges: fill what is unknown
 * with conservative assumptions (and say so), run the time model, bound a model's own
 * times to it, then apply the crew's calibration.
 */
export type ResolvedSite = TimeModelInput['site'];
type Component = 'cutting' | 'prep' | 'cleanup';
export type ComponentFactors = Record<Component, number>;

export interface Calibration {
  jobs: number;
  factors: ComponentFactors;
}

export interface Estimate {
  species: string | null;
  /** Null when not stated or seen: the report shows N/A and a factor says what was assumed. */
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
  factors: string[];
}

/**
 * Conservative defaults (DECISIONS): an unmeasured tree is taken as a 20 in, 45 ft
 * broadleaf, and an unanswered site as a typical back garden: a fence or shed in reach,
 * side-gate access and a 10-30 m drag. They err toward more time, never less.
 */
export const ASSUMED_DBH_IN = 20;
export const ASSUMED_HEIGHT_FT = 45;
const DEFAULT_SITE: ResolvedSite = {
  targets: 'fence_shed',
  powerLines: false,
  access: 'side_gate',
  dragDistance: 'medium',
  stumpGrinding: false,
  wasteRemoval: true,
};
/** Assumed sizes widen the upper end of the range by half. Assumption. */
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

export function buildEstimate(perception: Perception, answers: SiteDetails, calibration: Calibration | null): Estimate {
  const known = matchSpecies(perception.species) ?? undefined;
  const species = known?.name ?? perception.species;
  const density = known?.greenDensityKgM3 ?? UNKNOWN_SPECIES_GREEN_DENSITY_KG_M3;
  const factors: string[] = [];

  let usedDbhIn = perception.dbhIn ?? undefined;
  let usedHeightFt = perception.heightFt ?? undefined;
  const sizesAssumed = usedDbhIn === undefined || usedHeightFt === undefined;
  if (usedDbhIn === undefined && usedHeightFt === undefined) {
    usedDbhIn = ASSUMED_DBH_IN;
    usedHeightFt = ASSUMED_HEIGHT_FT;
    factors.push(`No measurements given: assumed a ${ASSUMED_DBH_IN} in trunk and ${ASSUMED_HEIGHT_FT} ft height (conservative); add them for a tighter estimate`);
  } else if (usedHeightFt === undefined) {
    usedHeightFt = heightFromDbh(usedDbhIn!);
    factors.push(`Height not given: assumed about ${usedHeightFt} ft from the trunk size`);
  } else if (usedDbhIn === undefined) {
    usedDbhIn = dbhFromHeight(usedHeightFt);
    factors.push(`Trunk size not given: assumed about ${usedDbhIn} in from the height`);
  }
  if (!species) factors.push('Species not identified: assumed dense hardwood');

  const { site, assumed } = resolveSite(answers, perception.site);
  if (assumed.length > 0) factors.push(`Not answered, assumed: ${assumed.join(', ')}`);

  const model = estimateTimes({
    dbhIn: usedDbhIn!,
    heightFt: usedHeightFt!,
    crownSpreadFt: perception.crownSpreadFt ?? undefined,
    greenDensityKgM3: density,
    kind: known?.kind,
    site,
  });
  factors.push(...model.factors);

  const times = {} as Record<Component, TimeRange>;
  for (const part of ['cutting', 'prep', 'cleanup'] as const) {
    let range = model[part];
    const proposed = perception.times?.[part];
    if (proposed) {
      const bounded = boundToModel(proposed, model[part]);
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
  if (calibration) {
    for (const part of ['cutting', 'prep', 'cleanup'] as const) times[part] = scale(times[part], calibration.factors[part]);
  }

  return {
    species,
    dbhIn: perception.dbhIn,
    heightFt: perception.heightFt,
    woodDensity: describeWoodDensity(density) + (known ? '' : ', assumed'),
    method: model.method,
    site,
    usedDbhIn: usedDbhIn!,
    usedHeightFt: usedHeightFt!,
    times,
    baseTimes,
    factors: [...factors, ...perception.factors],
  };
}
