import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HEADER_READ_BYTES, readImageHeader, shownSize } from './image-header';

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
    const started = performance.now();
    expect(readImageHeader(fill)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(200);
  });
});
