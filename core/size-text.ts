import { convertLength, type DiameterUnit, type HeightUnit, type LengthUnit } from './units';

/**
 * A size as a person types it into a size field (docs/analysis.md, Tree details, sizes and
 * species): a number, or a number with its unit ("14 m", "55cm", "40 ft", "16 in", 16", 40',
 * 5 ft 6 in, 5'6"). Pure and zod-free; the dashboard's height and trunk fields read their text
 * with it, and anything else is refused rather than guessed at.
 */

/** Longer than any size anyone types; longer text is refused before any pattern runs. */
export const MAX_SIZE_TEXT = 32;

export type SizeKind = 'height' | 'diameter';

/** What a size field's text says: nothing, a number (with the unit typed, if any), or not a size. */
export type SizeText = { kind: 'empty' } | { kind: 'size'; value: number; unit: LengthUnit | null } | { kind: 'invalid' };

/** Each unit's spellings, lower case; the quote marks are the foot and inch signs. */
const UNIT_WORDS: Record<LengthUnit, readonly string[]> = {
  mm: ['mm', 'millimetre', 'millimetres', 'millimeter', 'millimeters'],
  cm: ['cm', 'cms', 'centimetre', 'centimetres', 'centimeter', 'centimeters'],
  m: ['m', 'metre', 'metres', 'meter', 'meters', 'mtr', 'mtrs'],
  in: ['in', 'ins', 'inch', 'inches', '"', "''"],
  ft: ['ft', 'feet', 'foot', "'"],
};

const UNIT_OF = new Map<string, LengthUnit>(
  (Object.entries(UNIT_WORDS) as [LengthUnit, readonly string[]][]).flatMap(([unit, words]) => words.map((word) => [word, unit] as const)),
);

/** Up to 5 digits and 3 decimals, a comma as the decimal point too (12,5): never an exponent, sign or hex. */
const NUMBER = String.raw`(\d{1,5}(?:[.,]\d{0,3})?|[.,]\d{1,3})`;
const UNIT = String.raw`([a-z]+|"|''|')`;
const ONE = new RegExp(String.raw`^${NUMBER}\s*${UNIT}?\.?$`);
/** Feet and inches: 5 ft 6 in, 5'6", 5 feet 6. */
const FEET_INCHES = new RegExp(String.raw`^${NUMBER}\s*(?:ft|feet|foot|')\s*${NUMBER}\s*(?:in|ins|inch|inches|"|'')?\.?$`);

function number(text: string): number {
  return Number(text.replace(',', '.'));
}

/** Curly quotes and primes as the keyboard's ' and ", lower case, single spaces. */
function normalised(text: string): string {
  return text
    .replace(/[\u2018\u2019\u2032]/g, "'")
    .replace(/[\u201C\u201D\u2033]/g, '"')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

export function parseSizeText(text: string): SizeText {
  if (text.length > MAX_SIZE_TEXT * 4) return { kind: 'invalid' };
  const clean = normalised(text);
  if (clean === '') return { kind: 'empty' };
  if (clean.length > MAX_SIZE_TEXT) return { kind: 'invalid' };
  const feetInches = FEET_INCHES.exec(clean);
  if (feetInches) {
    const feet = number(feetInches[1]!);
    const inches = number(feetInches[2]!);
    if (!Number.isFinite(feet) || !Number.isFinite(inches) || inches >= 12) return { kind: 'invalid' };
    return { kind: 'size', value: feet + inches / 12, unit: 'ft' };
  }
  const one = ONE.exec(clean);
  if (!one) return { kind: 'invalid' };
  const value = number(one[1]!);
  if (!Number.isFinite(value)) return { kind: 'invalid' };
  if (one[2] === undefined) return { kind: 'size', value, unit: null };
  const unit = UNIT_OF.get(one[2]);
  return unit ? { kind: 'size', value, unit } : { kind: 'invalid' };
}

type FieldUnit<K extends SizeKind> = K extends 'height' ? HeightUnit : DiameterUnit;

const FIELD_UNITS: { height: readonly HeightUnit[]; diameter: readonly DiameterUnit[] } = { height: ['m', 'ft'], diameter: ['cm', 'in'] };

/** Rounded to at most 1 decimal, as a converted size is shown and sent. */
function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/**
 * A size field's text in one of that field's units. No unit typed: the field's unit as
 * switched. One of the field's own units (m or ft for a height; cm or in for a trunk): that
 * unit, the number as typed. Any other length (1.2 m for a trunk, 1400 cm or 40000 mm for a
 * height): converted into the unit switched, to one decimal. Null for text that is not a size.
 * Whether the size is inside the bounds is the field's own check (core/size-bounds.ts).
 */
export function sizeInFieldUnits<K extends SizeKind>(
  text: string,
  kind: K,
  fieldUnit: FieldUnit<K>,
): { value: number; unit: FieldUnit<K>; typedUnit: LengthUnit | null } | null | undefined {
  const parsed = parseSizeText(text);
  if (parsed.kind === 'empty') return undefined;
  if (parsed.kind === 'invalid') return null;
  const { value, unit } = parsed;
  if (unit === null) return { value, unit: fieldUnit, typedUnit: null };
  const own = (FIELD_UNITS[kind] as readonly string[]).includes(unit);
  // Feet and inches make a fraction of a foot: 5'7" is 5.583 ft.
  if (own) return { value: Math.round(value * 1000) / 1000, unit: unit as FieldUnit<K>, typedUnit: unit };
  return { value: round1(convertLength(value, unit, fieldUnit)), unit: fieldUnit, typedUnit: unit };
}

/** The message under a size field whose text is not a size. */
export function sizeTextProblem(kind: SizeKind): string {
  return kind === 'height' ? 'Enter a height like 12 m or 40 ft.' : 'Enter a trunk diameter like 55 cm or 22 in.';
}
