import { describe, expect, it } from 'vitest';
import { decodeSize, jpegName, SEND_MAX_EDGE, shrinkPhoto, shrunkSize } from './photo-shrink';

describe('shrunkSize', () => {
  it("brings a 12-megapixel phone photo to the 1024 px long edge sent (the model's own), its shape kept", () => {
    expect(shrunkSize({ width: 3024, height: 4032 })).toEqual({ width: 768, height: 1024 });
    expect(shrunkSize({ width: 4032, height: 3024 })).toEqual({ width: 1024, height: 768 });
    expect(shrunkSize({ width: 4000, height: 3000 }, 2000)).toEqual({ width: 2000, height: 1500 });
  });

  it('never enlarges a photo already within the edge', () => {
    expect(shrunkSize({ width: 1000, height: 750 })).toEqual({ width: 1000, height: 750 });
    expect(shrunkSize({ width: 1024, height: 1024 })).toEqual({ width: 1024, height: 1024 });
    expect(shrunkSize({ width: 1, height: 1 })).toEqual({ width: 1, height: 1 });
  });

  it('keeps a very long, thin photo at least one pixel across', () => {
    expect(shrunkSize({ width: 12_000, height: 1 })).toEqual({ width: 1024, height: 1 });
    expect(shrunkSize({ width: 3, height: 12_000 })).toEqual({ width: 1, height: 1024 });
  });

  it('keeps the aspect ratio within a pixel for every shape a photo may have', () => {
    for (const [width, height] of [[4032, 3024], [8000, 1000], [1025, 1024], [5000, 4999], [3000, 12_000]] as const) {
      const out = shrunkSize({ width, height });
      expect(Math.max(out.width, out.height)).toBe(SEND_MAX_EDGE);
      const expectedShort = (Math.min(width, height) * SEND_MAX_EDGE) / Math.max(width, height);
      expect(Math.abs(Math.min(out.width, out.height) - expectedShort)).toBeLessThanOrEqual(0.5);
    }
  });
});

/** The scale n/8 Chromium's JPEG decoder picks for a size asked (JPEGImageDecoder::DesiredScaleNumerator). */
const chromiumEighths = (asked: { width: number; height: number }, stored: { width: number; height: number }) =>
  Math.min(8, Math.floor(8 * Math.sqrt((asked.width * asked.height) / (stored.width * stored.height))));

describe('decodeSize', () => {
  it('asks for a 12 MP JPEG at 3/8 scale: the smallest n/8 whose long edge still covers 1024 px', () => {
    const stored = { width: 4032, height: 3024 };
    const asked = decodeSize(stored);
    expect(asked).toEqual({ width: 1513, height: 1135 });
    expect(chromiumEighths(asked, stored)).toBe(3);
    // 2/8 would be 1008 px long: under the edge sent, so a copy scaled back up.
    expect((4032 * 2) / 8).toBeLessThan(SEND_MAX_EDGE);
  });

  it('never asks for a decode smaller than the edge sent, nor larger than the photo, for every size a camera makes', () => {
    for (const [width, height] of [[4032, 3024], [3024, 4032], [6000, 4000], [8064, 6048], [1025, 768], [2000, 1500], [12_000, 900], [4000, 1]] as const) {
      const asked = decodeSize({ width, height });
      const eighths = chromiumEighths(asked, { width, height });
      expect(Math.max(width, height) * (eighths / 8), `${width} x ${height}`).toBeGreaterThanOrEqual(SEND_MAX_EDGE);
      expect(asked.width).toBeLessThanOrEqual(width);
      expect(asked.height).toBeLessThanOrEqual(height);
    }
    expect(decodeSize({ width: 1000, height: 750 })).toEqual({ width: 1000, height: 750 });
  });
});

describe('jpegName', () => {
  it('keeps the name the visitor chose, with the type the photo now has', () => {
    expect(jpegName('IMG_0042.JPG')).toBe('IMG_0042.jpg');
    expect(jpegName('oak in the garden.png')).toBe('oak in the garden.jpg');
    expect(jpegName('tree.v2.webp')).toBe('tree.v2.jpg');
    expect(jpegName('tree')).toBe('tree.jpg');
    expect(jpegName('.jpg')).toBe('photo.jpg');
  });
});

describe('shrinkPhoto outside a browser', () => {
  it('hands the file back as chosen when there is nothing to draw with (the server then checks it)', async () => {
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'oak.jpg', { type: 'image/jpeg' });
    expect(await shrinkPhoto(file)).toBe(file);
  });
});
