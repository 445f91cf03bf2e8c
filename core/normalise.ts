import { measureFromPhoto, type PhotoMeasurement } from './photo-measure';
import { MAX_TYPED_SIZE, SIZE_LIMITS, type SizeField } from './size-bounds';
import { matchSpecies, UNKNOWN_SPECIES_GREEN_DENSITY_KG_M3, type Species, type TreeKind } from './species';
import { DIAMETER_BANDS, HEIGHT_BANDS, type TreeDetails, type ValueSource } from './tree-details';
import { convertLength, type EnteredSize, type EnteredSizes, type UnitSystem } from './units';

/**
 * Every number and name an outside party gives us passes through here once, before anything
 * stores or shows it (CONVENTIONS 12): a vision model's answer, a local reading of the
 * customer's words, the user's tree details, and rows stored before these rules existed.
 * Sizes become whole inches and feet inside what a tree can be; species names go through the
 * one matcher. Anything unbelievable becomes null with a reason, never a stored absurdity.
 */

/** Crew minutes a model may claim for one component: at least one, at most about a week of days. */
export const MINUTE_LIMITS = { min: 1, max: 10_000 } as const;

/** A number as services send them: a number, or numeric text ("14.5", " 30 "). Anything else is null. */
export function readNumber(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw)) return Number(raw);
  return null;
}

/** One size in whole units (14.5 in -> 15), or null when missing or outside SIZE_LIMITS. */
export function wholeSize(field: SizeField, raw: unknown): number | null {
  const value = readNumber(raw);
  const { min, max } = SIZE_LIMITS[field];
  if (value === null || value < min || value > max) return null;
  return Math.round(value);
}

export interface SizeReading {
  dbhIn: number | null;
  heightFt: number | null;
  crownSpreadFt: number | null;
}

/**
 * A reading of the tree's sizes (a model's, or the description's) made whole and bounded.
 * `who` names the reader in the factor that says what was ignored ("The AI model").
 */
export function normaliseSizes(
  raw: { dbhIn?: unknown; heightFt?: unknown; crownSpreadFt?: unknown },
  who: string,
): { sizes: SizeReading; factors: string[] } {
  const factors: string[] = [];
  const sizes = {} as SizeReading;
  for (const field of Object.keys(SIZE_LIMITS) as SizeField[]) {
    const given = raw[field];
    const value = wholeSize(field, given);
    sizes[field] = value;
    if (value === null && given !== null && given !== undefined) {
      const { label, unit, min, max } = SIZE_LIMITS[field];
      const shown = readNumber(given) ?? JSON.stringify(given).slice(0, 20);
      factors.push(`${who} gave a ${label} of ${shown} ${unit}, outside ${min}-${max} ${unit}; it was ignored`);
    }
  }
  return { sizes, factors };
}

/** Whole minutes within MINUTE_LIMITS, min <= max; null when either end is not a number. */
export function normaliseMinutes(rawMin: unknown, rawMax: unknown): { min: number; max: number } | null {
  const a = readNumber(rawMin);
  const b = readNumber(rawMax);
  if (a === null || b === null) return null;
  const bound = (v: number) => Math.round(Math.min(MINUTE_LIMITS.max, Math.max(MINUTE_LIMITS.min, v)));
  const [min, max] = [bound(a), bound(b)].sort((x, y) => x - y) as [number, number];
  return { min, max };
}

/** 0..1. Models sometimes answer a percentage (70 for 0.7); anything unreadable is 0. */
export function normaliseConfidence(raw: unknown): number {
  const value = readNumber(raw);
  if (value === null || value <= 0) return 0;
  const share = value > 1 && value <= 100 ? value / 100 : value;
  return Math.min(1, Math.round(share * 100) / 100);
}

// ---- Species ----------------------------------------------------------------------------------

export interface NormalisedSpecies {
  /** The listed name when matched, else the text as given (cleaned); null when none was given. */
  name: string | null;
  species: Species | null;
  kind: TreeKind;
  greenDensityKgM3: number;
  /** True unless a listed species (not just a kind) was matched: the results say "assumed". */
  densityAssumed: boolean;
}

/** Words that mean "no idea" rather than a name. */
const NO_NAME = /^(unknown|unsure|not sure|n\/?a|none|null|unidentified|tree|a tree|-+|\?+)$/i;
const MAX_NAME_CHARS = 80;

/** A species name from anyone, matched ("English oak" -> Oak, 1,050 kg/m3) or kept as text with density assumed. */
export function normaliseSpecies(raw: unknown): NormalisedSpecies {
  const text = typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_CHARS).trim() : '';
  const species = text && !NO_NAME.test(text) ? matchSpecies(text) : null;
  if (species) {
    return { name: species.name, species, kind: species.kind, greenDensityKgM3: species.greenDensityKgM3, densityAssumed: Boolean(species.generic) };
  }
  return {
    name: text && !NO_NAME.test(text) ? text : null,
    species: null,
    kind: 'broadleaf',
    greenDensityKgM3: UNKNOWN_SPECIES_GREEN_DENSITY_KG_M3,
    densityAssumed: true,
  };
}

// ---- The user's tree details --------------------------------------------------------------------

export interface SizeFromUser {
  value: number;
  source: Extract<ValueSource, 'user' | 'measured' | 'band'>;
  /** A typed size as typed (22 m), shown back so rather than from the whole feet or inches. */
  entered?: EnteredSize;
  /** A size measured on the photo, in metres as measured (before whole feet or inches). */
  measuredM?: number;
}

export interface UserTreeSizes {
  species: NormalisedSpecies | null;
  heightFt: SizeFromUser | null;
  dbhIn: SizeFromUser | null;
  /** The sizes the taps give, whole, for the record (they may be overridden by typed values). */
  measured: { heightFt: number | null; dbhIn: number | null } | null;
  /** The user said "Not sure" for the height, the trunk or both (core/tree-details.ts heightUnknown). */
  notSure?: { height: boolean; diameter: boolean };
}

/**
 * The sizes as the user gave them, where the estimate used them: typed in the form (source
 * 'user') or written in the project details ('description', `written`: "55 cm trunk"). Stored
 * so every screen and document shows 22 m and 55 cm back rather than figures worked back from
 * whole feet and inches (55 cm is stored as 22 in, which is 55.9 cm). Null when none was used.
 */
export function enteredSizesOf(
  sizes: UserTreeSizes | null,
  used: { height: ValueSource; diameter: ValueSource },
  written?: EnteredSizes,
  units: UnitSystem = 'imperial',
): EnteredSizes | null {
  const pick = <K extends 'height' | 'diameter'>(source: ValueSource, size: SizeFromUser | null | undefined, fromWords: EnteredSizes[K] | undefined, measured: (metres: number) => EnteredSize) => {
    if (source === 'user') return size?.entered ?? null;
    if (source === 'description') return fromWords ?? null;
    // Measured on the photo, as the measuring tool showed it in metric (core/measure-draft.ts):
    // 12.5 m, 50 cm. In imperial it showed whole feet and inches, which the estimate keeps anyway.
    if (source === 'measured' && units === 'metric' && size?.measuredM !== undefined) {
      const shown = measured(size.measuredM);
      return shown.value <= MAX_TYPED_SIZE[shown.unit as 'm' | 'cm'] ? shown : null;
    }
    return null;
  };
  const height = pick<'height'>(used.height, sizes?.heightFt, written?.height, (m) => ({ value: round1(m), unit: 'm' }));
  const diameter = pick<'diameter'>(used.diameter, sizes?.dbhIn, written?.diameter, (m) => ({ value: m < 0.1 ? round1(m * 100) : Math.round(m * 100), unit: 'cm' }));
  if (!height && !diameter) return null;
  return {
    height: height && (height.unit === 'ft' || height.unit === 'm') ? { value: height.value, unit: height.unit } : null,
    diameter: diameter && (diameter.unit === 'in' || diameter.unit === 'cm') ? { value: diameter.value, unit: diameter.unit } : null,
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

function typedProblem(field: 'heightFt' | 'dbhIn', value: number, unit: string): string {
  const { label, min, max } = SIZE_LIMITS[field];
  const metric =
    field === 'heightFt' ? `${round1(convertLength(min, 'ft', 'm'))}-${MAX_TYPED_SIZE.m} m` : `${Math.round(convertLength(min, 'in', 'cm'))}-${MAX_TYPED_SIZE.cm} cm`;
  const imperial = field === 'heightFt' ? `${min}-${max} ft` : `${min}-${max} in`;
  return `A ${label} of ${value} ${unit} is not a tree we can quote for: give one between ${imperial} (${metric})`;
}

function pointsOutside(m: PhotoMeasurement): boolean {
  const points = [m.reference.top, m.reference.bottom, m.tree?.top, m.tree?.base, m.trunk?.left, m.trunk?.right];
  return points.some((p) => p !== undefined && (p.x > m.imageWidth || p.y > m.imageHeight));
}

/**
 * The user's tree details as whole feet and inches with where each came from: a typed value
 * (ft or m, in or cm) over the photo measurement, over a band's middle value. The measurement
 * is recomputed here from the taps; numbers a client worked out are never trusted. Returns
 * the problems in words when something given cannot be used (the route answers 400).
 */
export function readUserTreeDetails(details: TreeDetails): { ok: true; sizes: UserTreeSizes } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  let measured: UserTreeSizes['measured'] = null;
  let measuredM: { heightM: number | null; diameterM: number | null } | null = null;

  if (details.measurement) {
    const m = details.measurement;
    const result = pointsOutside(m) ? { problem: 'A tapped point lies outside the photo. Tap the points again.' } : measureFromPhoto(m);
    if ('problem' in result) {
      problems.push(result.problem);
    } else {
      const heightFt = result.heightM === null ? null : convertLength(result.heightM, 'm', 'ft');
      const dbhIn = result.diameterM === null ? null : convertLength(result.diameterM, 'm', 'in');
      measured = { heightFt: heightFt === null ? null : wholeSize('heightFt', heightFt), dbhIn: dbhIn === null ? null : wholeSize('dbhIn', dbhIn) };
      measuredM = result;
      if (heightFt !== null && measured.heightFt === null) {
        problems.push(`The measured height is ${round1(result.heightM!)} m, which is not a believable tree. Check the taps on the top and base of the tree and the reference length.`);
      }
      if (dbhIn !== null && measured.dbhIn === null) {
        problems.push(`The measured trunk is ${Math.round(result.diameterM! * 100)} cm across, which is not a believable trunk. Check the taps on its two edges and the reference length.`);
      }
    }
  }

  let heightFt: SizeFromUser | null = null;
  if (details.height && 'value' in details.height) {
    const { value, unit } = details.height;
    const feet = wholeSize('heightFt', convertLength(value, unit, 'ft'));
    if (feet === null) problems.push(typedProblem('heightFt', value, unit));
    else heightFt = { value: feet, source: 'user', entered: { value, unit } };
  } else if (measured?.heightFt) {
    heightFt = { value: measured.heightFt, source: 'measured', ...(measuredM?.heightM != null && { measuredM: measuredM.heightM }) };
  } else if (details.height && 'band' in details.height) {
    heightFt = { value: HEIGHT_BANDS[details.height.band].feet, source: 'band' };
  }

  let dbhIn: SizeFromUser | null = null;
  if (details.diameter && 'value' in details.diameter) {
    const { value, unit } = details.diameter;
    const inches = wholeSize('dbhIn', convertLength(value, unit, 'in'));
    if (inches === null) problems.push(typedProblem('dbhIn', value, unit));
    else dbhIn = { value: inches, source: 'user', entered: { value, unit } };
  } else if (measured?.dbhIn) {
    dbhIn = { value: measured.dbhIn, source: 'measured', ...(measuredM?.diameterM != null && { measuredM: measuredM.diameterM }) };
  } else if (details.diameter && 'band' in details.diameter) {
    dbhIn = { value: DIAMETER_BANDS[details.diameter.band].inches, source: 'band' };
  }

  if (problems.length > 0) return { ok: false, problems };
  const species = details.species ? normaliseSpecies(details.species) : null;
  const notSure = details.heightUnknown === true || details.diameterUnknown === true;
  return {
    ok: true,
    sizes: {
      species: species?.name ? species : null,
      heightFt,
      dbhIn,
      measured,
      ...(notSure && { notSure: { height: details.heightUnknown === true, diameter: details.diameterUnknown === true } }),
    },
  };
}

// ---- Rows stored before these rules -------------------------------------------------------------

/** A stored minute count made presentable: a whole number, never negative; 0 when missing. */
export function storedMinutes(raw: unknown): number {
  const value = readNumber(raw);
  return value === null ? 0 : Math.max(0, Math.round(value));
}
