import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../core/errors';
import { MODEL_MAX_EDGE } from '../../core/photo-shrink';
import { fixturePhoto, jpegWithGps, readGpsLatitude } from '../../testing/images';
import { cleanJpegSize, iccProfileIsWellFormed } from './clean-jpeg';
import { normaliseImage } from './normalise';

/**
 * A photo that arrives as the browser's copy (a clean baseline JPEG within the model's edge) is
 * kept byte for byte; anything carrying metadata, hidden bytes or another kind of JPEG goes the
 * long way and comes out re-encoded without them.
 */

/** The copy a browser makes of a photo (core/photo-shrink.ts): baseline JPEG at 0.8 with an sRGB profile, as Chromium writes. */
const browserCopy = (edge = MODEL_MAX_EDGE) =>
  sharp(fixturePhoto('bigleaf-maple.jpg'))
    .resize(edge, edge, { fit: 'inside' })
    .jpeg({ quality: 80 })
    .withIccProfile('srgb')
    .toBuffer();

/** `jpeg` with a segment put in just after SOI. */
const withSegment = (jpeg: Buffer, marker: number, body: Buffer) => {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length + 2);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, marker]), length, body, jpeg.subarray(2)]);
};

/** `jpeg` with its first `marker` segment's body replaced by `body`. */
const replacingSegment = (jpeg: Buffer, marker: number, body: Buffer) => {
  for (let at = 2; at + 4 <= jpeg.length; at += 2 + jpeg.readUInt16BE(at + 2)) {
    if (jpeg[at + 1] !== marker) continue;
    const length = Buffer.alloc(2);
    length.writeUInt16BE(body.length + 2);
    return Buffer.concat([jpeg.subarray(0, at + 2), length, body, jpeg.subarray(at + 2 + jpeg.readUInt16BE(at + 2))]);
  }
  throw new Error(`no segment 0x${marker.toString(16)}`);
};

/** The ICC profile the browser's copy carries (sharp's sRGB, laid out as Chromium's: 480 bytes, the TRCs sharing one curve). */
const profileOf = (jpeg: Buffer) => {
  const at = jpeg.indexOf(Buffer.from('ICC_PROFILE\0'));
  return Buffer.from(jpeg.subarray(at + 14, at - 2 + jpeg.readUInt16BE(at - 2)));
};
const iccSegment = (profile: Buffer, chunk = 1, chunks = 1) => Buffer.concat([Buffer.from('ICC_PROFILE\0'), Buffer.from([chunk, chunks]), profile]);

/** JFIF 1.01's APP0 body: version, units (1: dots per inch), 72 x 72, and a thumbnail's width and height. */
const jfif = (thumbnail: [number, number] = [0, 0]) => Buffer.from([...Buffer.from('JFIF\0'), 1, 1, 1, 0, 72, 0, 72, ...thumbnail]);

/** `profile` with the 32-bit big-endian value at `at` replaced. */
const patched = (profile: Buffer, at: number, value: number) => {
  const copy = Buffer.from(profile);
  copy.writeUInt32BE(value, at);
  return copy;
};

describe('cleanJpegSize', () => {
  it("passes the browser's copy, with its size", async () => {
    const copy = await browserCopy();
    const meta = await sharp(copy).metadata();
    expect(cleanJpegSize(copy, MODEL_MAX_EDGE)).toEqual({ width: meta.width, height: meta.height });
  });

  it('fails a photo larger than the edge, a progressive one, and one with EXIF, XMP, a comment or a second profile', async () => {
    const copy = await browserCopy();
    const fails = {
      larger: await browserCopy(MODEL_MAX_EDGE + 100),
      progressive: await sharp(copy).jpeg({ progressive: true }).toBuffer(),
      exif: await jpegWithGps(),
      xmp: withSegment(copy, 0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>')),
      comment: withSegment(copy, 0xfe, Buffer.from('taken at 10 Acacia Avenue')),
      twoProfiles: withSegment(copy, 0xe2, Buffer.from('ICC_PROFILE\0\x01\x01hello')),
      oversizedProfile: withSegment(await sharp(copy).toBuffer(), 0xe2, Buffer.concat([Buffer.from('ICC_PROFILE\0\x01\x01'), Buffer.alloc(9000)])),
    };
    for (const [name, bytes] of Object.entries(fails)) expect(cleanJpegSize(bytes, MODEL_MAX_EDGE), name).toBeNull();
  });

  it('keeps a bare 16-byte JFIF header and a well-formed sRGB profile', async () => {
    const copy = await browserCopy();
    const withJfif = withSegment(copy, 0xe0, jfif());
    expect(cleanJpegSize(withJfif, MODEL_MAX_EDGE)).not.toBeNull();
    const profile = profileOf(copy);
    expect(profile.length).toBe(480);
    expect(iccProfileIsWellFormed(profile)).toBe(true);
  });

  it('fails a JFIF APP0 with anything after its 16 bytes: text, a thumbnail, a second header', async () => {
    const copy = await browserCopy();
    const fails = {
      script: withSegment(copy, 0xe0, Buffer.concat([jfif(), Buffer.from('<script>alert(1)</script>')])),
      gps: withSegment(copy, 0xe0, Buffer.concat([jfif(), Buffer.from('GPS 51.4769N 0.0005W')])),
      thumbnail: withSegment(copy, 0xe0, Buffer.concat([jfif([2, 2]), Buffer.alloc(12, 0x80)])),
      thumbnailSizeOnly: withSegment(copy, 0xe0, jfif([1, 0])),
      extension: withSegment(copy, 0xe0, Buffer.concat([Buffer.from('JFXX\0\x10'), Buffer.alloc(64, 0x80)])),
      twoHeaders: withSegment(withSegment(copy, 0xe0, jfif()), 0xe0, jfif()),
    };
    for (const [name, bytes] of Object.entries(fails)) expect(cleanJpegSize(bytes, MODEL_MAX_EDGE), name).toBeNull();
  });

  it('fails an ICC profile whose size, signature, tag table or chunking is not what it claims, or that hides bytes', async () => {
    const copy = await browserCopy();
    const profile = profileOf(copy);
    const block = Buffer.alloc(3400, 'lat=51.4769;lon=-0.0005;<script>alert(1)</script>');
    const fails = {
      arbitraryBlock: iccSegment(block),
      sizeTooLarge: iccSegment(patched(profile, 0, profile.length + 4)),
      sizeTooSmall: iccSegment(patched(profile, 0, profile.length - 4)),
      // 3.4 KB after the tags, the header's size written to match: no tag holds those bytes.
      blockAfterTags: iccSegment(patched(Buffer.concat([profile, block]), 0, profile.length + block.length)),
      signature: iccSegment(Buffer.concat([profile.subarray(0, 36), Buffer.from('acsq'), profile.subarray(40)])),
      tagPastTheEnd: iccSegment(patched(profile, 132 + 8, profile.length)),
      tagInTheHeader: iccSegment(patched(profile, 132 + 4, 16)),
      tagCountPastTheEnd: iccSegment(patched(profile, 128, 0xffffffff)),
      tagCountOneMore: iccSegment(patched(profile, 128, profile.readUInt32BE(128) + 1)),
      firstOfTwoChunks: iccSegment(profile, 1, 2),
      secondChunk: iccSegment(profile, 2, 2),
      headerOnly: iccSegment(profile.subarray(0, 100)),
    };
    for (const [name, body] of Object.entries(fails)) expect(cleanJpegSize(replacingSegment(copy, 0xe2, body), MODEL_MAX_EDGE), name).toBeNull();
    // The same profile, unchanged, passes in the same place.
    expect(cleanJpegSize(replacingSegment(copy, 0xe2, iccSegment(profile)), MODEL_MAX_EDGE)).not.toBeNull();
  });

  it('fails a picture with anything after its end or hidden in its scan (an appended page, a second image)', async () => {
    const copy = await browserCopy();
    const appended = Buffer.concat([copy, Buffer.from('<script>alert(1)</script>')]);
    const secondImage = Buffer.concat([copy.subarray(0, copy.length - 2), await browserCopy(64)]);
    const cutShort = copy.subarray(0, copy.length - 1000);
    expect(cleanJpegSize(appended, MODEL_MAX_EDGE)).toBeNull();
    expect(cleanJpegSize(secondImage, MODEL_MAX_EDGE)).toBeNull();
    expect(cleanJpegSize(cutShort, MODEL_MAX_EDGE)).toBeNull();
  });

  it("reads an attacker's 10 MB scan once, and stops at a flood of segments", async () => {
    const copy = await browserCopy(64);
    const sos = copy.indexOf(Buffer.from([0xff, 0xda]));
    // 10 MB of stuffed 0xFF00 pairs: every byte is looked at once, nothing is allocated.
    const stuffed = Buffer.concat([copy.subarray(0, sos + 14), Buffer.alloc(10 * 1024 * 1024, Buffer.from([0xff, 0x00])), Buffer.from([0xff, 0xd9])]);
    expect(cleanJpegSize(stuffed, MODEL_MAX_EDGE)).toEqual({ width: 48, height: 64 });
    // Endless empty DQT segments: refused after a few dozen, however many follow.
    const flood = Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(10 * 1024 * 1024 - 2, Buffer.from([0xff, 0xdb, 0x00, 0x02]))]);
    expect(cleanJpegSize(flood, MODEL_MAX_EDGE)).toBeNull();
  });
});

describe('normaliseImage keeps a clean copy as it came', () => {
  it("stores and sends the model the browser's copy byte for byte, and measures it", async () => {
    const copy = await browserCopy();
    const image = await normaliseImage(copy);
    expect(image.stored.equals(copy)).toBe(true);
    expect(image.forModel.equals(copy)).toBe(true);
    expect([image.width, image.height]).toEqual([768, 1024]);
    expect(image.checks.issues).toEqual([]);
    expect(image.checks.vegetationShare).toBeGreaterThan(0.5);
  });

  it('re-encodes a photo with GPS or a hidden page, dropping them, and refuses a clean-looking one whose scan is damaged', async () => {
    const withGps = await normaliseImage(await jpegWithGps());
    expect(await readGpsLatitude(withGps.stored)).toBeUndefined();

    const copy = await browserCopy();
    const appended = await normaliseImage(Buffer.concat([copy, Buffer.from('<script>alert(1)</script>')]));
    expect(appended.stored.includes(Buffer.from('<script>'))).toBe(false);
    expect(appended.stored.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));

    // Cut in the middle of its scan and given an end marker: it passes the walk, and the decode refuses it.
    const damaged = Buffer.concat([copy.subarray(0, Math.floor(copy.length / 2)), Buffer.from([0xff, 0xd9])]);
    expect(cleanJpegSize(damaged, MODEL_MAX_EDGE)).not.toBeNull();
    const error = await normaliseImage(damaged).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_ERROR');
  });

  it('re-encodes a photo whose JFIF header or profile carries more, storing none of it', async () => {
    const copy = await browserCopy();
    const script = Buffer.from('<script>alert(1)</script>');
    const afterJfif = await normaliseImage(withSegment(copy, 0xe0, Buffer.concat([jfif(), script])));
    const afterTags = await normaliseImage(replacingSegment(copy, 0xe2, iccSegment(patched(Buffer.concat([profileOf(copy), script]), 0, 480 + script.length))));
    for (const image of [afterJfif, afterTags]) {
      expect(image.stored.equals(copy)).toBe(false);
      expect(image.stored.includes(script)).toBe(false);
    }
  });

  it('encodes a small photo once for both copies on the long way', async () => {
    const image = await normaliseImage(await jpegWithGps());
    expect(image.forModel).toBe(image.stored);
  });
});
