import { describe, expect, it } from 'vitest';
import { treeDetailsSchema } from '../../../core/tree-details';
import {
  EMPTY_MEASURE,
  EMPTY_TREE_DETAILS,
  convertedSize,
  formatDiameter,
  formatHeight,
  measuredSizes,
  parseDecimal,
  photoMeasurementOf,
  treeDetailsField,
  treeDetailsFromDraft,
  type MeasureDraft,
  type TreeDetailsDraft,
} from './tree-details-draft';

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

const withDraft = (change: Partial<TreeDetailsDraft>): TreeDetailsDraft => ({ ...EMPTY_TREE_DETAILS, ...change });

describe('the treeDetails field', () => {
  it('is left out when nothing was given', () => {
    expect(treeDetailsField(EMPTY_TREE_DETAILS)).toBeUndefined();
  });

  it('holds only what was given, and passes the contract', () => {
    const draft = withDraft({
      species: 'Oak',
      height: { value: '12,5', unit: 'm', band: '' },
      diameter: { value: '', unit: 'in', band: 'thicker_than_plate' },
    });
    const json = treeDetailsField(draft);
    expect(JSON.parse(json!)).toEqual({
      species: 'Oak',
      height: { value: 12.5, unit: 'm' },
      diameter: { band: 'thicker_than_plate' },
    });
    expect(treeDetailsSchema.safeParse(JSON.parse(json!)).success).toBe(true);
  });

  it('says what is wrong with a typed size and does not send it', () => {
    const { details, problems } = treeDetailsFromDraft(
      withDraft({ height: { value: 'tall', unit: 'ft', band: '' }, diameter: { value: '900', unit: 'cm', band: '' } }),
    );
    expect(details).toEqual({});
    expect(problems.height).toMatch(/as a number/);
    expect(problems.diameter).toBe('Enter a trunk diameter above 0 and at most 450 cm.');
  });

  it('bounds a typed height per unit: a 200 ft tree is fine, a 200 m one is not', () => {
    const feet = treeDetailsFromDraft(withDraft({ height: { value: '200', unit: 'ft', band: '' } }));
    expect(feet.problems.height).toBeUndefined();
    expect(feet.details.height).toEqual({ value: 200, unit: 'ft' });
    const metres = treeDetailsFromDraft(withDraft({ height: { value: '200', unit: 'm', band: '' } }));
    expect(metres.problems.height).toBe('Enter a height above 0 and at most 70 m.');
  });

  it('sends the taps once a reference and a span are measured', () => {
    const { details } = treeDetailsFromDraft(withDraft({ measure: MEASURED }));
    expect(details.measurement?.reference).toEqual({ top: { x: 200, y: 1300 }, bottom: { x: 200, y: 1500 }, lengthM: 2, label: 'Your reference (2 m)' });
    expect(treeDetailsSchema.safeParse(details).success).toBe(true);
  });
});

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

  it('shows sizes in both units', () => {
    expect(formatHeight(12)).toBe('12.0 m (39 ft)');
    expect(formatDiameter(0.5)).toBe('50 cm (20 in)');
    expect(formatDiameter(0.05)).toBe('5.0 cm (2 in)');
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

  it('shows the other unit', () => {
    expect(convertedSize('height', { value: '40', unit: 'ft', band: '' })).toBe('12 m');
    expect(convertedSize('height', { value: '12', unit: 'm', band: '' })).toBe('39 ft');
    expect(convertedSize('diameter', { value: '20', unit: 'in', band: '' })).toBe('51 cm');
    expect(convertedSize('diameter', { value: '5', unit: 'cm', band: '' })).toBe('2 in');
    expect(convertedSize('diameter', { value: '', unit: 'cm', band: '' })).toBeUndefined();
  });
});
