import { NEEDS_DETAILS_MESSAGE, NOT_A_TREE_MESSAGE, type NeedsDetails } from '../../core/tree-details';
import { PHOTO_THRESHOLDS } from '../images/normalise';
import type { TreeValues } from './tree-values';
import type { PhotoChecks } from '../images/normalise';
import type { Perception } from './types';

/**
 * Abstain instead of guessing (docs/analysis.md, No quote without a size): no quote, and no
 * charge, when
 * - nothing gives the tree a size: neither the user (typed, measured, a band, the project
 *   details) nor a model's reading of the photo; or
 * - the photo is probably not a tree: a model says so, or the pixel check finds too little
 *   vegetation and no model says it is a tree.
 * One size is enough: the other is then assumed from it, and the results say so. So is "Not sure"
 * for either (docs/analysis.md, Not sure and unanswered): a typical garden tree's range is priced.
 */
export function decideAbstention(
  values: TreeValues,
  perception: Perception,
  checks: PhotoChecks,
  /** A business's visitor reads about the photo and the tree, never how the server reads them. */
  audience: 'owner' | 'visitor' = 'owner',
  /** The user said "Not sure" of the height or the trunk: no size is then priced as a typical garden tree (estimate.ts sizeRanges). */
  sizesNotSure = false,
): NeedsDetails | null {
  const visitor = audience === 'visitor';
  const modelLooked = perception.readFrom === 'model';
  const littleVegetation = checks.vegetationShare < PHOTO_THRESHOLDS.minVegetationShare;
  const notATree = perception.isTree === false || (littleVegetation && perception.isTree !== true);
  const noSize = values.heightFt === null && values.dbhIn === null && !sizesNotSure;
  if (!notATree && !noSize) return null;

  const reasons: string[] = [];
  if (perception.isTree === false) reasons.push(visitor ? 'We could not see a tree in this photo' : 'The AI model did not see a tree in this photo');
  reasons.push(...checks.issues);
  if (noSize) {
    reasons.push(
      visitor
        ? "We need the tree's size: choose roughly how tall it is and how thick its trunk is"
        : modelLooked
          ? "The AI model could not judge the tree's size from this photo, and no height or trunk size was given"
          : 'No height or trunk size was given. Without an AI vision model, sizes come from your details, not the photo',
    );
  }
  return {
    outcome: 'needs_details',
    message: notATree ? NOT_A_TREE_MESSAGE : NEEDS_DETAILS_MESSAGE,
    missing: [...(notATree ? (['tree_photo'] as const) : []), ...(noSize ? (['height', 'diameter'] as const) : [])],
    reasons: [...new Set(reasons)],
  };
}
