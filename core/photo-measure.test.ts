import { describe, expect, it } from 'vitest';
import { measureFromPhoto, MIN_REFERENCE_PIXELS, type PhotoMeasurement } from './photo-measure';

/*
 * The geometry on known images: the browser test's generated photo (1200 x 1600 px at
 * 100 px per metre: a 2 m bar, a 12 m pole 0.5 m wide), the same photo at half size, a
 * leaning tree, and the taps a finger really makes (a few pixels off).
 */
const POLE_PHOTO: PhotoMeasurement = {
  imageWidth: 1200,
  imageHeight: 1600,
  reference: { top: { x: 200, y: 1300 }, bottom: { x: 200, y: 1500 }, lengthM: 2, label: 'Your reference (2 m)' },
  tree: { top: { x: 700, y: 300 }, base: { x: 700, y: 1500 } },
  trunk: { left: { x: 675, y: 1370 }, right: { x: 725, y: 1372 } },
};

function sizes(m: PhotoMeasurement) {
  const result = measureFromPhoto(m);
  if ('problem' in result) throw new Error(result.problem);
  return result;
}

const scaled = (m: PhotoMeasurement, k: number): PhotoMeasurement =>
  JSON.parse(JSON.stringify(m), (key, value) => (key === 'x' || key === 'y' || key.startsWith('image') ? value * k : value));

describe('measureFromPhoto', () => {
  it('reads the 12 m pole and its 0.5 m width against the 2 m bar', () => {
    const { heightM, diameterM } = sizes(POLE_PHOTO);
    expect(heightM).toBeCloseTo(12, 6);
    expect(diameterM).toBeCloseTo(0.5, 6);
  });

  it('gives the same sizes for the same photo at another resolution', () => {
    const half = sizes(scaled(POLE_PHOTO, 0.5));
    expect(half.heightM).toBeCloseTo(12, 6);
    expect(half.diameterM).toBeCloseTo(0.5, 6);
  });

  it('measures a leaning tree along its lean, and a trunk across, whatever the tap heights', () => {
    const leaning: PhotoMeasurement = { ...POLE_PHOTO, tree: { top: { x: 700 + 600, y: 700 }, base: { x: 700, y: 1500 } } };
    expect(sizes(leaning).heightM).toBeCloseTo(10, 6);
  });

  it('stays within the browser test tolerance when every tap is 3 px off', () => {
    const off: PhotoMeasurement = {
      ...POLE_PHOTO,
      reference: { ...POLE_PHOTO.reference, top: { x: 203, y: 1303 }, bottom: { x: 197, y: 1497 } },
      tree: { top: { x: 697, y: 297 }, base: { x: 703, y: 1503 } },
      trunk: { left: { x: 678, y: 1370 }, right: { x: 722, y: 1370 } },
    };
    const { heightM, diameterM } = sizes(off);
    expect(Math.abs(heightM! - 12) / 12).toBeLessThan(0.05);
    expect(Math.abs(diameterM! - 0.5) / 0.5).toBeLessThan(0.15);
  });

  it('leaves out what was not tapped', () => {
    expect(sizes({ ...POLE_PHOTO, tree: undefined })).toEqual({ heightM: null, diameterM: expect.closeTo(0.5, 6) });
    expect(sizes({ ...POLE_PHOTO, trunk: undefined }).diameterM).toBeNull();
  });

  it('refuses a reference too short on the photo to measure by, or without a length', () => {
    const tiny = { ...POLE_PHOTO, reference: { ...POLE_PHOTO.reference, bottom: { x: 200, y: 1300 + MIN_REFERENCE_PIXELS - 1 } } };
    expect(measureFromPhoto(tiny)).toEqual({ problem: expect.stringMatching(/too small/) });
    expect(measureFromPhoto({ ...POLE_PHOTO, reference: { ...POLE_PHOTO.reference, lengthM: 0 } })).toEqual({
      problem: expect.stringMatching(/above zero/),
    });
  });
});
