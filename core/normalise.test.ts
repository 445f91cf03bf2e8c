import { describe, expect, it } from 'vitest';
import {
  normaliseConfidence,
  normaliseMinutes,
  normaliseSizes,
  normaliseSpecies,
  readNumber,
  readUserTreeDetails,
  storedMinutes,
  wholeSize,
} from './normalise';
import type { PhotoMeasurement } from './photo-measure';

describe('sizes from a model or a reading', () => {
  it('rounds fractional sizes to whole inches and feet', () => {
    expect(wholeSize('dbhIn', 14.5)).toBe(15);
    expect(wholeSize('dbhIn', 14.49)).toBe(14);
    expect(wholeSize('heightFt', 45.7)).toBe(46);
    expect(wholeSize('crownSpreadFt', 29.5)).toBe(30);
  });

  it('reads numeric text the way some servers send numbers', () => {
    expect(readNumber(' 14.5 ')).toBe(14.5);
    expect(wholeSize('dbhIn', '14.5')).toBe(15);
    expect(readNumber('about 14')).toBeNull();
    expect(readNumber(Number.NaN)).toBeNull();
    expect(readNumber(Number.POSITIVE_INFINITY)).toBeNull();
    expect(readNumber(true)).toBeNull();
  });

  it('turns negative, zero and absurd sizes into null', () => {
    for (const raw of [-5, 0, 0.5, 181, 9999, 1e9, Number.NaN, null, undefined, 'big']) {
      expect(wholeSize('dbhIn', raw), String(raw)).toBeNull();
    }
    for (const raw of [-40, 0, 2, 231, 5000]) expect(wholeSize('heightFt', raw), String(raw)).toBeNull();
    expect(wholeSize('dbhIn', 1)).toBe(1);
    expect(wholeSize('dbhIn', 180)).toBe(180);
    expect(wholeSize('heightFt', 3)).toBe(3);
    expect(wholeSize('heightFt', 230)).toBe(230);
  });

  it('says what it ignored, and stays quiet about what was never given', () => {
    const { sizes, factors } = normaliseSizes({ dbhIn: 9999, heightFt: -3, crownSpreadFt: null }, 'The AI model');
    expect(sizes).toEqual({ dbhIn: null, heightFt: null, crownSpreadFt: null });
    expect(factors).toEqual([
      'The AI model gave a trunk diameter of 9999 in, outside 1-180 in; it was ignored',
      'The AI model gave a height of -3 ft, outside 3-230 ft; it was ignored',
    ]);
    expect(normaliseSizes({ dbhIn: 14.5, heightFt: 45 }, 'x')).toEqual({ sizes: { dbhIn: 15, heightFt: 45, crownSpreadFt: null }, factors: [] });
  });
});

describe('minutes and confidence', () => {
  it('makes minutes whole, bounded and in order', () => {
    expect(normaliseMinutes(120, 30)).toEqual({ min: 30, max: 120 });
    expect(normaliseMinutes(-5, 12.6)).toEqual({ min: 1, max: 13 });
    expect(normaliseMinutes(50, 1e9)).toEqual({ min: 50, max: 10_000 });
    expect(normaliseMinutes('20', '30')).toEqual({ min: 20, max: 30 });
    expect(normaliseMinutes(null, 30)).toBeNull();
  });

  it('keeps confidence in 0..1 and reads a percentage', () => {
    expect(normaliseConfidence(0.7)).toBe(0.7);
    expect(normaliseConfidence(70)).toBe(0.7);
    expect(normaliseConfidence(3)).toBe(0.03);
    expect(normaliseConfidence(1000)).toBe(1);
    expect(normaliseConfidence(-1)).toBe(0);
    expect(normaliseConfidence('high')).toBe(0);
  });

  it('repairs stored minutes', () => {
    expect(storedMinutes(12.4)).toBe(12);
    expect(storedMinutes(-3)).toBe(0);
    expect(storedMinutes(null)).toBe(0);
  });
});

describe('species names', () => {
  it('matches a qualified name to the listed species and its density', () => {
    expect(normaliseSpecies('English oak')).toMatchObject({ name: 'Oak', kind: 'broadleaf', greenDensityKgM3: 1050, densityAssumed: false });
    expect(normaliseSpecies('  Scots   pine ')).toMatchObject({ name: 'Scots pine', kind: 'conifer', densityAssumed: false });
  });

  it('keeps an unknown name as text with the density assumed', () => {
    // A name the list lacks but whose genus it has takes the genus ("Wollemi pine" -> Pine).
    expect(normaliseSpecies('Wollemi pine')).toMatchObject({ name: 'Pine', densityAssumed: false });
    expect(normaliseSpecies('Kowhai')).toEqual({ name: 'Kowhai', species: null, kind: 'broadleaf', greenDensityKgM3: 1000, densityAssumed: true });
  });

  it('treats "unknown" and blanks as no name at all', () => {
    for (const raw of ['unknown', 'Not sure', 'N/A', '   ', '', null, 42, '???']) {
      expect(normaliseSpecies(raw).name, String(raw)).toBeNull();
    }
  });

  it('marks a kind without a species as an assumed density', () => {
    expect(normaliseSpecies('conifer')).toMatchObject({ name: 'Conifer', kind: 'conifer', densityAssumed: true });
  });

  it('cuts an endless name', () => {
    expect(normaliseSpecies('x'.repeat(500)).name).toHaveLength(80);
  });
});

describe("the user's tree details", () => {
  const measurement = (overrides: Partial<PhotoMeasurement> = {}): PhotoMeasurement => ({
    imageWidth: 1000,
    imageHeight: 1500,
    // A 2 m door is 100 px tall: 2 cm a pixel.
    reference: { top: { x: 100, y: 1300 }, bottom: { x: 100, y: 1400 }, lengthM: 2, label: 'A door (2.0 m)' },
    // 600 px of tree: 12 m = 39.4 ft.
    tree: { top: { x: 500, y: 800 }, base: { x: 500, y: 1400 } },
    // 25 px of trunk: 0.5 m = 19.7 in.
    trunk: { left: { x: 490, y: 1330 }, right: { x: 515, y: 1330 } },
    ...overrides,
  });

  it('converts typed metric and imperial values to whole feet and inches, keeping them as typed', () => {
    const metric = readUserTreeDetails({ height: { value: 12, unit: 'm' }, diameter: { value: 50, unit: 'cm' } });
    expect(metric).toEqual({
      ok: true,
      sizes: {
        species: null,
        heightFt: { value: 39, source: 'user', entered: { value: 12, unit: 'm' } },
        dbhIn: { value: 20, source: 'user', entered: { value: 50, unit: 'cm' } },
        measured: null,
      },
    });
    const imperial = readUserTreeDetails({ height: { value: 40.5, unit: 'ft' }, diameter: { value: 14.5, unit: 'in' } });
    expect(imperial.ok && [imperial.sizes.heightFt, imperial.sizes.dbhIn]).toEqual([
      { value: 41, source: 'user', entered: { value: 40.5, unit: 'ft' } },
      { value: 15, source: 'user', entered: { value: 14.5, unit: 'in' } },
    ]);
  });

  it('uses the middle of a band', () => {
    const r = readUserTreeDetails({ height: { band: 'taller_than_house' }, diameter: { band: 'thicker_than_plate' } });
    expect(r.ok && [r.sizes.heightFt, r.sizes.dbhIn]).toEqual([{ value: 38, source: 'band' }, { value: 15, source: 'band' }]);
  });

  it('recomputes the measurement from the taps, below a typed value and above a band', () => {
    const measured = readUserTreeDetails({ measurement: measurement(), height: { band: 'much_taller' } });
    expect(measured.ok && measured.sizes).toMatchObject({ heightFt: { value: 39, source: 'measured' }, dbhIn: { value: 20, source: 'measured' }, measured: { heightFt: 39, dbhIn: 20 } });
    const typed = readUserTreeDetails({ measurement: measurement(), height: { value: 50, unit: 'ft' } });
    expect(typed.ok && typed.sizes.heightFt).toEqual({ value: 50, source: 'user', entered: { value: 50, unit: 'ft' } });
    expect(typed.ok && typed.sizes.measured).toEqual({ heightFt: 39, dbhIn: 20 });
  });

  it('matches the species name the picker sent', () => {
    const r = readUserTreeDetails({ species: 'Scots pine' });
    expect(r.ok && r.sizes.species).toMatchObject({ name: 'Scots pine', kind: 'conifer' });
  });

  it('refuses sizes that are not a tree, and measurements that cannot be used, in words', () => {
    expect(readUserTreeDetails({ height: { value: 150, unit: 'm' } })).toEqual({
      ok: false,
      problems: ['A height of 150 m is not a tree we can quote for: give one between 3-230 ft (0.9-70 m)'],
    });
    expect(readUserTreeDetails({ diameter: { value: 600, unit: 'cm' } }).ok).toBe(false);
    const tiny = readUserTreeDetails({ measurement: measurement({ reference: { top: { x: 1, y: 1 }, bottom: { x: 1, y: 5 }, lengthM: 2, label: 'door' } }) });
    expect(tiny.ok).toBe(false);
    expect(!tiny.ok && tiny.problems[0]).toMatch(/reference is too small/);
    const outside = readUserTreeDetails({ measurement: measurement({ tree: { top: { x: 500, y: 10 }, base: { x: 500, y: 9000 } } }) });
    expect(!outside.ok && outside.problems[0]).toMatch(/outside the photo/);
    const absurd = readUserTreeDetails({
      measurement: measurement({ reference: { top: { x: 100, y: 1300 }, bottom: { x: 100, y: 1400 }, lengthM: 90, label: 'typed' } }),
    });
    expect(!absurd.ok && absurd.problems.join(' ')).toMatch(/measured height is 540 m/);
  });
});
