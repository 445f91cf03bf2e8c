import { describe, expect, it } from 'vitest';
import { enteredSizesOf, readUserTreeDetails } from './normalise';
import { trunkLine } from './section-211';
import { DIAMETER_BAND_KEYS, DIAMETER_BANDS, HEIGHT_BAND_KEYS, HEIGHT_BANDS } from './questions';
import { diameterBandRange, heightBandRange } from './band-ranges';
import {
  CM_PER_IN,
  convertLength,
  diameterText,
  heightText,
  M_PER_FT,
  metresFromFeet,
  unitsOfAnalysis,
} from './units';

describe('heightText and diameterText', () => {
  it('shows a metric analysis in metres and centimetres with feet and inches in brackets', () => {
    expect(heightText(72, 'metric', null)).toBe('22 m (72 ft)');
    expect(diameterText(35, 'metric', null)).toBe('89 cm (35 in)');
  });

  it('shows an imperial analysis in feet and inches with the metric figure in brackets', () => {
    expect(heightText(72, 'imperial', null)).toBe('72 ft (22 m)');
    expect(diameterText(35, 'imperial', null)).toBe('35 in (89 cm)');
  });

  it('shows typed sizes back exactly as typed, whatever the system', () => {
    // 90 cm is 35.4 in, stored as 35 in; from the inches alone it would read 89 cm.
    expect(diameterText(35, 'metric', { value: 90, unit: 'cm' })).toBe('90 cm (35 in)');
    expect(heightText(72, 'metric', { value: 22, unit: 'm' })).toBe('22 m (72 ft)');
    expect(heightText(41, 'metric', { value: 40.5, unit: 'ft' })).toBe('40.5 ft (12.5 m)');
    expect(diameterText(20, 'imperial', { value: 50.5, unit: 'cm' })).toBe('50.5 cm (20 in)');
  });

  it('brings any height typed in whole or half metres back as typed through the stored whole feet', () => {
    for (let halves = 2; halves <= 140; halves += 1) {
      const metres = halves / 2;
      const read = readUserTreeDetails({ height: { value: metres, unit: 'm' } });
      if (!read.ok || !read.sizes.heightFt) throw new Error(`${metres} m was refused`);
      expect(metresFromFeet(read.sizes.heightFt.value)).toBe(metres);
    }
  });

  it('uses the exact definitions of the foot and inch', () => {
    expect(M_PER_FT).toBe(0.3048);
    expect(CM_PER_IN).toBe(2.54);
  });
});

describe('a trunk typed as 55 cm', () => {
  it('is kept as typed beside the whole inches the estimate uses, and every printer says 55 cm, never 55.9 cm', () => {
    const read = readUserTreeDetails({ diameter: { value: 55, unit: 'cm' } });
    if (!read.ok || !read.sizes.dbhIn) throw new Error('55 cm was refused');
    // The estimate's figure: 55 cm is 21.65 in, whole 22 in, which is 55.88 cm worked back.
    expect(read.sizes.dbhIn.value).toBe(22);
    const entered = enteredSizesOf(read.sizes, { height: 'assumed', diameter: 'user' });
    expect(entered?.diameter).toEqual({ value: 55, unit: 'cm' });
    expect(diameterText(read.sizes.dbhIn.value, 'imperial', entered?.diameter)).toBe('55 cm (22 in)');
    expect(trunkLine({ kind: 'typed', size: entered!.diameter!, by: 'estimate' })).toBe('Trunk 55 cm across: over the 7.5 cm threshold, so notice is needed');
    expect(diameterText(22, 'metric', null)).toBe('56 cm (22 in)');
  });

  it('keeps a size measured on the photo as the metric measuring tool showed it (50 cm, 12 m), not worked back from whole inches', () => {
    // 2 cm a pixel from a 2 m door: a 12 m tree and a 0.5 m trunk (testing/analysis.ts DOOR_MEASUREMENT).
    const read = readUserTreeDetails({
      measurement: {
        imageWidth: 1000,
        imageHeight: 1500,
        reference: { top: { x: 100, y: 1300 }, bottom: { x: 100, y: 1400 }, lengthM: 2, label: 'A door (2.0 m)' },
        tree: { top: { x: 500, y: 800 }, base: { x: 500, y: 1400 } },
        trunk: { left: { x: 490, y: 1330 }, right: { x: 515, y: 1330 } },
      },
    });
    if (!read.ok) throw new Error(read.problems.join('; '));
    const used = { height: 'measured', diameter: 'measured' } as const;
    expect(enteredSizesOf(read.sizes, used, undefined, 'metric')).toEqual({ height: { value: 12, unit: 'm' }, diameter: { value: 50, unit: 'cm' } });
    expect(diameterText(read.sizes.dbhIn!.value, 'metric', { value: 50, unit: 'cm' })).toBe('50 cm (20 in)');
    // In imperial the tool showed whole feet and inches, which the estimate keeps anyway.
    expect(enteredSizesOf(read.sizes, used, undefined, 'imperial')).toBeNull();
  });

  it('keeps a size written in the project details as written when the estimate used it', () => {
    const written = { height: { value: 12.5, unit: 'm' as const }, diameter: { value: 55, unit: 'cm' as const } };
    expect(enteredSizesOf(null, { height: 'description', diameter: 'description' }, written)).toEqual(written);
    // A model's reading won: what the details said is not what the estimate used.
    expect(enteredSizesOf(null, { height: 'model', diameter: 'model' }, written)).toBeNull();
  });
});

describe('unitsOfAnalysis', () => {
  it('is the system the sizes were typed in, else the preference', () => {
    const metric = { height: { value: 22, unit: 'm' as const }, diameter: { value: 90, unit: 'cm' as const } };
    expect(unitsOfAnalysis(metric, 'imperial')).toBe('metric');
    expect(unitsOfAnalysis({ height: { value: 72, unit: 'ft' }, diameter: null }, 'metric')).toBe('imperial');
    expect(unitsOfAnalysis(null, 'imperial')).toBe('imperial');
    expect(unitsOfAnalysis({ height: { value: 22, unit: 'm' }, diameter: { value: 35, unit: 'in' } }, 'imperial')).toBe('imperial');
  });
});

describe('band ranges', () => {
  it('gives the metric bands as drawn and the same bounds in whole feet and inches', () => {
    expect(heightBandRange('about_two_storey', 'metric')).toBe(HEIGHT_BANDS.about_two_storey.range);
    expect(heightBandRange('about_two_storey', 'imperial')).toBe('13 to 26 ft');
    for (const band of HEIGHT_BAND_KEYS) {
      const metres = HEIGHT_BANDS[band].range.match(/\d+/g)!.map(Number);
      const feet = heightBandRange(band, 'imperial').match(/\d+/g)!.map(Number);
      expect(feet).toEqual(metres.map((m) => Math.round(m / M_PER_FT)));
    }
    for (const band of DIAMETER_BAND_KEYS) {
      const cm = DIAMETER_BANDS[band].range.match(/\d+/g)!.map(Number);
      const inches = diameterBandRange(band, 'imperial').match(/\d+/g)!.map(Number);
      expect(inches).toEqual(cm.map((c) => Math.round(c / CM_PER_IN)));
    }
  });
});

describe('convertLength, the one conversion', () => {
  it('follows the 1959 inch and foot', () => {
    expect(convertLength(1, 'ft', 'm')).toBe(M_PER_FT);
    expect(convertLength(1, 'in', 'cm')).toBe(CM_PER_IN);
    expect(convertLength(2, 'ft', 'in')).toBe(24);
    expect(convertLength(36, 'in', 'ft')).toBe(3);
    expect(convertLength(14.5, 'in', 'in')).toBe(14.5);
  });

  it('reads every unit the project details use', () => {
    expect(convertLength(22, 'm', 'ft')).toBeCloseTo(72.178, 3);
    expect(convertLength(90, 'cm', 'in')).toBeCloseTo(35.433, 3);
    expect(convertLength(254, 'mm', 'in')).toBeCloseTo(10, 9);
    expect(convertLength(50, 'ft', 'm')).toBeCloseTo(15.24, 9);
    expect(convertLength(0.5, 'm', 'cm')).toBeCloseTo(50, 9);
  });
});
