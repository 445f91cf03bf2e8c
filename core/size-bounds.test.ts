import { describe, expect, it } from 'vitest';
import { normaliseSizes, readUserTreeDetails, wholeSize } from './normalise';
import { MAX_TYPED_SIZE, SIZE_LIMITS } from './size-bounds';
import { ANY_TREE_LIMIT } from './species-limits';
import { treeDetailsSchema } from './tree-details';
import { CM_PER_IN, M_PER_FT } from './units';

describe('one set of size bounds', () => {
  it('is the stricter of the two the code had: 230 ft (70 m) and 180 in (450 cm)', () => {
    expect(SIZE_LIMITS.heightFt).toMatchObject({ min: 3, max: 230 });
    expect(SIZE_LIMITS.dbhIn).toMatchObject({ min: 1, max: 180 });
    expect(MAX_TYPED_SIZE).toEqual({ ft: 230, m: 70, in: 180, cm: 450 });
    expect(ANY_TREE_LIMIT).toEqual([MAX_TYPED_SIZE.m, MAX_TYPED_SIZE.cm]);
  });

  it('lets every size the form takes through to the estimate, in any unit', () => {
    for (const [unit, value] of [['ft', MAX_TYPED_SIZE.ft], ['m', MAX_TYPED_SIZE.m]] as const) {
      expect(treeDetailsSchema.shape.height.safeParse({ value, unit }).success, unit).toBe(true);
      const read = readUserTreeDetails({ height: { value, unit } });
      expect(read.ok, unit).toBe(true);
      expect(wholeSize('heightFt', unit === 'm' ? value / M_PER_FT : value), unit).not.toBeNull();
    }
    for (const [unit, value] of [['in', MAX_TYPED_SIZE.in], ['cm', MAX_TYPED_SIZE.cm]] as const) {
      expect(treeDetailsSchema.shape.diameter.safeParse({ value, unit }).success, unit).toBe(true);
      expect(readUserTreeDetails({ diameter: { value, unit } }).ok, unit).toBe(true);
      expect(wholeSize('dbhIn', unit === 'cm' ? value / CM_PER_IN : value), unit).not.toBeNull();
    }
  });

  it('refuses a typed size just past them', () => {
    expect(treeDetailsSchema.shape.height.safeParse({ value: 231, unit: 'ft' }).success).toBe(false);
    expect(treeDetailsSchema.shape.height.safeParse({ value: 70.5, unit: 'm' }).success).toBe(false);
    expect(treeDetailsSchema.shape.diameter.safeParse({ value: 181, unit: 'in' }).success).toBe(false);
    expect(treeDetailsSchema.shape.diameter.safeParse({ value: 451, unit: 'cm' }).success).toBe(false);
  });

  it("ignores a model's reading past them, which the looser bounds once let through", () => {
    const { sizes, factors } = normaliseSizes({ heightFt: 300, dbhIn: 190 }, 'The AI model');
    expect(sizes).toMatchObject({ heightFt: null, dbhIn: null });
    expect(factors).toEqual([
      'The AI model gave a trunk diameter of 190 in, outside 1-180 in; it was ignored',
      'The AI model gave a height of 300 ft, outside 3-230 ft; it was ignored',
    ]);
  });
});
