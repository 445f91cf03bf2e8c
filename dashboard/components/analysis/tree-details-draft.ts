import {
  treeDetailsSchema,
  type DiameterBand,
  type HeightBand,
  type TreeDetails,
} from '../../../core/tree-details';
import { MAX_TYPED_SIZE } from '../../../core/size-bounds';
import { EMPTY_MEASURE, formatNumber, parseDecimal, photoMeasurementOf, type MeasureDraft } from '../../../core/measure-draft';
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
    const value = parseDecimal(draft.value);
    if (value === undefined) return { problem: `Enter the ${kind === 'height' ? 'height' : 'trunk diameter'} as a number, such as 12 or 12.5.` };
    const problem = sizeProblem(kind, value, draft.unit);
    return problem ? { problem } : { input: { value, unit: draft.unit } };
  }
  if (draft.band) return { input: { band: draft.band } };
  return {};
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
  const value = parseDecimal(draft.value);
  if (value === undefined || value <= 0) return undefined;
  const [from, to] = kind === 'height' ? (draft.unit === 'ft' ? (['ft', 'm'] as const) : (['m', 'ft'] as const)) : draft.unit === 'in' ? (['in', 'cm'] as const) : (['cm', 'in'] as const);
  return `${formatNumber(convertLength(value, from, to))} ${to}`;
}
