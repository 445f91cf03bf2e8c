import sharp, { type Sharp } from 'sharp';
import { fixturePhoto, type FixturePhoto } from '../testing/images';

/**
 * A 12-megapixel phone photo as a phone saves it, for e2e/photo-shrink.spec.ts and
 * bench/phone-photo.bench.ts: a real tree photo (450 x 600, 3:4) stretched to 3024 x 4032 with
 * sensor-like noise, stored sideways (4032 x 3024 pixels) with EXIF orientation 6 ("rotate 90
 * degrees clockwise to show"), as phones store portrait shots, and EXIF naming the camera and
 * the GPS position it was taken at. The noise is seeded, so every run sends the same bytes;
 * amplitude 20 at quality 85 comes to 2.5 MB (2,505,111 bytes), a 12-MP phone JPEG's typical size.
 */
export const PHONE = { width: 3024, height: 4032 } as const;
export const WEB_PHOTO: FixturePhoto = 'elm-beside-building.jpg';

/** Greenwich, as testing/images.ts GPS_LATITUDE: what the server must never receive. */
const GPS = { GPSLatitudeRef: 'N', GPSLatitude: '51/1 28/1 36840/1000', GPSLongitudeRef: 'W', GPSLongitude: '0/1 0/1 0/1' };

/** The upright picture the phone saw, at the size asked: what a correct copy must look like. */
export function uprightPhone(width: number = PHONE.width, height: number = PHONE.height) {
  return sharp(fixturePhoto(WEB_PHOTO)).resize(width, height, { fit: 'fill' });
}

export async function phonePhoto(amplitude = 20, quality = 85): Promise<Buffer> {
  const pixels = await uprightPhone().raw().toBuffer();
  let seed = 0x2545f491;
  for (let i = 0; i < pixels.length; i += 1) {
    // xorshift32 (Marsaglia 2003), as bench/lib.ts tenMegabyteJpeg: the same file every run.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    pixels[i] = Math.max(0, Math.min(255, pixels[i]! + ((seed >>> 0) % amplitude) - (amplitude >> 1)));
  }
  // Stored turned a quarter anticlockwise: orientation 6 turns it back a quarter clockwise to show.
  const sideways = await sharp(pixels, { raw: { width: PHONE.width, height: PHONE.height, channels: 3 } }).rotate(270).raw().toBuffer();
  return sharp(sideways, { raw: { width: PHONE.height, height: PHONE.width, channels: 3 } })
    .jpeg({ quality })
    .withExif({ IFD0: { Make: 'TestPhone', Model: 'Phone 12', DateTime: '2026:05:01 10:00:00' }, IFD3: GPS })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/**
 * How far an image's pixels are from the upright picture, and from it turned upside down,
 * both at 48 x 64: a copy shown the right way up is much nearer the first.
 */
export async function distanceFromUpright(image: Buffer): Promise<{ upright: number; turned: number }> {
  const small = (s: Sharp) => s.resize(48, 64, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const [got, upright, turned] = await Promise.all([
    small(sharp(image)),
    small(uprightPhone(48, 64)),
    small(uprightPhone(48, 64).rotate(180)),
  ]);
  const mean = (other: Buffer) => got.reduce((sum, value, i) => sum + Math.abs(value - other[i]!), 0) / got.length;
  return { upright: mean(upright), turned: mean(turned) };
}
