import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../core/errors';
import {
  bigJpeg,
  degrade,
  FIXTURE_PHOTOS,
  fixturePhoto,
  flatGrey,
  GPS_LATITUDE,
  jpegWithGps,
  pixelFlood,
  readGpsLatitude,
  rotatedJpeg,
  sampleImage,
} from '../../testing/images';
import { MAX_INPUT_PIXELS, normaliseImage } from './normalise';

const ISSUE = {
  small: /^Photo is small \(\d+x\d+\); a larger photo gives a better estimate$/,
  dark: 'Photo is too dark; retake it in daylight for a better estimate',
  bright: /^Photo is too bright/,
  blurred: 'Photo is blurred; retake for a better estimate',
  vegetation: 'Little vegetation in frame: is this a tree? Make sure the whole tree is in the photo',
};

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('normaliseImage: the stored and model copies', () => {
  it('applies the EXIF orientation (600x400 with orientation 6 stands upright as 400x600)', async () => {
    const image = await normaliseImage(await rotatedJpeg());
    expect([image.width, image.height]).toEqual([400, 600]);
    expect([image.checks.width, image.checks.height]).toEqual([400, 600]);
    const meta = await sharp(image.stored).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([400, 600, undefined]);
    // The sideways file's left half is red: turned clockwise it is on top.
    const { data } = await sharp(image.stored).raw().toBuffer({ resolveWithObject: true });
    const [r, , b] = data.subarray(0, 3);
    expect(r).toBeGreaterThan(150);
    expect(b).toBeLessThan(100);
  });

  it('caps the stored copy at 2048 px and the model copy at 1024 px, both JPEG', async () => {
    const image = await normaliseImage(await bigJpeg(4000, 3000));
    const stored = await sharp(image.stored).metadata();
    const forModel = await sharp(image.forModel).metadata();
    expect([stored.format, stored.width, stored.height]).toEqual(['jpeg', 2048, 1536]);
    expect([forModel.format, forModel.width, forModel.height]).toEqual(['jpeg', 1024, 768]);
    expect([image.width, image.height]).toEqual([2048, 1536]);
    expect([image.checks.width, image.checks.height]).toEqual([4000, 3000]);
    expect(image.stored.length).toBeLessThan(2 * 1024 * 1024);
  });

  it('never enlarges a small photo', async () => {
    const image = await normaliseImage(fixturePhoto('redbud-small-tree.jpg'));
    expect([image.width, image.height]).toEqual([700, 525]);
    const forModel = await sharp(image.forModel).metadata();
    expect([forModel.width, forModel.height]).toEqual([700, 525]);
  });

  it('strips EXIF, GPS included, from both copies', async () => {
    const upload = await jpegWithGps();
    expect(await readGpsLatitude(upload)).toBeCloseTo(GPS_LATITUDE, 3);
    const image = await normaliseImage(upload);
    for (const copy of [image.stored, image.forModel]) {
      const meta = await sharp(copy).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(await readGpsLatitude(copy)).toBeUndefined();
      expect(copy.includes('TestCam')).toBe(false);
    }
  });

  it('re-encodes PNG and WebP uploads as JPEG', async () => {
    for (const format of ['png', 'webp'] as const) {
      const image = await normaliseImage(await sampleImage(format, 300, 200));
      expect((await sharp(image.stored).metadata()).format).toBe('jpeg');
    }
  });
});

describe('normaliseImage: refusals', () => {
  it('refuses a pixel flood (a small PNG of 20000x20000) with 413 from its header', async () => {
    const flood = pixelFlood();
    expect(flood.length).toBeLessThan(200 * 1024);
    const error = await rejection(normaliseImage(flood));
    expect(error.status).toBe(413);
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toBe('Image dimensions are too large (maximum 40 megapixels).');
  });

  it('refuses just over 40 megapixels and accepts the limit itself', async () => {
    expect((await rejection(normaliseImage(pixelFlood(8000, 5001)))).status).toBe(413);
    expect(8000 * 5000).toBe(MAX_INPUT_PIXELS);
    const atLimit = await normaliseImage(pixelFlood(8000, 5000));
    expect([atLimit.width, atLimit.height]).toEqual([2048, 1280]);
  });

  it('answers 400 for bytes that are not a decodable image', async () => {
    const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 7)]);
    const jpeg = await sampleImage('jpeg', 800, 600);
    for (const bytes of [garbage, jpeg.subarray(0, jpeg.length / 2), Buffer.from('hello')]) {
      const error = await rejection(normaliseImage(bytes));
      expect(error.status).toBe(400);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.message).toBe("We couldn't read that image. Please upload a JPEG, PNG or WebP photo.");
    }
  });
});

describe('normaliseImage: photo checks', () => {
  it.each(FIXTURE_PHOTOS)('finds no issue in the real photo %s', async (name) => {
    const { checks } = await normaliseImage(fixturePhoto(name));
    expect(checks.issues).toEqual([]);
    expect(checks.brightness).toBeGreaterThan(100);
    expect(checks.sharpness).toBeGreaterThan(100);
    expect(checks.vegetationShare).toBeGreaterThan(0.6);
  });

  const issuesOf = async (bytes: Buffer | Promise<Buffer>) => (await normaliseImage(await bytes)).checks.issues;

  it.each(FIXTURE_PHOTOS)('names exactly what is wrong with degraded copies of %s', async (name) => {
    const photo = fixturePhoto(name);
    expect(await issuesOf(degrade.blurred(photo))).toEqual([ISSUE.blurred]);
    expect(await issuesOf(degrade.dark(photo))).toEqual([ISSUE.dark]);
    const bright = await issuesOf(degrade.overexposed(photo));
    expect(bright).toHaveLength(1);
    expect(bright[0]).toMatch(ISSUE.bright);
    const small = await issuesOf(degrade.tiny(photo));
    expect(small).toHaveLength(1);
    expect(small[0]).toMatch(ISSUE.small);
  });

  it('says the size of a small photo', async () => {
    const issues = await issuesOf(degrade.tiny(fixturePhoto('redbud-small-tree.jpg')));
    expect(issues).toEqual(['Photo is small (200x150); a larger photo gives a better estimate']);
  });

  it('asks "is this a tree?" when the frame holds no vegetation', async () => {
    for (const name of ['bigleaf-maple.jpg', 'elm-open-ground.jpg'] as const) {
      expect(await issuesOf(degrade.noVegetation(fixturePhoto(name)))).toEqual([ISSUE.vegetation]);
    }
  });

  it('flags a flat grey frame as blurred and without vegetation', async () => {
    const { checks } = await normaliseImage(await flatGrey());
    expect(checks.sharpness).toBe(0);
    expect(checks.vegetationShare).toBe(0);
    expect(checks.issues).toEqual([ISSUE.blurred, ISSUE.vegetation]);
  });
});
