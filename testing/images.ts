import { fileURLToPath } from 'node:url';
import { randomFillSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Images for tests and benchmarks, generated (with sharp, or by hand for the pixel flood)
 * so that no binary test data is committed besides the real photos.
 */

/**
 * Where the real tree photos live (see ATTRIBUTION.md beside them). The one place to change
 * when they are copied into e2e/fixtures/photos.
 */
export const FIXTURE_PHOTOS_DIR = fileURLToPath(new URL('../e2e/fixtures/photos/', import.meta.url));
export const FIXTURE_PHOTOS = [
  'bigleaf-maple.jpg',
  'black-walnut-park.jpg',
  'elm-beside-building.jpg',
  'elm-open-ground.jpg',
  'redbud-small-tree.jpg',
] as const;
export type FixturePhoto = (typeof FIXTURE_PHOTOS)[number];

export function fixturePhoto(name: FixturePhoto): Buffer {
  return readFileSync(join(FIXTURE_PHOTOS_DIR, name));
}

/** Pixels with texture (so blur checks pass) over a colour, as raw 8-bit RGB. */
function texturedPixels(width: number, height: number, base: [number, number, number], amplitude: number): Buffer {
  const noise = randomFillSync(Buffer.alloc(width * height * 3));
  for (let i = 0; i < noise.length; i += 1) {
    const value = base[i % 3]! + ((noise[i]! / 255 - 0.5) * amplitude);
    noise[i] = Math.max(0, Math.min(255, Math.round(value)));
  }
  return noise;
}

function textured(width: number, height: number, base: [number, number, number] = [70, 140, 60], amplitude = 80) {
  return sharp(texturedPixels(width, height, base, amplitude), { raw: { width, height, channels: 3 } });
}

/** A small textured image in any format sharp writes; gif for the "wrong type" cases. */
export function sampleImage(format: 'jpeg' | 'png' | 'webp' | 'gif', width = 64, height = 48): Promise<Buffer> {
  return textured(width, height).toFormat(format).toBuffer();
}

/** The Royal Observatory, Greenwich (51°28'36.84" N): what a stored copy must never reveal. */
export const GPS_LATITUDE = 51.4769;

/** A real JPEG whose EXIF holds GPS latitude and longitude, a camera make and a date. */
export async function jpegWithGps(width = 800, height = 600): Promise<Buffer> {
  const jpeg = await textured(width, height)
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Phone 1', DateTime: '2026:05:01 10:00:00' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 28/1 36840/1000',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 0/1 0/1',
      },
    })
    .toBuffer();
  const latitude = await readGpsLatitude(jpeg);
  if (latitude === undefined || Math.abs(latitude - GPS_LATITUDE) > 0.001) {
    throw new Error('jpegWithGps: the GPS latitude did not reach the file');
  }
  return jpeg;
}

/**
 * The GPS latitude in degrees from a file's EXIF, or undefined when there is none. A minimal
 * TIFF walk (EXIF 2.3 sections 4.5 and 4.6.6): IFD0 -> GPS IFD pointer 0x8825 -> tag 0x0002,
 * three RATIONALs (degrees, minutes, seconds).
 */
export async function readGpsLatitude(image: Buffer): Promise<number | undefined> {
  const { exif } = await sharp(image).metadata();
  if (!exif) return undefined;
  const tiff = exif.subarray(exif.indexOf('Exif\0\0') >= 0 ? exif.indexOf('Exif\0\0') + 6 : 0);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (little ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (little ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const findTag = (ifd: number, tag: number) => {
    for (let i = 0, count = u16(ifd); i < count; i += 1) {
      const entry = ifd + 2 + i * 12;
      if (u16(entry) === tag) return u32(entry + 8);
    }
    return undefined;
  };
  const gpsIfd = findTag(u32(4), 0x8825);
  if (gpsIfd === undefined) return undefined;
  const latitude = findTag(gpsIfd, 0x0002);
  if (latitude === undefined) return undefined;
  const rational = (k: number) => u32(latitude + k * 8) / u32(latitude + k * 8 + 4);
  return rational(0) + rational(1) / 60 + rational(2) / 3600;
}

/**
 * 600x400 JPEG stored sideways with EXIF orientation 6 (display rotated 90 degrees clockwise):
 * its left half is red and its right half blue, so upright the top is red, the bottom blue.
 */
export async function rotatedJpeg(): Promise<Buffer> {
  const half = (colour: [number, number, number]) => textured(300, 400, colour, 30).png().toBuffer();
  return sharp({ create: { width: 600, height: 400, channels: 3, background: '#000000' } })
    .composite([
      { input: await half([220, 30, 30]), left: 0, top: 0 },
      { input: await half([30, 30, 220]), left: 300, top: 0 },
    ])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/**
 * A camera-sized JPEG (several MB) for size limits and benchmarks: a real photo stretched to
 * width x height with sensor-like noise, so its photo checks look like a real upload's.
 */
export async function bigJpeg(width = 4000, height = 3000, quality = 90): Promise<Buffer> {
  const pixels = await sharp(fixturePhoto('elm-open-ground.jpg')).resize(width, height, { fit: 'fill' }).raw().toBuffer();
  const noise = randomFillSync(Buffer.alloc(pixels.length));
  for (let i = 0; i < pixels.length; i += 1) {
    pixels[i] = Math.max(0, Math.min(255, pixels[i]! + ((noise[i]! % 25) - 12)));
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
}

/**
 * A pixel flood: a valid PNG of 20000x20000 (400 megapixels, 1.2 GB as RGB) in a few tens of
 * KB. Written by hand as 1-bit greyscale so making it costs milliseconds, not a 400 MP encode.
 */
export function pixelFlood(width = 20_000, height = 20_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  // Each row: filter byte 0, then width bits of zero (black).
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Degraded copies of a real photo for the photo checks. */
export const degrade = {
  blurred: (photo: Buffer) => sharp(photo).blur(3).jpeg().toBuffer(),
  /** About 2.3 stops under: every channel times 0.2. */
  dark: (photo: Buffer) => sharp(photo).linear(0.2, 0).jpeg().toBuffer(),
  /** Two stops over: every channel times 4, clipped. */
  overexposed: (photo: Buffer) => sharp(photo).linear(4, 0).jpeg().toBuffer(),
  tiny: (photo: Buffer) => sharp(photo).resize(200).jpeg().toBuffer(),
  /** Same texture and light, every hue turned half way round: no green left. */
  noVegetation: (photo: Buffer) => sharp(photo).modulate({ hue: 180 }).jpeg().toBuffer(),
};

/** A flat mid-grey JPEG: no texture, no colour. */
export function flatGrey(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#808080' } }).jpeg().toBuffer();
}

/** A plain blue rectangle (the "not a tree"): no vegetation, no bark. */
export function solidBlue(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 210 } } }).jpeg().toBuffer();
}
