import { describe, expect, it } from 'vitest';
import type { PhotoMeasurement } from './photo-measure';
import { photoMeasurementSchema } from './tree-details';
import { CM_PER_IN, M_PER_FT } from './units';
import {
  EMPTY_MEASURE,
  formatDiameter,
  formatHeight,
  measuredSizes,
  measureForPhoto,
  parseDecimal,
  photoMeasurementOf,
  referenceOf,
  withinMeasurementBounds,
  type MeasureDraft,
} from './measure-draft';

/** The browser test's image: 100 px a metre, a 2 m bar, a 12 m pole 0.5 m wide. */
const MEASURED: MeasureDraft = {
  imageWidth: 1200,
  imageHeight: 1600,
  reference: 'typed',
  typedLengthM: '2',
  points: {
    reference: { top: { x: 200, y: 1300 }, bottom: { x: 200, y: 1500 } },
    height: { top: { x: 700, y: 300 }, base: { x: 700, y: 1500 } },
    trunk: { left: { x: 675, y: 1370 }, right: { x: 725, y: 1370 } },
  },
};

describe('measuring on the photo', () => {
  it('needs the photo size, a whole reference and one span', () => {
    expect(photoMeasurementOf(EMPTY_MEASURE)).toBeUndefined();
    expect(photoMeasurementOf({ ...MEASURED, imageWidth: 0 })).toBeUndefined();
    expect(photoMeasurementOf({ ...MEASURED, points: { ...MEASURED.points, reference: { top: { x: 1, y: 1 } } } })).toBeUndefined();
    expect(photoMeasurementOf({ ...MEASURED, points: { ...MEASURED.points, height: {}, trunk: {} } })).toBeUndefined();
    expect(photoMeasurementOf({ ...MEASURED, typedLengthM: '0' })).toBeUndefined();
    const heightOnly = photoMeasurementOf({ ...MEASURED, points: { ...MEASURED.points, trunk: { left: { x: 1, y: 1 } } } });
    expect(heightOnly?.tree).toBeDefined();
    expect(heightOnly?.trunk).toBeUndefined();
  });

  it('turns the taps into metres', () => {
    expect(measuredSizes(MEASURED)).toEqual({ heightM: 12, diameterM: 0.5 });
    expect(measuredSizes({ ...MEASURED, reference: 'door' })).toEqual({ heightM: 12, diameterM: 0.5 });
    expect(measuredSizes({ ...MEASURED, reference: 'eaves' })).toEqual({ heightM: 30, diameterM: 1.25 });
  });

  it('keeps only the reference choice for another photo', () => {
    expect(measureForPhoto({ ...MEASURED, reference: 'person' }, 800, 600)).toEqual({
      ...EMPTY_MEASURE,
      reference: 'person',
      typedLengthM: '2',
      imageWidth: 800,
      imageHeight: 600,
    });
  });

  it('labels the reference, or says what is wrong with a typed length', () => {
    expect(referenceOf({ ...MEASURED, reference: 'door' })).toEqual({ lengthM: 2, label: 'A door (2.0 m)' });
    expect(referenceOf(MEASURED)).toEqual({ lengthM: 2, label: 'Your reference (2 m)' });
    expect(referenceOf({ ...MEASURED, typedLengthM: '101' })).toEqual({ problem: 'Enter the reference length in metres, above 0 and at most 100.' });
  });

  it('shows sizes in both units', () => {
    expect(formatHeight(12)).toBe('12.0 m (39 ft)');
    expect(formatDiameter(0.5)).toBe('50 cm (20 in)');
    expect(formatDiameter(0.05)).toBe('5.0 cm (2 in)');
    expect(formatHeight(100 * M_PER_FT)).toBe('30.5 m (100 ft)');
    expect(formatDiameter((100 * CM_PER_IN) / 100)).toBe('254 cm (100 in)');
  });

  it('puts feet and inches first for someone who works in imperial', () => {
    expect(formatHeight(12, 'imperial')).toBe('39 ft (12.0 m)');
    expect(formatDiameter(0.5, 'imperial')).toBe('20 in (50 cm)');
  });
});

describe('the bounds of a measurement, without zod', () => {
  const valid: PhotoMeasurement = {
    imageWidth: 1200,
    imageHeight: 1600,
    reference: { top: { x: 200, y: 1300 }, bottom: { x: 200, y: 1500 }, lengthM: 2, label: 'A door (2.0 m)' },
    tree: { top: { x: 700, y: 300 }, base: { x: 700, y: 1500 } },
    trunk: { left: { x: 675, y: 1370 }, right: { x: 725, y: 1370 } },
  };
  const ref = valid.reference;
  const accepted: [string, PhotoMeasurement][] = [
    ['a whole measurement', valid],
    ['the height only', { ...valid, trunk: undefined }],
    ['the trunk only', { ...valid, tree: undefined }],
    ['the largest photo', { ...valid, imageWidth: 20_000, imageHeight: 20_000 }],
    ['a point on the edge', { ...valid, reference: { ...ref, top: { x: 0, y: 0 } } }],
    ['fractional points', { ...valid, tree: { top: { x: 0.5, y: 10.25 }, base: { x: 700, y: 1500 } } }],
    ['the longest reference', { ...valid, reference: { ...ref, lengthM: 100 } }],
    ['a short reference', { ...valid, reference: { ...ref, lengthM: 0.01 } }],
    ['a label of 60 letters', { ...valid, reference: { ...ref, label: 'x'.repeat(60) } }],
    ['a label with spaces around', { ...valid, reference: { ...ref, label: `  ${'x'.repeat(60)}  ` } }],
  ];
  const refused: [string, PhotoMeasurement][] = [
    ['no width', { ...valid, imageWidth: 0 }],
    ['a negative height', { ...valid, imageHeight: -5 }],
    ['a fractional width', { ...valid, imageWidth: 1200.5 }],
    ['too wide a photo', { ...valid, imageWidth: 20_001 }],
    ['a width that is not a number', { ...valid, imageWidth: Number.NaN }],
    ['a point left of the photo', { ...valid, reference: { ...ref, bottom: { x: -1, y: 1500 } } }],
    ['a point above the photo', { ...valid, tree: { top: { x: 700, y: -0.1 }, base: { x: 700, y: 1500 } } }],
    ['an endless point', { ...valid, trunk: { left: { x: Number.POSITIVE_INFINITY, y: 1 }, right: { x: 2, y: 1 } } }],
    ['a point that is not a number', { ...valid, trunk: { left: { x: 1, y: 1 }, right: { x: 2, y: Number.NaN } } }],
    ['a reference of no length', { ...valid, reference: { ...ref, lengthM: 0 } }],
    ['a negative reference', { ...valid, reference: { ...ref, lengthM: -2 } }],
    ['too long a reference', { ...valid, reference: { ...ref, lengthM: 100.01 } }],
    ['an endless reference', { ...valid, reference: { ...ref, lengthM: Number.POSITIVE_INFINITY } }],
    ['no label', { ...valid, reference: { ...ref, label: '' } }],
    ['a label of spaces', { ...valid, reference: { ...ref, label: '   ' } }],
    ['a label of 61 letters', { ...valid, reference: { ...ref, label: 'x'.repeat(61) } }],
  ];

  it.each(accepted)('accepts %s, as the schema does', (_name, measurement) => {
    expect(photoMeasurementSchema.safeParse(measurement).success).toBe(true);
    expect(withinMeasurementBounds(measurement)).toBe(true);
  });

  it.each(refused)('refuses %s, as the schema does', (_name, measurement) => {
    expect(photoMeasurementSchema.safeParse(measurement).success).toBe(false);
    expect(withinMeasurementBounds(measurement)).toBe(false);
  });

  it('sends nothing the server would refuse', () => {
    expect(photoMeasurementOf({ ...MEASURED, imageWidth: 30_000 })).toBeUndefined();
  });
});

describe('typed numbers', () => {
  it('reads decimals with a point or a comma', () => {
    expect(parseDecimal(' 12 ')).toBe(12);
    expect(parseDecimal('12.5')).toBe(12.5);
    expect(parseDecimal('12,5')).toBe(12.5);
    expect(parseDecimal('.5')).toBe(0.5);
    expect(parseDecimal('12.')).toBe(12);
    for (const bad of ['', '-3', '1e3', '12 ft', 'abc', '1.2.3']) expect(parseDecimal(bad)).toBeUndefined();
  });
});
