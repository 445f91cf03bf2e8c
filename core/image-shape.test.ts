import { describe, expect, it } from 'vitest';
import { imageShapeProblem, LOGO_SHAPE, PHOTO_SHAPE, unreadableImageMessage } from './image-shape';

const kind = (width: number, height: number, use: 'photo' | 'logo' = 'photo') => imageShapeProblem({ width, height }, use)?.kind ?? null;

describe('imageShapeProblem: photos', () => {
  it('takes what phones and cameras save, either way up', () => {
    const photos: [number, number][] = [
      [4032, 3024], // 12 MP phone, 4:3
      [5712, 4284], // 24 MP phone
      [7360, 4912], // 36 MP camera, 3:2
      [7744, 5163], // just under 40 MP at 3:2
      [8000, 5000], // exactly 40 MP
      [3840, 2160], // 16:9 video still
      [2400, 1080], // a 20:9 phone screen
      [6000, 2214], // XPan 65:24
      [640, 480],
      [1, 1],
    ];
    for (const [w, h] of photos) {
      expect(kind(w, h), `${w} x ${h}`).toBeNull();
      expect(kind(h, w), `${h} x ${w}`).toBeNull();
    }
  });

  it('takes the limits themselves and refuses one past each', () => {
    expect(kind(PHOTO_SHAPE.maxEdge, PHOTO_SHAPE.maxEdge / PHOTO_SHAPE.maxAspect)).toBeNull(); // 12,000 x 1,500
    expect(kind(PHOTO_SHAPE.maxEdge + 1, 2000)).toBe('edge');
    expect(kind(800, 100)).toBeNull(); // 8:1 exactly
    expect(kind(801, 100)).toBe('aspect');
    expect(kind(100, 801)).toBe('aspect');
    expect(kind(8000, 5001)).toBe('pixels');
  });

  it('refuses the measured attacker shapes, tall and wide, and the square flood', () => {
    expect(kind(1, 39_000_000)).toBe('edge');
    expect(kind(39_000_000, 1)).toBe('edge');
    expect(kind(20_000, 20_000)).toBe('edge');
    expect(kind(1, 12_000)).toBe('aspect');
    expect(kind(65_535, 1)).toBe('edge');
  });

  it('tells the user the size, the limit and what to do', () => {
    expect(imageShapeProblem({ width: 1, height: 39_000_000 }, 'photo')?.message).toBe(
      'This image is 1 x 39,000,000 pixels. A photo may be at most 12,000 pixels on each side: please send the photo as your phone or camera saved it, or a smaller copy.',
    );
    expect(imageShapeProblem({ width: 9000, height: 6000 }, 'photo')?.message).toBe(
      'This image is 9,000 x 6,000 pixels. A photo may be at most 40 megapixels: please send the photo as your phone or camera saved it, or a smaller copy.',
    );
    expect(imageShapeProblem({ width: 300, height: 9000 }, 'photo')?.message).toBe(
      "This image is 300 x 9,000 pixels. A photo's long side may be at most 8 times its short side: please crop it closer to the tree, or send the photo as your phone or camera saved it.",
    );
  });

  it('calls a size that is missing, zero, fractional or negative unreadable', () => {
    for (const [w, h] of [
      [0, 100],
      [100, 0],
      [-5, 100],
      [1.5, 100],
      [Number.NaN, 100],
      [Number.POSITIVE_INFINITY, 100],
    ]) {
      expect(imageShapeProblem({ width: w!, height: h! }, 'photo')).toEqual({ kind: 'unreadable', message: unreadableImageMessage('photo') });
    }
    expect(unreadableImageMessage('photo')).toBe("We couldn't read that image. Please upload a JPEG, PNG or WebP photo.");
  });
});

describe('imageShapeProblem: logos', () => {
  it('takes logos as designers export them, wordmarks included', () => {
    for (const [w, h] of [
      [900, 300],
      [600, 200],
      [2480, 800], // across an A4 page at 300 dpi
      [2000, 2000],
      [3000, 300], // a 10:1 wordmark
      [4000, 2000],
      [64, 64],
    ] as const) {
      expect(kind(w, h, 'logo'), `${w} x ${h}`).toBeNull();
      expect(kind(h, w, 'logo'), `${h} x ${w}`).toBeNull();
    }
  });

  it('refuses far smaller than a photo', () => {
    expect(kind(LOGO_SHAPE.maxEdge + 1, 1000, 'logo')).toBe('edge');
    expect(kind(3000, 2700, 'logo')).toBe('pixels');
    expect(kind(3001, 300, 'logo')).toBe('aspect');
    expect(kind(1, 39_000_000, 'logo')).toBe('edge');
    expect(kind(39_000_000, 1, 'logo')).toBe('edge');
    // A photo-sized image is no logo.
    expect(kind(4032, 3024, 'logo')).toBe('edge');
  });

  it('speaks of the logo', () => {
    expect(imageShapeProblem({ width: 5000, height: 1000 }, 'logo')?.message).toBe(
      'This image is 5,000 x 1,000 pixels. A logo may be at most 4,000 pixels on each side: please export the logo at a smaller size (it is printed at most 600 x 200 pixels).',
    );
    expect(imageShapeProblem({ width: 3500, height: 200 }, 'logo')?.message).toBe(
      "This image is 3,500 x 200 pixels. A logo's long side may be at most 10 times its short side: please trim the empty space around it, or choose a less elongated version of the logo.",
    );
    expect(unreadableImageMessage('logo')).toBe("We couldn't read that image. Please upload a PNG, JPEG or WebP logo.");
  });
});
