import {
  treeDetailsSchema,
  type DiameterBand,
  type HeightBand,
  type TreeDetails,
} from '../../../core/tree-details';
import { MAX_TYPED_SIZE } from '../../../core/size-bounds';
import { EMPTY_MEASURE, formatNumber, photoMeasurementOf, type MeasureDraft } from '../../../core/measure-draft';
import { sizeInFieldUnits, sizeTextProblem } from '../../../core/size-text';
import { convertLength, DEFAULT_UNIT_SYSTEM, SIZE_UNITS, type DiameterUnit, type HeightUnit } from '../../../core/units';

/** Measuring on the photo lives in core (zod-free, shared with the estimator); re-exported for the dashboard. */
export {
  EMPTY_MEASURE,
  formatDiameter,
  formatHeight,
  formatNumber,
  MEASURE_LINE_ORDER,
  MEASURE_LINES,
  measuredSizes,
  measureForPhoto,
  parseDecimal,
  photoMeasurementOf,
  referenceOf,
  type LinePoints,
  type MeasuredResult,
  type MeasureDraft,
  type MeasureLine,
  type ReferenceKey,
} from '../../../core/measure-draft';

/**
 * The Tree details group of the upload stage as the user is filling it in: text as typed,
 * units and bands as chosen, taps on the photo. `treeDetailsFromDraft` turns it into the
 * contract's TreeDetails (only what was given), with a message for anything that cannot be sent.
 */
export type { DiameterUnit, HeightUnit } from '../../../core/units';

export interface SizeDraft<Unit extends string, Band extends string> {
  /** As typed; a typed number wins over a band (choosing one clears the other). */
  value: string;
  unit: Unit;
  band: Band | '';
}

export interface TreeDetailsDraft {
  /** A name from the species list; empty for "Not sure" or not given. */
  species: string;
  height: SizeDraft<HeightUnit, HeightBand>;
  diameter: SizeDraft<DiameterUnit, DiameterBand>;
  measure: MeasureDraft;
}

export const EMPTY_TREE_DETAILS: TreeDetailsDraft = {
  species: '',
  // Metric until the account's units arrive (size-units.ts withStartingUnits).
  height: { value: '', unit: SIZE_UNITS[DEFAULT_UNIT_SYSTEM].height, band: '' },
  diameter: { value: '', unit: SIZE_UNITS[DEFAULT_UNIT_SYSTEM].diameter, band: '' },
  measure: EMPTY_MEASURE,
};

function sizeProblem(kind: 'height' | 'diameter', value: number, unit: string): string | undefined {
  const parsed = treeDetailsSchema.shape[kind].safeParse({ value, unit });
  if (parsed.success) return undefined;
  const max = MAX_TYPED_SIZE[unit as keyof typeof MAX_TYPED_SIZE];
  return `Enter a ${kind === 'height' ? 'height' : 'trunk diameter'} above 0 and at most ${max} ${unit}.`;
}

function sizeInput<Unit extends string, Band extends string>(
  kind: 'height' | 'diameter',
  draft: SizeDraft<Unit, Band>,
): { input?: { value: number; unit: Unit } | { band: Band }; problem?: string } {
  if (draft.value.trim() !== '') {
    // A unit typed with the number ("14 m", "55cm", 40') is read as typed (core/size-text.ts).
    const size = typedSize(kind, draft);
    if (!size) return { problem: sizeTextProblem(kind) };
    const problem = sizeProblem(kind, size.value, size.unit);
    return problem ? { problem } : { input: { value: size.value, unit: size.unit } };
  }
  if (draft.band) return { input: { band: draft.band } };
  return {};
}

/** The typed text as a size in one of the field's units, or null for text that is not a size. */
export function typedSize<Unit extends string>(kind: 'height' | 'diameter', draft: SizeDraft<Unit, string>): { value: number; unit: Unit; typedUnit: string | null } | null {
  const size =
    kind === 'height'
      ? sizeInFieldUnits(draft.value, 'height', draft.unit as HeightUnit)
      : sizeInFieldUnits(draft.value, 'diameter', draft.unit as DiameterUnit);
  return size ? (size as { value: number; unit: Unit; typedUnit: string | null }) : null;
}

/**
 * The field as it reads once the user leaves it: a unit typed with the number moves onto the
 * unit switch ("14 m" becomes 14 with m chosen; "1.2 m" in a trunk field, 120 with cm), so what is
 * sent is what the field shows. Anything else is left as typed.
 */
export function settledSize<Unit extends string, Band extends string>(kind: 'height' | 'diameter', draft: SizeDraft<Unit, Band>): SizeDraft<Unit, Band> {
  if (draft.value.trim() === '') return draft;
  const size = typedSize(kind, draft);
  if (!size || size.typedUnit === null) return draft;
  return { ...draft, value: String(size.value), unit: size.unit };
}

export interface TreeDetailsProblems {
  height?: string;
  diameter?: string;
}

/** TreeDetails holding only what was given, and a message for each field that cannot be sent. */
export function treeDetailsFromDraft(draft: TreeDetailsDraft): { details: TreeDetails; problems: TreeDetailsProblems } {
  const details: TreeDetails = {};
  const problems: TreeDetailsProblems = {};
  const species = draft.species.trim();
  if (species) details.species = species;
  const height = sizeInput('height', draft.height);
  if (height.input) details.height = height.input;
  if (height.problem) problems.height = height.problem;
  const diameter = sizeInput('diameter', draft.diameter);
  if (diameter.input) details.diameter = diameter.input;
  if (diameter.problem) problems.diameter = diameter.problem;
  const measurement = photoMeasurementOf(draft.measure);
  if (measurement) details.measurement = measurement;
  return { details, problems };
}

/** The `treeDetails` multipart field: JSON of what was given, undefined when nothing was. */
export function treeDetailsField(draft: TreeDetailsDraft): string | undefined {
  const { details } = treeDetailsFromDraft(draft);
  return Object.keys(details).length > 0 ? JSON.stringify(details) : undefined;
}

/** The other unit of a typed size, for the hint under the field: "= 3.7 m". */
export function convertedSize(kind: 'height' | 'diameter', draft: SizeDraft<string, string>): string | undefined {
  const size = typedSize(kind, draft);
  if (!size || size.value <= 0) return undefined;
  const [from, to] = kind === 'height' ? (size.unit === 'ft' ? (['ft', 'm'] as const) : (['m', 'ft'] as const)) : size.unit === 'in' ? (['in', 'cm'] as const) : (['cm', 'in'] as const);
  return `${formatNumber(convertLength(size.value, from, to))} ${to}`;
}

/**
 * The hint's first words for a typed size: "About 12 m." in the other unit; typed with a unit,
 * how it was read too ("Read as 14 m, about 46 ft."), so "14 m" in a field switched to ft is
 * plainly 14 m.
 */
export function typedSizeHint(kind: 'height' | 'diameter', draft: SizeDraft<string, string>): string | undefined {
  const other = convertedSize(kind, draft);
  const size = typedSize(kind, draft);
  if (!other || !size) return undefined;
  return size.typedUnit === null ? `About ${other}.` : `Read as ${formatNumber(size.value)} ${size.unit}, about ${other}.`;
}
