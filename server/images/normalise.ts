import { DomainError } from '../../core/errors';
import { MODEL_MAX_EDGE } from '../../core/photo-shrink';
import { cleanJpegSize } from './clean-jpeg';
import { loadSharp } from './sharp';

export { MODEL_MAX_EDGE };

/** What the pixels honestly show; the local provider never claims more. */
export interface PhotoChecks {
  /** Size of the decoded, orientation-corrected original. */
  width: number;
  height: number;
  /** Mean luminance, 0 (black) to 255 (white). */
  brightness: number;
  /** Standard deviation of the Laplacian of a 512 px greyscale copy; low means blurred. */
  sharpness: number;
  /** Share of pixels that look like foliage or bark-green vegetation, 0..1. */
  vegetationShare: number;
  /** Factor texts for what is wrong, e.g. "Photo is blurred; retake for a better estimate". */
  issues: string[];
}

export interface NormalisedImage {
  /** Re-encoded JPEG, at most 2048 px on the long edge, orientation applied, no metadata. */
  stored: Buffer;
  /** Smaller JPEG (about 1024 px) that a vision model is sent. */
  forModel: Buffer;
  width: number;
  height: number;
  checks: PhotoChecks;
}

/** docs/product.md, Constants: the stored and forwarded image is at most 2048 px on the long edge. */
export const STORED_MAX_EDGE = 2048;
/**
 * Pixel-flood guard: 40 megapixels is above a 12 to 24 MP phone photo and a 36 MP camera
 * (a phone's full-resolution 48 MP mode is refused). A PNG of a few tens of KB can claim
 * 20000x20000 (400 MP, 1.2 GB decoded), so we refuse on the header's size before decoding,
 * and libvips refuses again on its own (limitInputPixels).
 */
export const MAX_INPUT_PIXELS = 40_000_000;

/** quality 85 keeps a photo visually lossless; mozjpeg's trellis search costs time for little. */
const JPEG = { quality: 85, mozjpeg: false } as const;
const ANALYSIS_EDGE = 512;
const THUMBNAIL_EDGE = 128;

/**
 * The thresholds of the photo checks, calibrated on the five real photos in the shared
 * fixtures (sharp daylight trees: none may raise an issue) and on degraded copies of them
 * (testing/images.ts `degrade`). Measured values are quoted beside each threshold.
 */
export const PHOTO_THRESHOLDS = {
  /** Shortest side in px of the original: fewer leave a whole tree no bark or leaf texture. Fixtures 447-525. */
  minShortSide: 400,
  /** Mean luma 0-255. Fixtures 109-118 (auto-exposure aims at mid-grey); 1.5 stops under 38-41, 2.3 stops under 22-23. */
  minBrightness: 40,
  /** Mean luma. Two stops over (x4, clipped) measures 206-224. */
  maxBrightness: 200,
  /** Laplacian std-dev at 512 px. Fixtures 106-134; Gaussian blur sigma 1.5 gives 15-20, sigma 2 8-12, sigma 3 4-6. */
  minSharpness: 15,
  /** Vegetation share. Fixtures 0.70-0.84; hue turned 180 degrees 0.004-0.21; grey, text, sky and road 0. */
  minVegetationShare: 0.15,
} as const;

const tooManyPixels = () =>
  new DomainError('PAYLOAD_TOO_LARGE', 'Image dimensions are too large (maximum 40 megapixels).');
const unreadable = () =>
  new DomainError('VALIDATION_ERROR', "We couldn't read that image. Please upload a JPEG, PNG or WebP photo.");

/**
 * Re-encodes an upload for storage and for the vision model, and measures what its pixels
 * honestly show (docs/product.md, Analysis). The bytes are decoded once, to at most 2048 px with the
 * EXIF orientation applied; every output is derived from those pixels. No output keeps any
 * metadata: sharp writes none unless asked (keepExif/withMetadata), so GPS never leaves here.
 *
 * A photo that arrives as a clean baseline JPEG within the model's edge (server/images/clean-jpeg.ts:
 * no metadata, upright, nothing hidden; the copy the widget and the dashboard make) is stored
 * and sent to the model as it came: re-encoding it would only lose quality, and the work left
 * is the one reduced decode that measures it, the same as for a web-sized photo
 * (bench/results/phone-photo.md). One that fits the model's edge after the long way is encoded
 * once, for both.
 */
export async function normaliseImage(bytes: Buffer): Promise<NormalisedImage> {
  const clean = cleanJpegSize(bytes, MODEL_MAX_EDGE);
  if (clean) return keptAsSent(bytes, clean);

  const original = await readSize(bytes);
  if (original.width * original.height > MAX_INPUT_PIXELS) throw tooManyPixels();

  const working = await decode(bytes);
  const sharp = await loadSharp();
  const fromWorking = () => sharp(working.data, { raw: working.info });
  const fitsModel = Math.max(working.info.width, working.info.height) <= MODEL_MAX_EDGE;
  const [stored, smaller, analysis] = await Promise.all([
    fromWorking().jpeg(JPEG).toBuffer(),
    fitsModel ? undefined : fromWorking().resize(MODEL_MAX_EDGE, MODEL_MAX_EDGE, { fit: 'inside' }).jpeg(JPEG).toBuffer(),
    fromWorking()
      .resize(ANALYSIS_EDGE, ANALYSIS_EDGE, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  ]);
  const checks = measurePhoto(original, analysis, await thumbnailOf(analysis));
  return { stored, forModel: smaller ?? stored, width: working.info.width, height: working.info.height, checks };
}

/**
 * A clean JPEG kept byte for byte: decoded once, already smaller (libjpeg scales while it
 * decodes), for the measuring alone. failOn 'warning' reads the whole scan, so a cut-short
 * or damaged file is refused here as it would be on the long way.
 */
async function keptAsSent(bytes: Buffer, size: { width: number; height: number }): Promise<NormalisedImage> {
  const sharp = await loadSharp();
  let analysis: RawImage;
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' })
      .resize(ANALYSIS_EDGE, ANALYSIS_EDGE, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    analysis = { data, info: { width: info.width, height: info.height, channels: info.channels } };
  } catch {
    throw unreadable();
  }
  const checks = measurePhoto(size, analysis, await thumbnailOf(analysis));
  return { stored: bytes, forModel: bytes, width: size.width, height: size.height, checks };
}

async function thumbnailOf(analysis: RawImage): Promise<RawImage> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(analysis.data, { raw: analysis.info })
    .resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, info: { width: info.width, height: info.height, channels: info.channels } };
}

/** Orientation-corrected size from the header alone: a flood is refused before any decoding. */
async function readSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!meta.width || !meta.height) throw unreadable();
    return meta.autoOrient;
  } catch (error) {
    throw error instanceof DomainError ? error : unreadable();
  }
}

interface RawImage {
  data: Buffer;
  info: { width: number; height: number; channels: 1 | 2 | 3 | 4 };
}

/**
 * The single decode: orientation applied, at most 2048 px, transparency on white (as a page
 * shows it), 8-bit sRGB. failOn stays at sharp's 'warning', its advice for untrusted input,
 * so a truncated or damaged file is refused instead of analysed half-grey.
 */
async function decode(bytes: Buffer): Promise<RawImage> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' })
      .autoOrient()
      .resize(STORED_MAX_EDGE, STORED_MAX_EDGE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data, info: { width: info.width, height: info.height, channels: info.channels } };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooManyPixels();
    throw unreadable();
  }
}

/** The pixel checks behind the local provider's honest warnings (PhotoChecks above). */
function measurePhoto(
  original: { width: number; height: number },
  analysis: RawImage,
  thumbnail: RawImage,
): PhotoChecks {
  const luma = toLuma(analysis);
  const brightness = mean(luma);
  const sharpness = laplacianStdDev(luma, analysis.info.width, analysis.info.height);
  const vegetationShare = vegetationShareOf(thumbnail);
  const t = PHOTO_THRESHOLDS;
  const issues: string[] = [];
  if (Math.min(original.width, original.height) < t.minShortSide) {
    issues.push(`Photo is small (${original.width}x${original.height}); a larger photo gives a better estimate`);
  }
  if (brightness < t.minBrightness) issues.push('Photo is too dark; retake it in daylight for a better estimate');
  if (brightness > t.maxBrightness) issues.push('Photo is too bright or washed out; retake it out of direct glare for a better estimate');
  if (sharpness < t.minSharpness) issues.push('Photo is blurred; retake for a better estimate');
  if (vegetationShare < t.minVegetationShare) {
    issues.push('Little vegetation in frame: is this a tree? Make sure the whole tree is in the photo');
  }
  return {
    width: original.width,
    height: original.height,
    brightness: round(brightness, 1),
    sharpness: round(sharpness, 1),
    vegetationShare: round(vegetationShare, 3),
    issues,
  };
}

/** Rec. 601 luma (the weights JPEG itself uses), one byte a pixel. */
function toLuma({ data, info }: RawImage): Float32Array {
  const n = info.width * info.height;
  const luma = new Float32Array(n);
  for (let i = 0, p = 0; i < n; i += 1, p += info.channels) {
    luma[i] = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!;
  }
  return luma;
}

/**
 * Variance-of-Laplacian focus measure (Pech-Pacheco et al., ICPR 2000), as its std-dev.
 * Computed here rather than with sharp's convolve, which clamps the negative half to 0.
 */
function laplacianStdDev(luma: Float32Array, width: number, height: number): number {
  if (width < 3 || height < 3) return 0;
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      const i = y * width + x;
      const v = luma[i - width]! + luma[i + width]! + luma[i - 1]! + luma[i + 1]! - 4 * luma[i]!;
      sum += v;
      sumSq += v * v;
      n += 1;
    }
  }
  const m = sum / n;
  return Math.sqrt(Math.max(0, sumSq / n - m * m));
}

/**
 * Share of thumbnail pixels that look like a tree. Foliage: the excess-green index on
 * chromatic coordinates, 2g - r - b (Woebbecke et al. 1995), above 0.05. Bark and shaded
 * trunks: darker, low-saturation browns, red >= green >= blue with red - blue 12 to 70.
 * Both cut-offs were chosen on the fixtures; sky, walls, roads and greys score neither.
 * A black-and-white photo scores 0: it can show no vegetation colour, so it is asked too.
 */
function vegetationShareOf({ data, info }: RawImage): number {
  const n = info.width * info.height;
  let hits = 0;
  for (let p = 0; p < n * info.channels; p += info.channels) {
    const r = data[p]!;
    const g = data[p + 1]!;
    const b = data[p + 2]!;
    const total = r + g + b;
    if (total < 30) continue; // near black: no colour to judge
    const excessGreen = (2 * g - r - b) / total;
    const bark = r >= g && g >= b && r - b >= 12 && r - b <= 70 && total < 390;
    if (excessGreen > 0.05 || bark) hits += 1;
  }
  return n === 0 ? 0 : hits / n;
}

function mean(values: Float32Array): number {
  let sum = 0;
  for (const v of values) sum += v;
  return values.length === 0 ? 0 : sum / values.length;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
