import { formatTonnes } from './format';
import { convertLength, IN_PER_FT } from './units';
import type { Access, DragDistance, SiteDetails, Targets } from './site';

/**
 * The time model (docs/analysis.md, The time model): a pure function from tree size, wood density,
 * method and the site questions to the cutting, prep and cleanup time ranges, in crew
 * minutes on site. The local provider uses it directly; a vision model's answer is
 * bounded by it (see boundToModel).
 *
 * Every constant is grounded in a published source, cited beside it, or marked as an
 * assumption that the reference points in time-model.test.ts check against UK price
 * guides. It is monotone: a bigger, denser tree, harder access, longer drag or more
 * valuable targets never gives a shorter time.
 */

export type Method = 'straight_fell' | 'section_fell' | 'climb_dismantle';

export const METHOD_LABELS: Record<Method, string> = {
  straight_fell: 'straight fell',
  section_fell: 'section fell',
  climb_dismantle: 'climb and dismantle',
};

export interface TimeRange {
  min: number;
  max: number;
}

export interface TimeModelInput {
  dbhIn: number;
  heightFt: number;
  /** Crown diameter; when unknown, taken from height (see CROWN_SPREAD_RATIO). */
  crownSpreadFt?: number;
  greenDensityKgM3: number;
  kind?: 'broadleaf' | 'conifer';
  site: Required<Pick<SiteDetails, 'targets' | 'powerLines' | 'access' | 'dragDistance' | 'stumpGrinding' | 'wasteRemoval'>>;
}

export interface TimeEstimate {
  method: Method;
  cutting: TimeRange;
  prep: TimeRange;
  cleanup: TimeRange;
  greenMassKg: number;
  /** Why the times are what they are, in the product's words. */
  factors: string[];
}

// ---- Felling, limbing and bucking: US Forest Service FRCS equations -------------------

/**
 * Felling cut only, minutes per tree, DBH in inches (Peterson 1987, as used in the
 * USFS Fuel Reduction Cost Simulator, FRCS, "Fell large log trees" IB).
 * The two branches meet at 10 in; max() keeps the join monotone.
 */
export function fellingCutMinutes(dbhIn: number): number {
  const small = 0.33 + 0.012 * dbhIn;
  return dbhIn < 10 ? small : Math.max(0.33 + 0.012 * 10, 0.1 + 0.0111 * dbhIn ** 1.496);
}

/**
 * Fell, limb and buck, minutes per tree (Kellogg, Miller and Olsen 1999, Skyline
 * thinning production and costs, OSU Forest Research Lab RC 21; FRCS IIB), on flat
 * ground: -0.465 + 0.102 DBH + 0.016 limbs + 0.562 logs + the study's constant terms,
 * times 1.25 for delays (the study's 25 %). Limbs = 31.5 (FRCS default).
 */
export function fellLimbBuckMinutes(dbhIn: number, pieces: number): number {
  const LIMBS = 31.5;
  const constantTerms = 0.734 * 0.02 + 0.137 * 0.21 + 0.449 + 0.426;
  return (-0.465 + 0.102 * dbhIn + 0.016 * LIMBS + 0.562 * pieces + constantTerms) * 1.25;
}

/**
 * In a garden the stem is cut into rounds one person can lift (about 45 cm), not 8 m
 * forest logs; each round is one bucking cut of the FRCS "logs" term. Assumption.
 */
const ROUND_LENGTH_FT = 1.5;
/** Share of height that is clear stem below the crown for an open-grown tree. Assumption. */
const STEM_SHARE_OF_HEIGHT = 0.5;

// ---- Size to mass: mensuration -----------------------------------------------------------

/**
 * Stem volume = form factor x basal area x height. Form factor 0.45 for broadleaves,
 * 0.4 for conifers (Forestry Commission, Forest Mensuration handbook, Matthews and
 * Mackie 2006, typical artificial form factors).
 */
const FORM_FACTOR = { broadleaf: 0.45, conifer: 0.4 } as const;
/**
 * Whole tree above ground = stem x biomass expansion factor: 1.4 temperate broadleaf,
 * 1.3 conifer (IPCC 2003 Good Practice Guidance for LULUCF, table 3A.1.10, BEF2).
 */
const BIOMASS_EXPANSION = { broadleaf: 1.4, conifer: 1.3 } as const;
/** Open-grown crown diameter as a share of height when not given. Assumption (UK park trees are 0.5 to 1.0). */
const CROWN_SPREAD_RATIO = { broadleaf: 0.6, conifer: 0.35 } as const;

const FT3_PER_M3 = convertLength(1, 'm', 'ft') ** 3;

export function greenMassKg(input: Pick<TimeModelInput, 'dbhIn' | 'heightFt' | 'greenDensityKgM3' | 'kind'>): number {
  const kind = input.kind ?? 'broadleaf';
  const basalAreaFt2 = (Math.PI / 4) * (input.dbhIn / IN_PER_FT) ** 2;
  const stemFt3 = FORM_FACTOR[kind] * basalAreaFt2 * input.heightFt;
  return ((stemFt3 * BIOMASS_EXPANSION[kind]) / FT3_PER_M3) * input.greenDensityKgM3;
}

// ---- Method ---------------------------------------------------------------------------------

/** Targets ordered by what a falling piece would cost; the model never gets cheaper along it. */
const TARGET_SEVERITY: Record<Targets, number> = { nothing: 0, fence_shed: 1, road: 2, building: 3 };

/**
 * Straight fell when nothing is within falling distance; otherwise pieces come down in
 * sections, dropped while the tree is low enough (25 ft near a building, road or power
 * line; 40 ft over a fence or shed) and rigged down (climb and dismantle) above that.
 * The heights follow common UK practice (BS 3998:2010 section 7 leaves the method to
 * the risk assessment); they are assumptions.
 */
export function chooseMethod(heightFt: number, targets: Targets, powerLines: boolean): Method {
  const severity = TARGET_SEVERITY[targets];
  if (powerLines || severity >= 2) return heightFt > 25 ? 'climb_dismantle' : 'section_fell';
  if (severity === 1) return heightFt > 40 ? 'climb_dismantle' : 'section_fell';
  return 'straight_fell';
}

// ---- Dismantling ------------------------------------------------------------------------------

/** Climbing and repositioning rate, feet of height a minute. Assumption. */
const CLIMB_FT_PER_MIN = 4;
/** Crown envelope volume removed per piece. Assumption. */
const CROWN_FT3_PER_PIECE = 300;
/** Stem section length when dismantled. Assumption: a section a groundsman can handle. */
const STEM_SECTION_FT = 6;
/** Minutes per piece: cut and drop; cut, tie, lower and untie (rigged). Assumptions. */
const PIECE_MINUTES: Record<Exclude<Method, 'straight_fell'>, number> = { section_fell: 1.5, climb_dismantle: 4 };

/** Cutting a crown piece down to chipper size on the ground, whatever the method. Assumption. */
const GROUND_PROCESSING_MINUTES_PER_PIECE = 0.75;

function crownPieces(heightFt: number, crownSpreadFt: number): number {
  const crownDepthFt = heightFt * (1 - STEM_SHARE_OF_HEIGHT);
  const crownFt3 = (Math.PI / 6) * crownSpreadFt ** 2 * crownDepthFt;
  return Math.ceil(crownFt3 / CROWN_FT3_PER_PIECE);
}

function dismantleMinutes(method: Method, dbhIn: number, heightFt: number, crownSpreadFt: number): number {
  if (method === 'straight_fell') return 0;
  const pieces = crownPieces(heightFt, crownSpreadFt);
  const stemSections = Math.ceil((heightFt * STEM_SHARE_OF_HEIGHT) / STEM_SECTION_FT);
  const perPiece = PIECE_MINUTES[method];
  // A stem section is a felling cut at that diameter (Peterson 1987) plus its handling.
  const stemMinutes = stemSections * (perPiece + fellingCutMinutes(dbhIn));
  return heightFt / CLIMB_FT_PER_MIN + pieces * perPiece + stemMinutes;
}

// ---- Prep ------------------------------------------------------------------------------------

/** Per-tree set-up measured in urban tree-work studies: about 12 minutes. */
const SETUP_MINUTES = 12;
/** Drop zone and exclusion zone; rigging and anchor for a dismantle. Assumptions. */
const METHOD_PREP_MINUTES: Record<Method, number> = { straight_fell: 10, section_fell: 15, climb_dismantle: 30 };
/** Protecting what is in reach: fence panels, signs and cones (Chapter 8), glazing and roofs. Assumptions. */
const TARGET_PREP_MINUTES: Record<Targets, number> = { nothing: 0, fence_shed: 10, road: 20, building: 25 };
/** Carrying kit in by hand; sheeting floors through a house. Assumptions. */
const ACCESS_PREP_MINUTES: Record<Access, number> = { open: 0, side_gate: 15, through_house: 40 };
/** Liaison with the network operator and insulated-work checks near overhead lines. Assumption. */
const POWER_LINE_PREP_MINUTES = 30;

// ---- Cleanup --------------------------------------------------------------------------------

/** An arborist chipper clears about 1 to 4 green tonnes an hour; we use 1.5 (slow) to 3 (fast). */
const CHIPPER_TONNES_PER_HOUR = { slow: 1.5, fast: 3 } as const;
/** Carrying brush by hand is slower through a gate or a house, and over distance. Assumptions. */
const ACCESS_HANDLING_FACTOR: Record<Access, number> = { open: 1, side_gate: 1.25, through_house: 1.6 };
const DRAG_HANDLING_FACTOR: Record<DragDistance, number> = { short: 1, medium: 1.2, long: 1.45 };
/** Raking, blowing and a last walk-round. Assumption. */
const TIDY_MINUTES = 20;
/** Loading rounds onto the truck (waste removal) or stacking them on site. Assumptions. */
const WOOD_LOADING_TONNES_PER_HOUR = { remove: 2.5, stack: 5 } as const;
/**
 * Stump grinding: 15 min to set up plus 1.5 min per inch of stump (stump about 1.2 x
 * DBH). Assumption, checked against UK guides that put one stump at 30 min to 3 h.
 */
function stumpMinutes(dbhIn: number): number {
  return 15 + 1.5 * dbhIn * 1.2;
}

// ---- The model --------------------------------------------------------------------------------

/** Cutting and prep ranges around the central figure. Assumption: crews vary about this much. */
const SPREAD = { cutting: [0.85, 1.3], prep: [1, 1.5] } as const;

function roundUp5(minutes: number): number {
  return Math.max(5, Math.ceil(minutes / 5) * 5);
}

function range(central: number, [low, high]: readonly [number, number]): TimeRange {
  return { min: roundUp5(central * low), max: roundUp5(central * high) };
}

export function estimateTimes(input: TimeModelInput): TimeEstimate {
  const kind = input.kind ?? 'broadleaf';
  const dbhIn = Math.max(1, input.dbhIn);
  const heightFt = Math.max(3, input.heightFt);
  const { site } = input;
  const crownSpreadFt = input.crownSpreadFt ?? heightFt * CROWN_SPREAD_RATIO[kind];
  const method = chooseMethod(heightFt, site.targets, site.powerLines);

  const rounds = Math.max(1, Math.ceil((heightFt * STEM_SHARE_OF_HEIGHT) / ROUND_LENGTH_FT));
  const cuttingCentral =
    fellLimbBuckMinutes(dbhIn, rounds) +
    crownPieces(heightFt, crownSpreadFt) * GROUND_PROCESSING_MINUTES_PER_PIECE +
    dismantleMinutes(method, dbhIn, heightFt, crownSpreadFt);

  const prepCentral =
    SETUP_MINUTES +
    METHOD_PREP_MINUTES[method] +
    TARGET_PREP_MINUTES[site.targets] +
    ACCESS_PREP_MINUTES[site.access] +
    (site.powerLines ? POWER_LINE_PREP_MINUTES : 0);

  const massKg = greenMassKg({ dbhIn, heightFt, greenDensityKgM3: input.greenDensityKgM3, kind });
  const tonnes = massKg / 1000;
  const handling = ACCESS_HANDLING_FACTOR[site.access] * DRAG_HANDLING_FACTOR[site.dragDistance];
  const loadingRate = site.wasteRemoval ? WOOD_LOADING_TONNES_PER_HOUR.remove : WOOD_LOADING_TONNES_PER_HOUR.stack;
  const fixedCleanup = TIDY_MINUTES + (site.stumpGrinding ? stumpMinutes(dbhIn) : 0);
  const cleanupAt = (chipperRate: number) =>
    fixedCleanup + handling * ((tonnes / chipperRate) * 60 + (tonnes / loadingRate) * 60);

  const factors = [
    `Method: ${METHOD_LABELS[method]}${methodReason(method, site.targets, site.powerLines)}`,
    `About ${formatTonnes(tonnes)} of green wood and brush to clear`,
  ];
  if (site.access !== 'open') factors.push(`Access ${site.access === 'side_gate' ? 'through a side gate' : 'through the house'} slows set-up and clearing`);
  if (site.dragDistance !== 'short') factors.push(`Brush dragged ${site.dragDistance === 'long' ? 'over 30 m' : '10 to 30 m'} to the chipper`);
  if (site.stumpGrinding) factors.push('Stump grinding included in cleanup');
  factors.push(site.wasteRemoval ? 'Wood and chippings taken away' : 'Wood left on site in rounds');

  return {
    method,
    cutting: range(cuttingCentral, SPREAD.cutting),
    prep: range(prepCentral, SPREAD.prep),
    cleanup: { min: roundUp5(cleanupAt(CHIPPER_TONNES_PER_HOUR.fast)), max: roundUp5(cleanupAt(CHIPPER_TONNES_PER_HOUR.slow)) },
    greenMassKg: Math.round(massKg),
    factors,
  };
}

function methodReason(method: Method, targets: Targets, powerLines: boolean): string {
  if (method === 'straight_fell') return ' (clear falling zone)';
  const what = powerLines ? 'power lines' : { nothing: 'nothing', fence_shed: 'a fence or shed', road: 'a road or footpath', building: 'a building' }[targets];
  return method === 'section_fell' ? ` (small enough to drop in pieces clear of ${what})` : ` (pieces lowered on ropes to protect ${what})`;
}

// ---- Bounding a model's answer ----------------------------------------------------------------

/** A model's times may differ from ours by at most this much either way (docs/analysis.md, The pipeline). */
export const MODEL_BOUND = { low: 0.25, high: 4 } as const;

export interface BoundResult {
  range: TimeRange;
  adjusted: boolean;
}

/** Pulls a model's range back into 0.25x..4x of the time model's, keeping min <= max. */
export function boundToModel(model: TimeRange, reference: TimeRange): BoundResult {
  const lo = Math.max(1, Math.floor(reference.min * MODEL_BOUND.low));
  const hi = Math.ceil(reference.max * MODEL_BOUND.high);
  const min = Math.min(Math.max(model.min, lo), hi);
  const max = Math.min(Math.max(model.max, min, lo), hi);
  return { range: { min, max }, adjusted: min !== model.min || max !== model.max };
}
