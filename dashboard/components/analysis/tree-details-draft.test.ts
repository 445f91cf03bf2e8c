import { describe, expect, it } from 'vitest';
import { treeDetailsSchema } from '../../../core/tree-details';
import {
  EMPTY_TREE_DETAILS,
  convertedSize,
  settledSize,
  treeDetailsField,
  treeDetailsFromDraft,
  typedSizeHint,
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
    expect(problems.height).toBe('Enter a height like 12 m or 40 ft.');
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

describe('typed sizes', () => {
  it('shows the other unit', () => {
    expect(convertedSize('height', { value: '40', unit: 'ft', band: '' })).toBe('12 m');
    expect(convertedSize('height', { value: '12', unit: 'm', band: '' })).toBe('39 ft');
    expect(convertedSize('diameter', { value: '20', unit: 'in', band: '' })).toBe('51 cm');
    expect(convertedSize('diameter', { value: '5', unit: 'cm', band: '' })).toBe('2 in');
    expect(convertedSize('diameter', { value: '', unit: 'cm', band: '' })).toBeUndefined();
  });
});

describe('a size typed with its unit', () => {
  it('is sent in the unit typed, or converted into the field\'s unit', () => {
    const { details, problems } = treeDetailsFromDraft(
      withDraft({ height: { value: '14 m', unit: 'ft', band: '' }, diameter: { value: '1.2 m', unit: 'in', band: '' } }),
    );
    expect(problems).toEqual({});
    expect(details).toEqual({ height: { value: 14, unit: 'm' }, diameter: { value: 47.2, unit: 'in' } });
    expect(treeDetailsFromDraft(withDraft({ height: { value: "40'", unit: 'm', band: '' } })).details.height).toEqual({ value: 40, unit: 'ft' });
    expect(treeDetailsFromDraft(withDraft({ diameter: { value: '16"', unit: 'cm', band: '' } })).details.diameter).toEqual({ value: 16, unit: 'in' });
  });

  it('keeps the bounds in the unit it is read as', () => {
    expect(treeDetailsFromDraft(withDraft({ height: { value: '200 m', unit: 'ft', band: '' } })).problems.height).toBe(
      'Enter a height above 0 and at most 70 m.',
    );
    expect(treeDetailsFromDraft(withDraft({ diameter: { value: 'big', unit: 'cm', band: '' } })).problems.diameter).toBe(
      'Enter a trunk diameter like 55 cm or 22 in.',
    );
  });

  it('moves onto the unit switch once the field is left, and says how it was read', () => {
    expect(settledSize('height', { value: '14 m', unit: 'ft', band: '' })).toEqual({ value: '14', unit: 'm', band: '' });
    expect(settledSize('diameter', { value: '550mm', unit: 'cm', band: '' })).toEqual({ value: '55', unit: 'cm', band: '' });
    const plain = { value: '14', unit: 'ft', band: '' } as const;
    expect(settledSize('height', plain)).toBe(plain);
    expect(typedSizeHint('height', { value: '14 m', unit: 'ft', band: '' })).toBe('Read as 14 m, about 46 ft.');
    expect(typedSizeHint('height', { value: '40', unit: 'ft', band: '' })).toBe('About 12 m.');
  });
});
