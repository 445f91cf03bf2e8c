import type { PhotoMeasurement } from '../../core/photo-measure';
import type { DiameterBand, HeightBand, SiteDetails } from '../../core/questions';
import { siteDetailsField } from '../../core/questions';

/** The size tiles' "Not sure" (docs/analysis.md, Not sure and unanswered): priced as a typical garden tree. */
export const SIZE_NOT_SURE = 'not_sure';
type SizeAnswer<Band> = Band | '' | typeof SIZE_NOT_SURE;

/**
 * What the visitor has tapped so far. Everything is optional: an unanswered
 * size is left to the photo where the server can read it, a site question to the estimate's
 * stated assumption. Zod-free and tiny: it lives in the estimator's first chunk.
 */
export interface TreeAnswers {
  /** A name from the species list; '' for "Not sure". */
  species: string;
  /**
   * A band, "Not sure", or '' for not answered: "Let the photo decide" where the photo's size
   * can be read, and "Not sure" where it cannot (shownSize).
   */
  height: SizeAnswer<HeightBand>;
  diameter: SizeAnswer<DiameterBand>;
}

/** The size tile that is checked: a blank answer is "Not sure" where the photo's size cannot be read. */
export function shownSize(answer: string, sizesFromPhoto: boolean): string {
  return answer === '' && !sizesFromPhoto ? SIZE_NOT_SURE : answer;
}

export const EMPTY_TREE_ANSWERS: TreeAnswers = { species: '', height: '', diameter: '' };


/**
 * The multipart fields the answers become: `treeDetails` and `siteDetails` as JSON, each only
 * when something was given. A measured size goes with its taps; the server prefers it to a band
 * (core/normalise.ts: typed, then measured, then a band's middle).
 */
export function answerFields(
  tree: TreeAnswers,
  site: SiteDetails,
  measurement?: PhotoMeasurement,
  /** The visitor has seen the size checks' warnings and says the sizes are right. */
  sizesConfirmed = false,
  /** Nothing can read the sizes from the photo: a blank size is "Not sure", never a second screen asking for it. */
  sizesFromPhoto = true,
): { treeDetails?: string; siteDetails?: string } {
  const details: Record<string, unknown> = {};
  if (tree.species) details.species = tree.species;
  if (shownSize(tree.height, sizesFromPhoto) === SIZE_NOT_SURE) details.heightUnknown = true;
  else if (tree.height) details.height = { band: tree.height };
  if (shownSize(tree.diameter, sizesFromPhoto) === SIZE_NOT_SURE) details.diameterUnknown = true;
  else if (tree.diameter) details.diameter = { band: tree.diameter };
  if (measurement) details.measurement = measurement;
  if (sizesConfirmed) details.sizesConfirmed = true;
  const fields: { treeDetails?: string; siteDetails?: string } = {};
  if (Object.keys(details).length > 0) fields.treeDetails = JSON.stringify(details);
  const siteDetails = siteDetailsField(site);
  if (siteDetails) fields.siteDetails = siteDetails;
  return fields;
}
