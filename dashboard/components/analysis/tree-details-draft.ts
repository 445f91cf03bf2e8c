import { MEASURE_REFERENCES, measureFromPhoto, type PhotoMeasurement, type PhotoPoint } from '../../../core/photo-measure';
import {
  CM_PER_IN,
  M_PER_FT,
  MAX_TYPED_SIZE,
  photoMeasurementSchema,
  treeDetailsSchema,
  type DiameterBand,
  type HeightBand,
  type TreeDetails,
} from '../../../core/tree-details';

/**
 * The Tree details group of the upload stage as the user is filling it in: text as typed,
 * units and bands as chosen, taps on the photo. `treeDetailsFromDraft` turns it into the
 * contract's TreeDetails (only what was given), with a message for anything that cannot be sent.
 */
export type HeightUnit = 'ft' | 'm';
export type DiameterUnit = 'in' | 'cm';

export interface SizeDraft<Unit extends string, Band extends string> {
  /** As typed; a typed number wins over a band (choosing one clears the other). */
  value: string;
  unit: Unit;
  band: Band | '';
}

export type ReferenceKey = (typeof MEASURE_REFERENCES)[number]['key'] | 'typed';

/** The three lines the user measures, each from two taps, in the order they are asked for. */
export const MEASURE_LINES = {
  reference: { points: ['top', 'bottom'], label: 'Reference' },
  height: { points: ['top', 'base'], label: 'Height' },
  trunk: { points: ['left', 'right'], label: 'Trunk' },
} as const;
export type MeasureLine = keyof typeof MEASURE_LINES;
export const MEASURE_LINE_ORDER: MeasureLine[] = ['reference', 'height', 'trunk'];

export type LinePoints = Partial<Record<'top' | 'bottom' | 'base' | 'left' | 'right', PhotoPoint>>;

export interface MeasureDraft {
  /** The photo's natural size; 0 until it has loaded. */
  imageWidth: number;
  imageHeight: number;
  reference: ReferenceKey;
  /** The typed reference length in metres, as typed. */
  typedLengthM: string;
  points: Record<MeasureLine, LinePoints>;
}

export interface TreeDetailsDraft {
  /** A name from the species list; empty for "Not sure" or not given. */
  species: string;
  height: SizeDraft<HeightUnit, HeightBand>;
  diameter: SizeDraft<DiameterUnit, DiameterBand>;
  measure: MeasureDraft;
}

export const EMPTY_MEASURE: MeasureDraft = {
  imageWidth: 0,
  imageHeight: 0,
  reference: 'door',
  typedLengthM: '',
  points: { reference: {}, height: {}, trunk: {} },
};

export const EMPTY_TREE_DETAILS: TreeDetailsDraft = {
  species: '',
  height: { value: '', unit: 'ft', band: '' },
  diameter: { value: '', unit: 'in', band: '' },
  measure: EMPTY_MEASURE,
};

/** Taps belong to one photo: for another (or for this one at another size) only the reference choice stays. */
export function measureForPhoto(measure: MeasureDraft, imageWidth = 0, imageHeight = 0): MeasureDraft {
  return { ...EMPTY_MEASURE, reference: measure.reference, typedLengthM: measure.typedLengthM, imageWidth, imageHeight };
}

/** A number as people type it: "12", "12.5", "12,5" (a decimal comma), "12." mid-typing, spaces around. */
export function parseDecimal(text: string): number | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

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

/** The reference's length in metres and its label, or a problem with the typed length. */
export function referenceOf(measure: MeasureDraft): { lengthM: number; label: string } | { problem: string } {
  if (measure.reference !== 'typed') {
    const known = MEASURE_REFERENCES.find((r) => r.key === measure.reference) ?? MEASURE_REFERENCES[0];
    return { lengthM: known.lengthM, label: known.label };
  }
  const lengthM = parseDecimal(measure.typedLengthM);
  if (lengthM === undefined || lengthM <= 0 || lengthM > 100) {
    return { problem: 'Enter the reference length in metres, above 0 and at most 100.' };
  }
  return { lengthM, label: `Your reference (${formatNumber(lengthM)} m)` };
}

const pair = <A extends string, B extends string>(points: LinePoints, a: A, b: B) => {
  const first = points[a as keyof LinePoints];
  const second = points[b as keyof LinePoints];
  return first && second ? ({ [a]: first, [b]: second } as Record<A | B, PhotoPoint>) : undefined;
};

/**
 * The contract's PhotoMeasurement from the taps, once it can measure something: the photo's
 * size, a whole reference with a usable length, and the tree's height or its trunk (or both).
 */
export function photoMeasurementOf(measure: MeasureDraft): PhotoMeasurement | undefined {
  if (measure.imageWidth <= 0 || measure.imageHeight <= 0) return undefined;
  const ends = pair(measure.points.reference, 'top', 'bottom');
  const reference = referenceOf(measure);
  if (!ends || 'problem' in reference) return undefined;
  const tree = pair(measure.points.height, 'top', 'base');
  const trunk = pair(measure.points.trunk, 'left', 'right');
  if (!tree && !trunk) return undefined;
  const measurement: PhotoMeasurement = {
    imageWidth: Math.round(measure.imageWidth),
    imageHeight: Math.round(measure.imageHeight),
    reference: { ...ends, ...reference },
  };
  if (tree) measurement.tree = tree;
  if (trunk) measurement.trunk = trunk;
  return photoMeasurementSchema.safeParse(measurement).success ? measurement : undefined;
}

export type MeasuredResult = { heightM: number | null; diameterM: number | null } | { problem: string } | undefined;

/** What the taps measure so far, or why they cannot, or undefined while there is too little. */
export function measuredSizes(measure: MeasureDraft): MeasuredResult {
  const measurement = photoMeasurementOf(measure);
  return measurement ? measureFromPhoto(measurement) : undefined;
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

/** One decimal below 10, whole numbers above: "3.7", "12", "0.5". */
export function formatNumber(value: number): string {
  const rounded = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return rounded.toLocaleString('en-GB', { maximumFractionDigits: 1 });
}

/** "12.0 m (39 ft)": a measured height in both units. */
export function formatHeight(metres: number): string {
  return `${metres.toFixed(1)} m (${Math.round(metres / M_PER_FT)} ft)`;
}

/** "50 cm (20 in)": a measured trunk diameter in both units. */
export function formatDiameter(metres: number): string {
  const cm = metres * 100;
  return `${cm < 10 ? cm.toFixed(1) : Math.round(cm)} cm (${Math.round(cm / CM_PER_IN)} in)`;
}

/** The other unit of a typed size, for the hint under the field: "= 3.7 m". */
export function convertedSize(kind: 'height' | 'diameter', draft: SizeDraft<string, string>): string | undefined {
  const value = parseDecimal(draft.value);
  if (value === undefined || value <= 0) return undefined;
  if (kind === 'height') {
    return draft.unit === 'ft' ? `${formatNumber(value * M_PER_FT)} m` : `${formatNumber(value / M_PER_FT)} ft`;
  }
  return draft.unit === 'in' ? `${formatNumber(value * CM_PER_IN)} cm` : `${formatNumber(value / CM_PER_IN)} in`;
}
