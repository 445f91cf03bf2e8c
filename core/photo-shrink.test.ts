import { describe, expect, it } from 'vitest';
import { jpegName, SEND_MAX_EDGE, shrinkPhoto, shrunkSize } from './photo-shrink';

describe('shrunkSize', () => {
  it('brings a 12-megapixel phone photo to the long edge the server keeps, its shape kept', () => {
    expect(shrunkSize({ width: 3024, height: 4032 })).toEqual({ width: 1536, height: 2048 });
    expect(shrunkSize({ width: 4032, height: 3024 })).toEqual({ width: 2048, height: 1536 });
    expect(shrunkSize({ width: 4000, height: 3000 }, 2000)).toEqual({ width: 2000, height: 1500 });
  });

  it('never enlarges a photo already within the edge', () => {
    expect(shrunkSize({ width: 1200, height: 900 })).toEqual({ width: 1200, height: 900 });
    expect(shrunkSize({ width: 2048, height: 2048 })).toEqual({ width: 2048, height: 2048 });
    expect(shrunkSize({ width: 1, height: 1 })).toEqual({ width: 1, height: 1 });
  });

  it('keeps a very long, thin photo at least one pixel across', () => {
    expect(shrunkSize({ width: 12_000, height: 1 })).toEqual({ width: 2048, height: 1 });
    expect(shrunkSize({ width: 3, height: 12_000 })).toEqual({ width: 1, height: 2048 });
  });

  it('keeps the aspect ratio within a pixel for every shape a photo may have', () => {
    for (const [width, height] of [[4032, 3024], [8000, 1000], [2049, 2048], [5000, 4999], [3000, 12_000]] as const) {
      const out = shrunkSize({ width, height });
      expect(Math.max(out.width, out.height)).toBe(SEND_MAX_EDGE);
      const expectedShort = (Math.min(width, height) * SEND_MAX_EDGE) / Math.max(width, height);
      expect(Math.abs(Math.min(out.width, out.height) - expectedShort)).toBeLessThanOrEqual(0.5);
    }
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
