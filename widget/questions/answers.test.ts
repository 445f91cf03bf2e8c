import { describe, expect, it } from 'vitest';
import { answerFields, EMPTY_TREE_ANSWERS, shownSize, SIZE_NOT_SURE } from './answers';

const treeOf = (fields: ReturnType<typeof answerFields>) => (fields.treeDetails ? JSON.parse(fields.treeDetails) : undefined);

describe('answerFields: "Not sure" for the height and the trunk', () => {
  it('sends "Not sure" as heightUnknown and diameterUnknown, never a band', () => {
    const tree = { ...EMPTY_TREE_ANSWERS, height: SIZE_NOT_SURE, diameter: SIZE_NOT_SURE } as const;
    expect(treeOf(answerFields(tree, {}))).toEqual({ heightUnknown: true, diameterUnknown: true });
  });

  it('where the photo cannot be read, a blank size is "Not sure" (no second screen asking for it)', () => {
    expect(treeOf(answerFields(EMPTY_TREE_ANSWERS, {}, undefined, false, false))).toEqual({ heightUnknown: true, diameterUnknown: true });
    expect(treeOf(answerFields({ ...EMPTY_TREE_ANSWERS, height: 'about_two_storey' }, {}, undefined, false, false))).toEqual({
      height: { band: 'about_two_storey' },
      diameterUnknown: true,
    });
  });

  it('where the photo can be read, a blank size is left to it', () => {
    expect(answerFields(EMPTY_TREE_ANSWERS, {}, undefined, false, true)).toEqual({});
    expect(treeOf(answerFields({ ...EMPTY_TREE_ANSWERS, diameter: SIZE_NOT_SURE }, {}, undefined, false, true))).toEqual({ diameterUnknown: true });
  });

  it('checks the "Not sure" tile for a blank size only where the photo cannot be read', () => {
    expect(shownSize('', false)).toBe(SIZE_NOT_SURE);
    expect(shownSize('', true)).toBe('');
    expect(shownSize('much_taller', false)).toBe('much_taller');
  });
});
