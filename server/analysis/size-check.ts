import { checkTreeSizesImperial } from '../../core/plausibility';
import type { PhotoMeasurement } from '../../core/photo-measure';
import { CHECK_SIZES_MESSAGE, type NeedsDetails } from '../../core/tree-details';
import type { TreeValues } from './tree-values';

export interface SizeCheck {
  /** What core/plausibility.ts finds unlikely about the sizes the estimate would use. */
  warnings: string[];
  /** The answer to give instead of an estimate: the sizes are unlikely and nobody has said they are right. */
  ask: NeedsDetails | null;
}

/**
 * The size checks before a price (like abstention, nothing is charged for the answer): sizes that
 * look unlikely for the tree or were measured by too small a reference are sent back to be checked.
 * Once the user says they are right (`sizesConfirmed`), the estimate is made and carries the
 * warnings, with its confidence lowered (core/plausibility.ts confidenceWithSizeWarnings).
 */
export function checkSizes(values: TreeValues, measurement: PhotoMeasurement | null, confirmed: boolean): SizeCheck {
  const warnings = checkTreeSizesImperial({
    species: values.species.name,
    heightFt: values.heightFt,
    dbhIn: values.dbhIn,
    sources: values.sources,
    measurement,
  });
  if (warnings.length === 0 || confirmed) return { warnings, ask: null };
  return { warnings, ask: { outcome: 'needs_details', message: CHECK_SIZES_MESSAGE, missing: ['check_sizes'], reasons: warnings } };
}
