/**
 * Measuring a tree on its photo (docs/analysis.md, Tree details, sizes and species): the user
 * taps the top and base of the tree, the two ends of a reference of known length standing
 * in the same plane (a door, a person, a typed length), and the trunk's two edges at chest
 * height. Pixels per metre from the reference turn the other two spans into metres.
 *
 * It is the single-view similar-triangles method arborists use with a measuring pole: exact
 * when the reference and the tree are at the same distance from the camera and the camera is
 * roughly level; a reference nearer or farther than the tree scales the answer by the ratio of
 * the distances, which is why the app asks for one beside the trunk. Pure geometry, no I/O.
 */

/** A tapped point, in pixels of the photo as the user saw it (its natural size). */
export interface PhotoPoint {
  x: number;
  y: number;
}

export interface PhotoMeasurement {
  /** The photo's natural size, so the drawing can be redrawn at any scale (report, results). */
  imageWidth: number;
  imageHeight: number;
  reference: { top: PhotoPoint; bottom: PhotoPoint; lengthM: number; label: string };
  tree?: { top: PhotoPoint; base: PhotoPoint };
  trunk?: { left: PhotoPoint; right: PhotoPoint };
}

/** References people have to hand (UK sizes). */
export const MEASURE_REFERENCES = [
  /** UK standard internal door leaf: 1981 mm (6 ft 6 in), BS EN 1529 / BS 4787 sizes. */
  { key: 'door', label: 'A door (2.0 m)', lengthM: 2.0 },
  /** UK adult mean height 1.75 m men / 1.62 m women (Health Survey for England 2019); 1.7 m between. */
  { key: 'person', label: 'A person (1.7 m)', lengthM: 1.7 },
  /** Eaves of a typical two-storey UK house: about 5 m above the ground. Assumption (storey 2.4-2.7 m plus footing). */
  { key: 'eaves', label: 'Two-storey eaves line (5 m)', lengthM: 5.0 },
] as const;

/** A reference must span at least this many pixels: a few pixels' tapping error would otherwise swamp it. */
export const MIN_REFERENCE_PIXELS = 20;

export function distance(a: PhotoPoint, b: PhotoPoint): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

export interface MeasuredSizes {
  heightM: number | null;
  diameterM: number | null;
}

/**
 * Height and trunk diameter in metres from the tapped points, or a reason it cannot be done.
 * Vertical spans use their full length (a leaning tree is measured along its lean, as a pole
 * would be); the trunk span uses the horizontal distance, since the user taps its edges.
 */
export function measureFromPhoto(m: PhotoMeasurement): MeasuredSizes | { problem: string } {
  const refPixels = distance(m.reference.top, m.reference.bottom);
  if (!(m.reference.lengthM > 0)) return { problem: 'Give the reference a length above zero.' };
  if (refPixels < MIN_REFERENCE_PIXELS) {
    return { problem: 'The reference is too small on the photo to measure by. Tap its two ends further apart, or choose a taller reference.' };
  }
  const metresPerPixel = m.reference.lengthM / refPixels;
  const heightM = m.tree ? distance(m.tree.top, m.tree.base) * metresPerPixel : null;
  const diameterM = m.trunk ? Math.abs(m.trunk.right.x - m.trunk.left.x) * metresPerPixel : null;
  return { heightM, diameterM };
}
