import { convertLength, type UnitSystem } from './units';
import { MEASURE_REFERENCES, measureFromPhoto, type PhotoMeasurement, type PhotoPoint } from './photo-measure';

/**
 * Measuring on the photo as the user is doing it: the reference chosen, the taps so far, and
 * what they measure. Shared by the dashboard's measuring tool and the estimator's measuring
 * panel. Zod-free on purpose: the estimator loads this in its own small chunk, and
 * core/tree-details.ts (which holds the contract's schemas) would bring zod with it.
 */

/*
 * The bounds of photoMeasurementSchema (core/tree-details.ts), checked without zod;
 * measure-draft.test.ts checks that the two agree.
 */
const MAX_IMAGE_SIDE = 20_000;
const MAX_REFERENCE_M = 100;
const MAX_LABEL_LENGTH = 60;

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

export const EMPTY_MEASURE: MeasureDraft = {
  imageWidth: 0,
  imageHeight: 0,
  reference: 'door',
  typedLengthM: '',
  points: { reference: {}, height: {}, trunk: {} },
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

/** The reference's length in metres and its label, or a problem with the typed length. */
export function referenceOf(measure: MeasureDraft): { lengthM: number; label: string } | { problem: string } {
  if (measure.reference !== 'typed') {
    const known = MEASURE_REFERENCES.find((r) => r.key === measure.reference) ?? MEASURE_REFERENCES[0];
    return { lengthM: known.lengthM, label: known.label };
  }
  const lengthM = parseDecimal(measure.typedLengthM);
  if (lengthM === undefined || lengthM <= 0 || lengthM > MAX_REFERENCE_M) {
    return { problem: `Enter the reference length in metres, above 0 and at most ${MAX_REFERENCE_M}.` };
  }
  return { lengthM, label: `Your reference (${formatNumber(lengthM)} m)` };
}

const pair = <A extends string, B extends string>(points: LinePoints, a: A, b: B) => {
  const first = points[a as keyof LinePoints];
  const second = points[b as keyof LinePoints];
  return first && second ? ({ [a]: first, [b]: second } as Record<A | B, PhotoPoint>) : undefined;
};

const isImageSide = (n: number) => Number.isInteger(n) && n > 0 && n <= MAX_IMAGE_SIDE;
const isPoint = (p: PhotoPoint) => Number.isFinite(p.x) && p.x >= 0 && Number.isFinite(p.y) && p.y >= 0;

/** Whether the server's photoMeasurementSchema would accept this measurement. */
export function withinMeasurementBounds(m: PhotoMeasurement): boolean {
  const { reference, tree, trunk } = m;
  const label = reference.label.trim();
  return (
    isImageSide(m.imageWidth) &&
    isImageSide(m.imageHeight) &&
    isPoint(reference.top) &&
    isPoint(reference.bottom) &&
    Number.isFinite(reference.lengthM) &&
    reference.lengthM > 0 &&
    reference.lengthM <= MAX_REFERENCE_M &&
    label.length >= 1 &&
    label.length <= MAX_LABEL_LENGTH &&
    (!tree || (isPoint(tree.top) && isPoint(tree.base))) &&
    (!trunk || (isPoint(trunk.left) && isPoint(trunk.right)))
  );
}

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
  return withinMeasurementBounds(measurement) ? measurement : undefined;
}

export type MeasuredResult = { heightM: number | null; diameterM: number | null } | { problem: string } | undefined;

/** What the taps measure so far, or why they cannot, or undefined while there is too little. */
export function measuredSizes(measure: MeasureDraft): MeasuredResult {
  const measurement = photoMeasurementOf(measure);
  return measurement ? measureFromPhoto(measurement) : undefined;
}

/** One decimal below 10, whole numbers above: "3.7", "12", "0.5". */
export function formatNumber(value: number): string {
  const rounded = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  return rounded.toLocaleString('en-GB', { maximumFractionDigits: 1 });
}

/** "12.0 m (39 ft)": a measured height in both units; "39 ft (12.0 m)" for imperial. */
export function formatHeight(metres: number, units: UnitSystem = 'metric'): string {
  const m = `${metres.toFixed(1)} m`;
  const ft = `${Math.round(convertLength(metres, 'm', 'ft'))} ft`;
  return units === 'metric' ? `${m} (${ft})` : `${ft} (${m})`;
}

/** "50 cm (20 in)": a measured trunk diameter in both units; "20 in (50 cm)" for imperial. */
export function formatDiameter(metres: number, units: UnitSystem = 'metric'): string {
  const centimetres = metres * 100;
  const cm = `${centimetres < 10 ? centimetres.toFixed(1) : Math.round(centimetres)} cm`;
  const inch = `${Math.round(convertLength(centimetres, 'cm', 'in'))} in`;
  return units === 'metric' ? `${cm} (${inch})` : `${inch} (${cm})`;
}
