/**
 * The upload rules and fixed texts every client shows. Kept free of zod so the
 * embeddable widget can import them without carrying a schema library (its bundle is
 * budgeted); core/analysis.ts re-exports them for everyone else.
 */
import { ANALYSIS_COST_CREDITS } from './analysis-cost';

/** docs/product.md, Analysis: one image, jpeg/png/webp, at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];
export const UPLOAD_HINT = 'Supports JPEG, PNG, WebP • Maximum file size: 10MB';
export const MAX_DESCRIPTION_CHARS = 2000;

/** The safety disclaimer (docs/product.md, Analysis), on the results, in the widget and in the report. */
export const SAFETY_DISCLAIMER =
  'Estimates are for planning purposes only. Tree work is dangerous: always consult a certified arborist before felling or climbing.';

/** The same caution in a homeowner's words, under the estimator on a business's site. */
export const VISITOR_SAFETY_NOTE =
  'A guide price for planning, not a fixed quote. Tree work is dangerous: leave felling and climbing to a qualified tree surgeon.';

export const INSUFFICIENT_TOKENS_MESSAGE = `You need ${ANALYSIS_COST_CREDITS} credits for each analysis. Subscribe to get monthly credits and continue analyzing trees.`;
