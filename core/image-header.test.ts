import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FIXTURE_PHOTOS, fixturePhoto, jpegWithGps, pixelFlood, rotatedJpeg } from '../testing/images';
import { testLogoPng } from '../testing/logo';
import { detectImageType, HEADER_READ_BYTES, readImageHeader, readImageSize, shownSize } from './image-header';
import { cpuMs } from '../testing/cpu-time';

/** A real photo-like picture of `width` x `height` (a gradient with detail), as sharp makes it. */
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 60 } } }).composite([
    { input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 3}" r="${Math.min(width, height) / 4}" fill="#8a5"/></svg>`) },
  ]);

const GPS = { GPSLatitudeRef: 'N', GPSLatitude: '51/1 28/1 36840/1000' };

describe('readImageHeader', () => {
  it('reads a phone JPEG as stored, sideways with orientation 6 after its Exif (camera, GPS), and the size it is shown at', async () => {
    const jpeg = await picture(400, 300)
      .jpeg({ quality: 85 })
      .withExif({ IFD0: { Make: 'TestPhone', Model: 'Phone 12' }, IFD3: GPS })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const header = readImageHeader(jpeg);
    expect(header).toEqual({ width: 400, height: 300, orientation: 6 });
    expect(shownSize(header!)).toEqual({ width: 300, height: 400 });
  });

  it('reads JPEGs without Exif, progressive ones, and every orientation', async () => {
    expect(readImageHeader(await picture(450, 600).jpeg().toBuffer())).toEqual({ width: 450, height: 600, orientation: 1 });
    expect(readImageHeader(await picture(1001, 7).jpeg({ progressive: true }).toBuffer())).toEqual({ width: 1001, height: 7, orientation: 1 });
    for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const jpeg = await picture(64, 32).jpeg().withMetadata({ orientation }).toBuffer();
      expect(readImageHeader(jpeg)).toEqual({ width: 64, height: 32, orientation });
      expect(shownSize(readImageHeader(jpeg)!)).toEqual(orientation >= 5 ? { width: 32, height: 64 } : { width: 64, height: 32 });
    }
  });

  it('reads PNG, and WebP lossy, lossless and with Exif', async () => {
    expect(readImageHeader(await picture(640, 480).png().toBuffer())).toEqual({ width: 640, height: 480, orientation: 1 });
    expect(readImageHeader(await picture(641, 479).webp({ quality: 80 }).toBuffer())).toEqual({ width: 641, height: 479, orientation: 1 });
    expect(readImageHeader(await picture(5000, 3).webp({ lossless: true }).toBuffer())).toEqual({ width: 5000, height: 3, orientation: 1 });
    const exifWebp = await picture(300, 200).webp().withExif({ IFD3: GPS }).withMetadata({ orientation: 8 }).toBuffer();
    expect(readImageHeader(exifWebp)).toEqual({ width: 300, height: 200, orientation: 8 });
  });

  it('answers undefined for what is not a JPEG, PNG or WebP, or is cut before its size', async () => {
    expect(readImageHeader(new Uint8Array())).toBeUndefined();
    expect(readImageHeader(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(readImageHeader(await picture(20, 20).gif().toBuffer())).toBeUndefined();
    const jpeg = await picture(400, 300).jpeg().withExif({ IFD3: GPS }).withMetadata({ orientation: 6 }).toBuffer();
    // Every prefix of a real file either gives the right answer or none: never a wrong size, never a throw.
    for (let end = 0; end < 2_000; end += 1) {
      const header = readImageHeader(jpeg.subarray(0, end));
      if (header) expect(header).toEqual({ width: 400, height: 300, orientation: 6 });
    }
  });

  it("an attacker's file: lengths that lie, a frame header past the first 256 KB, a sea of fill bytes", () => {
    // Segment length 0 would stand still; 1 would step back.
    expect(readImageHeader(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0xff, 0xc0]))).toBeUndefined();
    expect(readImageHeader(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0xff, 0xc0]))).toBeUndefined();
    // Exif claiming 65,535 IFD entries and an IFD far outside the block: no orientation, no read past the end.
    const lying = Uint8Array.from([
      0xff, 0xd8, 0xff, 0xe1, 0x00, 0x16, ...[0x45, 0x78, 0x69, 0x66, 0, 0], ...[0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0xff, 0xff, 0x01, 0x12, 0x00, 0x03],
      0xff, 0xc0, 0x00, 0x11, 8, 0x01, 0x00, 0x02, 0x00, 3,
    ]);
    expect(readImageHeader(lying)).toEqual({ width: 512, height: 256, orientation: 1 });
    const farIfd = Uint8Array.from(lying);
    farIfd.set([0x7f, 0xff, 0xff, 0xff], 16);
    expect(readImageHeader(farIfd)).toEqual({ width: 512, height: 256, orientation: 1 });
    // A PNG chunk claiming 4 GB and a WebP chunk claiming 4 GB end the walk.
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...'IHDR'.split('').map((c) => c.charCodeAt(0)), 0, 0, 1, 0, 0, 0, 2, 0, 8, 2, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x74, 0x45, 0x58, 0x74]);
    expect(readImageHeader(png)).toEqual({ width: 256, height: 512, orientation: 1 });
    // The frame header 300 KB in, behind a run of padding segments: only the first 256 KB are read.
    const padded = new Uint8Array(300 * 1024 + 20);
    padded.set([0xff, 0xd8]);
    for (let i = 2; i + 65_537 < 300 * 1024; i += 65_537) padded.set([0xff, 0xe2, 0xff, 0xff], i);
    const sof = 2 + 65_537 * Math.floor((300 * 1024 - 2) / 65_537);
    padded.set([0xff, 0xc0, 0x00, 0x11, 8, 0x01, 0x00, 0x02, 0x00], sof);
    expect(sof).toBeGreaterThan(HEADER_READ_BYTES);
    expect(readImageHeader(padded)).toBeUndefined();
    // 10 MB of fill bytes after the start: answered at once.
    const fill = new Uint8Array(10 * 1024 * 1024).fill(0xff);
    fill[1] = 0xd8;
    // CPU time, not the wall clock (testing/cpu-time.ts): microseconds of work, a hog or not.
    expect(cpuMs(() => expect(readImageHeader(fill)).toBeUndefined())).toBeLessThan(200);
  });
});

/** What libvips itself reads from the header (sharp's metadata does not decode). */
async function libvipsSize(bytes: Buffer) {
  const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
  return { width, height };
}

/** The server's reading of a file, by the type its bytes show. */
function serverSize(bytes: Buffer) {
  const type = detectImageType(bytes);
  if (!type) throw new Error('not an accepted image');
  return readImageSize(bytes, type);
}

const canvas = (width: number, height: number, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background: { r: 40, g: 120, b: 60, alpha: 0.5 } } });

describe('readImageSize (the server: the whole file, failing closed)', () => {
  it('reads the five real photos as libvips does', async () => {
    for (const name of FIXTURE_PHOTOS) {
      const bytes = fixturePhoto(name);
      expect(serverSize(bytes), name).toEqual(await libvipsSize(bytes));
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
    for (const bytes of jpegs) expect(serverSize(bytes)).toEqual(await libvipsSize(bytes));
    // One walk: the browser's reading of the same files gives the same size.
    for (const bytes of jpegs) expect(readImageHeader(bytes)).toMatchObject(serverSize(bytes)!);
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
    for (const bytes of images) expect(serverSize(bytes)).toEqual(await libvipsSize(bytes));
  });

  it('reads the measured pixel bombs exactly, tall and wide', () => {
    expect(serverSize(pixelFlood(1, 39_000_000))).toEqual({ width: 1, height: 39_000_000 });
    expect(serverSize(pixelFlood(39_000_000, 1))).toEqual({ width: 39_000_000, height: 1 });
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
    for (const bytes of broken) expect(serverSize(bytes)).toBeNull();
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
      expect(serverSize(bytes)).toBeNull();
      expect(median(() => serverSize(bytes))).toBeLessThan(onePass);
    }
  });
});

function median(work: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) times.push(cpuMs(work));
  return times.sort((a, b) => a - b)[2]!;
}

describe('detectImageType', () => {
  it('knows JPEG, PNG and WebP by their bytes, and nothing else', async () => {
    expect(detectImageType(await canvas(8, 8).jpeg().toBuffer())).toBe('image/jpeg');
    expect(detectImageType(await canvas(8, 8).png().toBuffer())).toBe('image/png');
    expect(detectImageType(await canvas(8, 8).webp().toBuffer())).toBe('image/webp');
    expect(detectImageType(await canvas(8, 8).gif().toBuffer())).toBeUndefined();
    expect(detectImageType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(detectImageType(new TextEncoder().encode('RIFF\0\0\0\0WAVE'))).toBeUndefined();
    expect(detectImageType(new Uint8Array())).toBeUndefined();
  });
});
