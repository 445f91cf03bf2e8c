import { describe, expect, expectTypeOf, it } from 'vitest';
import { OPERATOR_WORDS } from './embed';
import { measureFromPhoto, type PhotoMeasurement } from './photo-measure';
import { EMPTY_MEASURE, type MeasureDraft } from './measure-draft';
import type { ValueSource } from './tree-details';
import {
  checkMeasuredSizes,
  checkTreeSizes,
  checkTreeSizesImperial,
  confidenceWithSizeWarnings,
  MIN_HEIGHT_TO_TRUNK,
  MIN_REFERENCE_SHARE,
  type SizeSource,
} from './plausibility';
import { ANY_TREE_LIMIT, SPECIES_LIMITS } from './species-limits';
import { SPECIES } from './species';

/**
 * The case a tester measured on a phone: the redbud photo (700 x 525), "A person (1.7 m)" as the
 * reference tapped on something small by a pavilion, 23 px tall (4% of the photo), and the tree
 * and its trunk tapped right. It came out a 35.5 m tree with a trunk 296 cm across. (The same
 * taps as testing/analysis.ts REDBUD_TINY_REFERENCE: core does not import the server's.)
 */
const REDBUD_TINY_REFERENCE: PhotoMeasurement = {
  imageWidth: 700,
  imageHeight: 525,
  reference: { top: { x: 470, y: 320 }, bottom: { x: 470, y: 343 }, lengthM: 1.7, label: 'A person (1.7 m)' },
  tree: { top: { x: 350, y: 20 }, base: { x: 350, y: 500 } },
  trunk: { left: { x: 330, y: 470 }, right: { x: 370, y: 470 } },
};

/** A door of 100 px on a 1000 x 1500 photo: a 12 m (39 ft) tree with a 0.5 m trunk. */
const DOOR: PhotoMeasurement = {
  imageWidth: 1000,
  imageHeight: 1500,
  reference: { top: { x: 100, y: 1300 }, bottom: { x: 100, y: 1400 }, lengthM: 2, label: 'A door (2.0 m)' },
  tree: { top: { x: 500, y: 800 }, base: { x: 500, y: 1400 } },
  trunk: { left: { x: 490, y: 1330 }, right: { x: 515, y: 1330 } },
};

const measured = { height: 'measured', diameter: 'measured' } as const;

describe('size checks', () => {
  it("flags the issue's redbud: too tall, too stout for its species, and a reference too small to measure by", () => {
    const sizes = measureFromPhoto(REDBUD_TINY_REFERENCE);
    if ('problem' in sizes) throw new Error(sizes.problem);
    expect(sizes.heightM).toBeCloseTo(35.5, 1);
    expect(sizes.diameterM).toBeCloseTo(2.96, 2);
    const warnings = checkTreeSizes({ species: 'Redbud', ...sizes, sources: measured, measurement: REDBUD_TINY_REFERENCE });
    expect(warnings).toEqual([
      'The height measured on the photo, about 35.5 m (116 ft), is far taller than a Redbud grows (at most about 12 m)',
      'The trunk measured on the photo, about 296 cm (116 in) across, is far wider than a Redbud grows (at most about 60 cm)',
      "The reference you measured by, a person (1.7 m), is only 4% of the photo's height, so a small slip in a tap changes every measured size a lot: zoom in to tap its ends, or measure by something taller beside the tree",
    ]);
  });

  it('flags the same taps as the server holds them, in whole feet and inches', () => {
    const warnings = checkTreeSizesImperial({ species: 'Redbud', heightFt: 116, dbhIn: 116, sources: measured, measurement: REDBUD_TINY_REFERENCE });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^The height measured on the photo, about 35\.4 m \(116 ft\), is far taller than a Redbud/);
  });

  it('with no species, still flags the tiny reference, and not a big tree any tree could be', () => {
    const warnings = checkTreeSizes({ species: null, heightM: 35.5, diameterM: 2.96, sources: measured, measurement: REDBUD_TINY_REFERENCE });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^The reference you measured by/);
    expect(checkTreeSizes({ species: 'Sassafras', heightM: 90, diameterM: null })).toEqual([
      'The height you entered, about 90.0 m (295 ft), is taller than any tree in Britain grows (at most about 70 m)',
    ]);
  });

  it('passes believable sizes measured by a door of a fair share of the photo', () => {
    const sizes = measureFromPhoto(DOOR);
    if ('problem' in sizes) throw new Error(sizes.problem);
    expect(checkTreeSizes({ species: 'Oak', ...sizes, sources: measured, measurement: DOOR })).toEqual([]);
    expect(checkTreeSizes({ species: 'Redbud', heightM: 6, diameterM: 0.3 })).toEqual([]);
    // Champion-sized trees of their species are believable.
    expect(checkTreeSizes({ species: 'Douglas fir', heightM: 65, diameterM: 2 })).toEqual([]);
    expect(checkTreeSizes({ species: 'Oak', heightM: 35, diameterM: 2.74 })).toEqual([]);
  });

  it('flags a trunk too stout for the height, whatever the species', () => {
    expect(checkTreeSizes({ species: 'Oak', heightM: 10, diameterM: 1.5 })).toEqual([
      `A trunk about 150 cm (59 in) across on a tree about 10.0 m (33 ft) tall is stouter than trees grow: trees are nearly always more than ${MIN_HEIGHT_TO_TRUNK} times as tall as their trunk is wide, so one of the two sizes is probably wrong`,
    ]);
    expect(checkTreeSizes({ species: 'Oak', heightM: 10, diameterM: 0.9 })).toEqual([]);
  });

  it('checks a chosen size band only against its species, with room for a rough class', () => {
    // "Much taller than a house" is taken as 60 ft (18.3 m): half as tall again as a redbud grows.
    const tall = checkTreeSizes({ species: 'Redbud', heightM: 60 * 0.3048, diameterM: 0.66, sources: { height: 'band', diameter: 'band' } });
    expect(tall).toEqual(['The height from the size chosen, about 18.3 m (60 ft), is taller than a Redbud grows (at most about 12 m)']);
    // "Under 4 m" with "over 50 cm" may be a pollard: no proportion from bands.
    expect(checkTreeSizes({ species: 'Oak', heightM: 3, diameterM: 0.66, sources: { height: 'band', diameter: 'band' } })).toEqual([]);
  });

  it('leaves sizes we assumed alone, and the reference when the measured sizes were not used', () => {
    expect(checkTreeSizes({ species: 'Redbud', heightM: 35, diameterM: 3, sources: { height: 'assumed', diameter: 'assumed' } })).toEqual([]);
    const typed = checkTreeSizes({ species: 'Oak', heightM: 20, diameterM: 0.6, sources: { height: 'user', diameter: 'user' }, measurement: REDBUD_TINY_REFERENCE });
    expect(typed).toEqual([]);
  });

  it("names a model's reading without saying how it was read, so a visitor may read it", () => {
    const warnings = checkTreeSizes({ species: 'Box', heightM: 25, diameterM: 2.4, sources: { height: 'model', diameter: 'model' }, measurement: REDBUD_TINY_REFERENCE });
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of [...warnings, ...checkTreeSizes({ species: 'Redbud', heightM: 35.5, diameterM: 2.96, measurement: REDBUD_TINY_REFERENCE })]) {
      expect(warning).not.toMatch(OPERATOR_WORDS);
    }
  });

  it('knows every source a size can come from', () => {
    expectTypeOf<SizeSource>().toEqualTypeOf<ValueSource>();
  });

  it('halves the confidence of an estimate whose sizes were confirmed despite a warning', () => {
    expect(confidenceWithSizeWarnings(0.5, ['a warning'])).toBe(0.25);
    expect(confidenceWithSizeWarnings(0.7, ['a warning', 'another'])).toBe(0.35);
    expect(confidenceWithSizeWarnings(0.5, [])).toBe(0.5);
    expect(MIN_REFERENCE_SHARE).toBe(0.05);
  });
});

describe('the measuring step', () => {
  const taps = (m: PhotoMeasurement, species: string | null) => {
    const draft: MeasureDraft = {
      ...EMPTY_MEASURE,
      imageWidth: m.imageWidth,
      imageHeight: m.imageHeight,
      reference: 'person',
      points: { reference: { top: m.reference.top, bottom: m.reference.bottom }, height: { ...m.tree }, trunk: { ...m.trunk } },
    };
    return checkMeasuredSizes(draft, species);
  };

  it('flags the taps as soon as they measure something unlikely', () => {
    expect(taps(REDBUD_TINY_REFERENCE, 'Redbud')).toHaveLength(3);
    expect(taps(REDBUD_TINY_REFERENCE, null)).toHaveLength(1);
    expect(checkMeasuredSizes(EMPTY_MEASURE, 'Redbud')).toEqual([]);
  });
});

describe('species size bounds', () => {
  it('has a height and a trunk for every listed tree, and no other', () => {
    expect(Object.keys(SPECIES_LIMITS).sort()).toEqual(SPECIES.map((s) => s.name).sort());
  });

  it('keeps every bound within any tree in Britain, and above what a garden tree of its kind reaches', () => {
    for (const [name, [heightM, dbhCm]] of Object.entries(SPECIES_LIMITS)) {
      expect(heightM, name).toBeGreaterThanOrEqual(10);
      expect(heightM, name).toBeLessThanOrEqual(ANY_TREE_LIMIT[0]);
      expect(dbhCm, name).toBeGreaterThanOrEqual(50);
      expect(dbhCm, name).toBeLessThanOrEqual(ANY_TREE_LIMIT[1]);
    }
  });
});
