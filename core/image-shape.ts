import { LOGO_BOX } from './company-profile';

/**
 * The shapes of image the product takes, judged from the width and height a file's header
 * claims, before anything is decoded (docs/security.md, Image shapes). Decoding cost follows
 * the rows and columns as well as the pixel total: a PNG of 1 x 39,000,000 px is only 39
 * megapixels and a 76 KB file, yet it cost libvips 6-12 s, one row at a time (docs/security.md, Image shapes). So
 * each edge and the aspect ratio are bounded as well as the total, with figures no camera or
 * phone photo (or real logo) reaches. The limits are symmetric, so the EXIF orientation does
 * not matter.
 */
export interface ImageShapeLimits {
  /** The most pixels on either side. */
  maxEdge: number;
  /** The most times longer the long side may be than the short one. */
  maxAspect: number;
  /** The most pixels in all. */
  maxPixels: number;
}

/**
 * A tree photo. 40 megapixels is the pixel-flood guard of server/images/normalise.ts
 * (MAX_INPUT_PIXELS, the same figure): above a 12 to 24 MP phone photo and a 36 MP camera.
 * Within it a camera's frame is at most about 7,746 x 5,164 (3:2) or 8,433 x 4,743 (16:9), so
 * 12,000 px on a side is never reached by a photo as taken. The widest frames cameras make
 * are 16:9 (1.8:1) and the film panoramas 65:24 (XPan, 2.7:1) and 6x17 (2.8:1); a phone held
 * upright with a 20:9 screen crop is 2.2:1; 8:1 leaves room for a narrow crop of a tall tree.
 * The worst shape these allow, 12,000 x 1,500 (18 MP), decodes like an ordinary large photo.
 */
export const PHOTO_SHAPE: ImageShapeLimits = { maxEdge: 12_000, maxAspect: 8, maxPixels: 40_000_000 };

/**
 * A company logo, printed inside 600 x 200 px (core/company-profile.ts LOGO_BOX). 4,000 px is
 * more than six times the box's long side and covers a logo exported for print across an A4
 * page at 300 dpi (2,480 px); 10:1 takes a one-line wordmark (the box itself is 3:1); 8 MP
 * (4,000 x 2,000, or a 2,828 px square) is over 60 times the pixels kept.
 */
export const LOGO_SHAPE: ImageShapeLimits = { maxEdge: 4_000, maxAspect: 10, maxPixels: 8_000_000 };

export type ImageUse = 'photo' | 'logo';

export const IMAGE_SHAPES: Record<ImageUse, ImageShapeLimits> = { photo: PHOTO_SHAPE, logo: LOGO_SHAPE };

/**
 * What is wrong with a shape: `unreadable` (no usable size in the header), `edge` or `pixels`
 * (too large: the server answers 413) or `aspect` (not too large, a shape no photo or logo has:
 * 400). The message tells the user what to do.
 */
export interface ImageShapeProblem {
  kind: 'unreadable' | 'edge' | 'pixels' | 'aspect';
  message: string;
}

const WORDS = {
  photo: {
    types: 'a JPEG, PNG or WebP photo',
    smaller: 'send the photo as your phone or camera saved it, or a smaller copy',
    crop: 'crop it closer to the tree, or send the photo as your phone or camera saved it',
  },
  logo: {
    types: 'a PNG, JPEG or WebP logo',
    smaller: `export the logo at a smaller size (it is printed at most ${LOGO_BOX.width} x ${LOGO_BOX.height} pixels)`,
    crop: 'trim the empty space around it, or choose a less elongated version of the logo',
  },
} as const;

export function unreadableImageMessage(use: ImageUse): string {
  return `We couldn't read that image. Please upload ${WORDS[use].types}.`;
}

const count = (n: number) => n.toLocaleString('en-GB');

/** The problem with an image of `size` used as `use`, or null when its shape is one we take. */
export function imageShapeProblem(size: { width: number; height: number }, use: ImageUse): ImageShapeProblem | null {
  const { width, height } = size;
  const limits = IMAGE_SHAPES[use];
  const words = WORDS[use];
  const Noun = use === 'photo' ? 'A photo' : 'A logo';
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 1 || height < 1) {
    return { kind: 'unreadable', message: unreadableImageMessage(use) };
  }
  const dimensions = `This image is ${count(width)} x ${count(height)} pixels.`;
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (long > limits.maxEdge) {
    return {
      kind: 'edge',
      message: `${dimensions} ${Noun} may be at most ${count(limits.maxEdge)} pixels on each side: please ${words.smaller}.`,
    };
  }
  if (width * height > limits.maxPixels) {
    const megapixels = limits.maxPixels / 1_000_000;
    return {
      kind: 'pixels',
      message: `${dimensions} ${Noun} may be at most ${megapixels} megapixels: please ${words.smaller}.`,
    };
  }
  // Compared in whole numbers: long / short > maxAspect, without a fraction.
  if (long > limits.maxAspect * short) {
    return {
      kind: 'aspect',
      message: `${dimensions} ${Noun}'s long side may be at most ${limits.maxAspect} times its short side: please ${words.crop}.`,
    };
  }
  return null;
}
