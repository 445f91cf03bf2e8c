/**
 * The units a user reads sizes in: metric (metres and centimetres) or imperial (feet and
 * inches). Remembered per account and per business; metric by default, as UK tree surgeons and
 * homeowners measure. The API and the database keep whole feet and inches for the estimate
 * whatever the choice, and beside them each size as it was given (typed or written in the
 * project details: core/tree-details.ts enteredSizesSchema), which is what is printed.
 *
 * Zod-free and small: the embedded estimator imports it in its first chunk.
 */
export const UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];
export const DEFAULT_UNIT_SYSTEM: UnitSystem = 'metric';

/** The exact definitions of the international inch and foot (1959). */
export const CM_PER_IN = 2.54;
export const M_PER_FT = 0.3048;
export const IN_PER_FT = 12;

/** Every length unit the product reads: typed sizes, the project details' words, photo measures. */
export type LengthUnit = 'mm' | 'cm' | 'm' | 'in' | 'ft';

/** Inches in one of each unit, from the definitions above (exact for feet, so 2 ft is 24 in). */
const INCHES_IN: Record<LengthUnit, number> = {
  mm: 1 / (10 * CM_PER_IN),
  cm: 1 / CM_PER_IN,
  m: 100 / CM_PER_IN,
  in: 1,
  ft: IN_PER_FT,
};

/**
 * A length in another unit, unrounded: the one conversion every reader of sizes uses (the
 * description parser, the user's tree details, the size checks). Rounding is for whoever stores
 * or shows the figure (core/normalise.ts wholeSize, heightText below).
 */
export function convertLength(value: number, from: LengthUnit, to: LengthUnit): number {
  return from === to ? value : (value * INCHES_IN[from]) / INCHES_IN[to];
}

export const UNIT_SYSTEM_LABELS: Record<UnitSystem, string> = {
  metric: 'Metric (m, cm)',
  imperial: 'Imperial (ft, in)',
};

/** Which unit each size is typed and shown in, per system. */
export const SIZE_UNITS = {
  metric: { height: 'm', diameter: 'cm' },
  imperial: { height: 'ft', diameter: 'in' },
} as const satisfies Record<UnitSystem, { height: string; diameter: string }>;

export type HeightUnit = 'ft' | 'm';
export type DiameterUnit = 'in' | 'cm';

/** A size as the user typed it, kept so it is shown back as typed (22 m, not 21.9 m from 72 ft). */
export interface EnteredSize<Unit extends string = HeightUnit | DiameterUnit> {
  value: number;
  unit: Unit;
}

/** The typed sizes of an analysis; null for a size that was not typed. */
export interface EnteredSizes {
  height: EnteredSize<HeightUnit> | null;
  diameter: EnteredSize<DiameterUnit> | null;
}

export function systemOfUnit(unit: HeightUnit | DiameterUnit): UnitSystem {
  return unit === 'm' || unit === 'cm' ? 'metric' : 'imperial';
}

/**
 * The units an analysis is shown in: those its sizes were typed in when they agree, else the
 * account's (or business's) preference.
 */
export function unitsOfAnalysis(entered: EnteredSizes | null, preferred: UnitSystem): UnitSystem {
  const typed = [entered?.height?.unit, entered?.diameter?.unit].filter((u) => u !== undefined).map(systemOfUnit);
  return typed.length > 0 && typed.every((s) => s === typed[0]) ? typed[0]! : preferred;
}

/** Up to one decimal, with thousands separators: 22, 12.5, 1,200. */
function number1(value: number): string {
  return (Math.round(value * 10) / 10).toLocaleString('en-GB', { maximumFractionDigits: 1 });
}

/**
 * Metres from whole feet, to the nearest half metre: a whole foot is 0.3 m, so finer would
 * claim a precision the stored figure does not have, and any height typed in whole or half
 * metres comes back as typed (22 m -> 72 ft -> 22 m; the rounding error is at most 0.15 m).
 */
export function metresFromFeet(feet: number): number {
  return Math.round(convertLength(feet, 'ft', 'm') * 2) / 2;
}

/** Whole centimetres from inches. */
export function centimetresFromInches(inches: number): number {
  return Math.round(convertLength(inches, 'in', 'cm'));
}

function pair(first: string, second: string): string {
  return `${first} (${second})`;
}

/** A size as typed: "55 cm", "40.5 ft" (the typed figure itself, to one decimal as the forms take it). */
export function sizeAsTyped(size: EnteredSize): string {
  return `${number1(size.value)} ${size.unit}`;
}

/**
 * A height for the screen and the quote: "22 m (72 ft)" in metric, "72 ft (22 m)" in imperial,
 * the other unit in brackets. A typed height is shown first as it was typed, whatever the system.
 * `entered` is required (null when nothing was typed): every reader of a stored size passes the
 * size as typed, so none can print 55 cm back as the 22 in it was stored as (55.9 cm).
 */
export function heightText(feet: number, units: UnitSystem, entered: EnteredSize<HeightUnit> | null | undefined): string {
  const ft = `${number1(feet)} ft`;
  const m = `${number1(metresFromFeet(feet))} m`;
  if (entered?.unit === 'm') return pair(sizeAsTyped(entered), ft);
  if (entered?.unit === 'ft') return pair(sizeAsTyped(entered), m);
  return units === 'metric' ? pair(m, ft) : pair(ft, m);
}

/** A trunk diameter: "90 cm (35 in)" in metric, "35 in (89 cm)" in imperial; a typed one as typed (entered: as heightText). */
export function diameterText(inches: number, units: UnitSystem, entered: EnteredSize<DiameterUnit> | null | undefined): string {
  const inch = `${number1(inches)} in`;
  const cm = `${number1(centimetresFromInches(inches))} cm`;
  if (entered?.unit === 'cm') return pair(sizeAsTyped(entered), inch);
  if (entered?.unit === 'in') return pair(sizeAsTyped(entered), cm);
  return units === 'metric' ? pair(cm, inch) : pair(inch, cm);
}
