import { describe, expect, it } from 'vitest';
import { noticeTreeTitle, section211BodySchema, trunkLine } from './section-211';

describe('the trunk on the section 211 notice, as given, against 7.5 cm at 1.5 m', () => {
  it('says a typed or written trunk as typed, inches with centimetres beside, the surgeon\'s own at 1.5 m', () => {
    expect(trunkLine({ kind: 'typed', size: { value: 55, unit: 'cm' }, by: 'estimate' })).toBe('Trunk 55 cm across: over the 7.5 cm threshold, so notice is needed');
    expect(trunkLine({ kind: 'typed', size: { value: 2, unit: 'in' }, by: 'estimate' })).toBe('Trunk 2 in (5.1 cm) across: under 7.5 cm, so this tree needs no notice');
    expect(trunkLine({ kind: 'typed', size: { value: 7.5, unit: 'cm' }, by: 'surgeon' })).toBe('Trunk 7.5 cm across at 1.5 m: over the 7.5 cm threshold, so notice is needed');
  });

  it('says a band as the band and what the whole band means, or that it spans the threshold', () => {
    expect(trunkLine({ kind: 'band', band: 'thicker_than_plate' })).toBe("Trunk 27 to 50 cm (the owner's estimate, not measured) across: the whole band is over the 7.5 cm threshold, so notice is needed");
    expect(trunkLine({ kind: 'band', band: 'too_wide_to_hug' })).toBe("Trunk over 50 cm (the owner's estimate, not measured) across: the whole band is over the 7.5 cm threshold, so notice is needed");
    expect(trunkLine({ kind: 'band', band: 'thinner_than_can' })).toBe("Trunk under 7 cm (the owner's estimate, not measured) across: the whole band is under 7.5 cm, so this tree needs no notice");
    expect(trunkLine({ kind: 'band', band: 'up_to_plate' })).toContain('the band spans the 7.5 cm threshold: measure the trunk at 1.5 m');
  });

  it('says a reading as rough and where it came from; a measurement on the photo as such; none as not measured', () => {
    expect(trunkLine({ kind: 'read', inches: 22, from: 'photo' })).toBe('Trunk about 56 cm (estimated from the photo, not measured) across: over the 7.5 cm threshold, so notice is needed');
    expect(trunkLine({ kind: 'read', inches: 22, from: 'details' })).toContain('about 56 cm (from the project details, not measured)');
    expect(trunkLine({ kind: 'measured', cm: 49.6 })).toBe('Trunk 50 cm (measured on the photo) across: over the 7.5 cm threshold, so notice is needed');
    expect(trunkLine({ kind: 'none' })).toBe('Trunk not measured: notice is needed from 7.5 cm across at 1.5 m');
  });
});

describe('the tree on the notice', () => {
  it('names an unknown species as not identified, with the surgeon\'s description', () => {
    expect(noticeTreeTitle(1, 'Oak', null)).toBe('Tree 1: Oak');
    expect(noticeTreeTitle(2, null, 'tall conifer by the gate')).toBe('Tree 2: species not identified: tall conifer by the gate');
    expect(noticeTreeTitle(3, null, null)).toBe('Tree 3: species not identified: describe the tree here before sending');
  });

  it('takes a trunk to one decimal at most, in cm or inches, within what a tree can be', () => {
    const trunk = (value: unknown, unit: unknown) => section211BodySchema.safeParse({ trees: [{ itemId: 1, work: 'Fell', trunk: { value, unit } }] }).success;
    expect(trunk(55, 'cm')).toBe(true);
    expect(trunk(52.5, 'cm')).toBe(true);
    expect(trunk(0.3, 'in')).toBe(true);
    expect(trunk(55.25, 'cm')).toBe(false);
    expect(trunk(0, 'cm')).toBe(false);
    expect(trunk(451, 'cm')).toBe(false);
    expect(trunk(181, 'in')).toBe(false);
    expect(trunk('55', 'cm')).toBe(false);
    expect(trunk(55, 'mm')).toBe(false);
    expect(trunk(Number.NaN, 'cm')).toBe(false);
  });
});
