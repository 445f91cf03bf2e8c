import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../core/errors';
import { FIXTURE_PHOTOS, fixturePhoto, jpegWithGps, pixelFlood, rotatedJpeg } from '../../testing/images';
import { testLogoPng } from '../../testing/logo';
import { readImageHeader, refuseImageShape } from './image-header';
import { detectImageType } from './upload';

/** What libvips itself reads from the header (sharp's metadata does not decode). */
async function libvipsSize(bytes: Buffer) {
  const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
  return { width, height };
}

function header(bytes: Buffer) {
  const type = detectImageType(bytes);
  if (!type) throw new Error('not an accepted image');
  return readImageHeader(bytes, type);
}

function refusal(bytes: Buffer, use: 'photo' | 'logo' = 'photo'): DomainError {
  try {
    refuseImageShape(bytes, detectImageType(bytes)!, use, 'image');
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const canvas = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: { r: 40, g: 120, b: 60, alpha: 0.5 } } });

describe('readImageHeader', () => {
  it('reads the five real photos as libvips does', async () => {
    for (const name of FIXTURE_PHOTOS) {
      const bytes = fixturePhoto(name);
      expect(header(bytes), name).toEqual(await libvipsSize(bytes));
    }
  });

  it('reads JPEGs baseline, progressive, with EXIF, GPS and an orientation, as libvips does', async () => {
    const jpegs = [
      await canvas(321, 123).jpeg().toBuffer(),
      await canvas(1000, 37).jpeg({ progressive: true }).toBuffer(),
      await canvas(640, 480).jpeg().withMetadata({ orientation: 6 }).withIccProfile('p3').toBuffer(),
      await jpegWithGps(),
      await rotatedJpeg(),
    ];
    for (const bytes of jpegs) expect(header(bytes)).toEqual(await libvipsSize(bytes));
  });

  it('reads PNGs of every kind, and WebPs lossy, lossless and extended, as libvips does', async () => {
    const images = [
      await testLogoPng(),
      await canvas(300, 17, 4).png().toBuffer(),
      await canvas(99, 1001).png({ palette: true }).toBuffer(),
      await canvas(64, 48).png({ progressive: true }).toBuffer(),
      await canvas(50, 20).toColourspace('rgb16').png().toBuffer(),
      await canvas(333, 111).webp().toBuffer(),
      await canvas(16383, 3).webp({ lossless: true }).toBuffer(),
      await canvas(257, 129, 4).webp().toBuffer(),
      await canvas(800, 600).webp().withMetadata({ orientation: 3 }).toBuffer(),
    ];
    for (const bytes of images) expect(header(bytes)).toEqual(await libvipsSize(bytes));
  });

  it('reads the measured pixel bombs exactly, tall and wide', () => {
    expect(header(pixelFlood(1, 39_000_000))).toEqual({ width: 1, height: 39_000_000 });
    expect(header(pixelFlood(39_000_000, 1))).toEqual({ width: 39_000_000, height: 1 });
  });

  it('fails closed on a header it cannot follow', async () => {
    const jpeg = await canvas(64, 48).jpeg().toBuffer();
    const broken = [
      jpeg.subarray(0, 20), // cut before the frame header
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xfe, 0x00, 0x04, 0x61, 0x62, 0x00, 0x01]), jpeg.subarray(2)]), // junk after a comment, where a marker belongs
      Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 0, 0, 0, 0, 0, 0]), // a scan before any frame
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0, 0, 0, 0]), // a segment length under 2
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]), // PNG with no IHDR
      Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00', 'latin1'), // VP8 without its start code
      Buffer.from('RIFF\x10\x00\x00\x00WEBPJUNK\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00', 'latin1'),
    ];
    for (const bytes of broken) expect(header(bytes)).toBeNull();
  });

  it('reads a crafted 10 MB JPEG of empty segments in far less time than one pass over its bytes', () => {
    // FF E1 00 02 repeated: 2.6 million empty segments, each a legal step. A byte-by-byte walk
    // (the image-size package's) spent 1.3-2.0 s on such a file; this one stops after its
    // bounded number of segments and calls it unreadable.
    const size = 10 * 1024 * 1024;
    const crafted = Buffer.alloc(size);
    crafted.set([0xff, 0xd8]);
    for (let at = 2; at + 4 <= size; at += 4) crafted.set([0xff, 0xe1, 0x00, 0x02], at);
    const fill = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(size, 0xff)]);

    const onePass = median(() => crc32(crafted));
    for (const bytes of [crafted, fill]) {
      expect(header(bytes)).toBeNull();
      expect(median(() => header(bytes))).toBeLessThan(onePass);
    }
  });
});

function median(work: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[2]!;
}

describe('refuseImageShape', () => {
  it('passes a real photo and refuses the bombs as too large (413), before any decode', () => {
    expect(() => refuseImageShape(fixturePhoto('elm-open-ground.jpg'), 'image/jpeg', 'photo', 'image')).not.toThrow();
    for (const bomb of [pixelFlood(1, 39_000_000), pixelFlood(39_000_000, 1), pixelFlood()]) {
      const error = refusal(bomb);
      expect(error.status).toBe(413);
      expect(error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(error.message).toMatch(/at most 12,000 pixels on each side/);
    }
  });

  it('refuses a shape no photo has with 400 naming the field, and an unreadable header with 400', () => {
    const narrow = refusal(pixelFlood(100, 9000));
    expect(narrow.status).toBe(400);
    expect(narrow.details).toEqual({ image: [narrow.message] });
    expect(narrow.message).toMatch(/at most 8 times its short side/);
    const unreadable = refusal(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40)]));
    expect(unreadable.status).toBe(400);
    expect(unreadable.message).toBe("We couldn't read that image. Please upload a JPEG, PNG or WebP photo.");
  });

  it('holds a logo to the logo limits', () => {
    expect(refusal(pixelFlood(4032, 3024), 'logo').status).toBe(413);
    expect(() => refuseImageShape(pixelFlood(4032, 3024), 'image/png', 'photo', 'image')).not.toThrow();
  });
});
