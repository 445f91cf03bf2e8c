import { formatDiameter, formatHeight, photoMeasurementOf, type MeasureDraft } from './measure-draft';
import { distance, measureFromPhoto, type PhotoMeasurement } from './photo-measure';
import { ANY_TREE_LIMIT, SPECIES_LIMITS } from './species-limits';
import { convertLength } from './units';

/**
 * Size checks: is this size believable for this tree, and can this photo measure it? Every size
 * is checked the same way wherever it came from (typed, a size band chosen, measured on the
 * photo, read from the photo by a model, the project details), by the server before it prices a
 * job and by the dashboard and the estimator while the user measures. What it finds is a list of
 * plain sentences that suit a tree surgeon and a homeowner alike, so the same words can be shown
 * anywhere. Zod-free and pure: the estimator loads it with its measuring panel.
 */

/**
 * Where a size came from: core/tree-details.ts ValueSource, spelt out here because that file
 * brings zod, which the estimator's measuring chunk must not load (a test keeps the two equal).
 */
export type SizeSource = 'user' | 'measured' | 'band' | 'description' | 'model' | 'assumed';

/** How far beyond the species' bound a size must go before the warning says "far". */
const FAR = 2;
/**
 * A size band is a class ("much taller than a house"), and the size used for it is our middle
 * value, not the user's claim: it is flagged only when half as large again as the species grows.
 */
const BAND_MARGIN = 1.5;
/**
 * Height over trunk diameter, in the same units (forestry's slenderness or h/d ratio). Trees grown
 * in the open stand about 30 to 70 times as tall as their trunk is wide and forest trees more; old
 * pollards and orchard trees come down to about 10, and only ancient, hollowing veterans go below
 * 8, which a surveyor should see anyway. Below it one of the two sizes is usually wrong: the crown
 * tapped as the trunk, centimetres taken for inches.
 */
export const MIN_HEIGHT_TO_TRUNK = 8;
/**
 * A reference shorter than this share of the photo's height is too small to measure by. A tap lands
 * within about 1% of the photo's height of where it was meant (a fingertip's couple of millimetres
 * on a photo shown 10-15 cm tall), so each end of a reference of 5% may move the scale by a fifth,
 * and every measured size with it.
 */
export const MIN_REFERENCE_SHARE = 0.05;
/**
 * What a size the user confirmed despite a warning does to the estimate's confidence: halved. A
 * wrong size is out by a factor, not a few per cent (green mass grows with the trunk's square), so
 * the estimate is a guess until someone sees the tree; half of the local estimate's 0.5 (or of a
 * model's 0.7) also falls under the 0.35 below which the results recommend a site visit.
 */
export const SIZE_WARNING_CONFIDENCE_FACTOR = 0.5;

export function confidenceWithSizeWarnings(confidence: number, warnings: readonly string[]): number {
  return warnings.length === 0 ? confidence : Math.round(confidence * SIZE_WARNING_CONFIDENCE_FACTOR * 100) / 100;
}

export interface SizesToCheck {
  /** A name from core/species.ts; any other name, or none, is checked against any tree's bounds. */
  species: string | null;
  heightM: number | null;
  diameterM: number | null;
  /** Where each size came from (default: the user's own). Sizes we assumed are not checked. */
  sources?: { height?: SizeSource; diameter?: SizeSource };
  /** The taps, when a size was measured on the photo. */
  measurement?: PhotoMeasurement | null;
}

const FROM: Record<SizeSource, string> = {
  user: 'you entered',
  measured: 'measured on the photo',
  band: 'from the size chosen',
  model: 'read from the photo',
  description: 'from the details given',
  assumed: 'assumed',
};

const withArticle = (name: string) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The warnings for these sizes, in plain words; empty when they are believable. */
export function checkTreeSizes(input: SizesToCheck): string[] {
  const heightFrom = input.sources?.height ?? 'user';
  const trunkFrom = input.sources?.diameter ?? 'user';
  const heightM = heightFrom === 'assumed' ? null : input.heightM;
  const diameterM = trunkFrom === 'assumed' ? null : input.diameterM;
  const listed = input.species ? SPECIES_LIMITS[input.species] : undefined;
  const [maxHeightM, maxDbhCm] = listed ?? ANY_TREE_LIMIT;
  const grows = listed ? `${withArticle(input.species!)} grows` : 'any tree in Britain grows';
  const warnings: string[] = [];

  const over = (value: number, max: number, from: SizeSource) => value > max * (from === 'band' ? BAND_MARGIN : 1);
  if (heightM !== null && over(heightM, maxHeightM, heightFrom)) {
    const far = heightM >= maxHeightM * FAR ? 'far ' : '';
    warnings.push(`The height ${FROM[heightFrom]}, about ${formatHeight(heightM)}, is ${far}taller than ${grows} (at most about ${maxHeightM} m)`);
  }
  if (diameterM !== null && over(diameterM * 100, maxDbhCm, trunkFrom)) {
    const far = diameterM * 100 >= maxDbhCm * FAR ? 'far ' : '';
    warnings.push(
      `The trunk ${FROM[trunkFrom]}, about ${formatDiameter(diameterM)} across, is ${far}wider than ${grows} (at most about ${maxDbhCm} cm)`,
    );
  }
  // Bands are too rough for a proportion: "under 4 m" with "over 50 cm" may well be a pollard.
  const bothExact = heightFrom !== 'band' && trunkFrom !== 'band';
  if (bothExact && heightM !== null && diameterM !== null && diameterM > 0 && heightM / diameterM < MIN_HEIGHT_TO_TRUNK) {
    warnings.push(
      `A trunk about ${formatDiameter(diameterM)} across on a tree about ${formatHeight(heightM)} tall is stouter than trees grow: ` +
        `trees are nearly always more than ${MIN_HEIGHT_TO_TRUNK} times as tall as their trunk is wide, so one of the two sizes is probably wrong`,
    );
  }

  const m = input.measurement;
  const measured = heightFrom === 'measured' || trunkFrom === 'measured' || !input.sources;
  if (m && measured && m.imageHeight > 0) {
    const share = distance(m.reference.top, m.reference.bottom) / m.imageHeight;
    if (share < MIN_REFERENCE_SHARE) {
      const percent = share < 0.01 ? 'under 1%' : `only ${Math.round(share * 100)}%`;
      warnings.push(
        `The reference you measured by, ${lowerFirst(m.reference.label)}, is ${percent} of the photo's height, so a small slip in a tap ` +
          'changes every measured size a lot: zoom in to tap its ends, or measure by something taller beside the tree',
      );
    }
  }
  return warnings;
}

/** The same check for sizes in whole feet and inches, as the server holds them. */
export function checkTreeSizesImperial(input: Omit<SizesToCheck, 'heightM' | 'diameterM'> & { heightFt: number | null; dbhIn: number | null }): string[] {
  const { heightFt, dbhIn, ...rest } = input;
  return checkTreeSizes({
    ...rest,
    heightM: heightFt === null ? null : convertLength(heightFt, 'ft', 'm'),
    diameterM: dbhIn === null ? null : convertLength(dbhIn, 'in', 'm'),
  });
}

/** The warnings for what the taps measure so far, for the measuring step (the dashboard's and the estimator's). */
export function checkMeasuredSizes(measure: MeasureDraft, species: string | null): string[] {
  const measurement = photoMeasurementOf(measure);
  const sizes = measurement ? measureFromPhoto(measurement) : undefined;
  if (!sizes || 'problem' in sizes) return [];
  return checkTreeSizes({ species, ...sizes, sources: { height: 'measured', diameter: 'measured' }, measurement });
}
