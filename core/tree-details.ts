import { z } from 'zod';
import { DIAMETER_BAND_KEYS, HEIGHT_BAND_KEYS } from './questions';
import { MAX_TYPED_SIZE } from './size-bounds';

/**
 * What the user tells us about the tree itself (docs/analysis.md, Tree
 * details, sizes and species): species, height and trunk size typed with a unit, chosen as a band a homeowner
 * can answer, or measured on the photo. Sent beside the photo as the multipart field
 * `treeDetails` (JSON text). With a vision model they override its reading; the results
 * say where each value came from.
 */

export { DIAMETER_BANDS, HEIGHT_BANDS, type DiameterBand, type HeightBand } from './questions';

const point = z.object({ x: z.number().finite().min(0), y: z.number().finite().min(0) });

/** core/photo-measure.ts PhotoMeasurement, checked; the server recomputes the sizes from it. */
export const photoMeasurementSchema = z.object({
  imageWidth: z.number().int().positive().max(20_000),
  imageHeight: z.number().int().positive().max(20_000),
  reference: z.object({
    top: point,
    bottom: point,
    lengthM: z.number().positive().max(100),
    label: z.string().trim().min(1).max(60),
  }),
  tree: z.object({ top: point, base: point }).optional(),
  trunk: z.object({ left: point, right: point }).optional(),
});

const heightInput = z.union([
  z.object({ value: z.number().positive().max(MAX_TYPED_SIZE.ft), unit: z.literal('ft') }),
  z.object({ value: z.number().positive().max(MAX_TYPED_SIZE.m), unit: z.literal('m') }),
  z.object({ band: z.enum(HEIGHT_BAND_KEYS) }),
]);
const diameterInput = z.union([
  z.object({ value: z.number().positive().max(MAX_TYPED_SIZE.in), unit: z.literal('in') }),
  z.object({ value: z.number().positive().max(MAX_TYPED_SIZE.cm), unit: z.literal('cm') }),
  z.object({ band: z.enum(DIAMETER_BAND_KEYS) }),
]);

export const treeDetailsSchema = z.object({
  /** A name from the species list (core/species.ts); omitted for "Not sure". */
  species: z.string().trim().min(1).max(80).optional(),
  height: heightInput.optional(),
  diameter: diameterInput.optional(),
  /**
   * The user said "Not sure" for the height or the trunk (docs/analysis.md, Not sure and
   * unanswered): whatever else gives the size (a measurement, a model's reading of the photo, the
   * details) is used; failing all of them the estimate prices a typical garden tree's range
   * (core/site-assumptions.ts TYPICAL_GARDEN_TREE), recommends a site visit and says so, where
   * without it the answer would ask for a size.
   */
  heightUnknown: z.literal(true).optional(),
  diameterUnknown: z.literal(true).optional(),
  /** Taps on the photo; a typed height or diameter wins over the measured one. */
  measurement: photoMeasurementSchema.optional(),
  /**
   * The user has seen the size checks' warnings (core/plausibility.ts) and says the sizes are
   * right: the estimate is made, with the warnings shown and a lower confidence.
   */
  sizesConfirmed: z.boolean().optional(),
});
export type TreeDetails = z.infer<typeof treeDetailsSchema>;

/**
 * The sizes as typed (22 m, 90 cm), kept beside the whole feet and inches the estimate used, so
 * they are shown back as typed (core/units.ts heightText).
 */
export const enteredSizesSchema = z.object({
  height: z.object({ value: z.number().positive().max(MAX_TYPED_SIZE.ft), unit: z.enum(['ft', 'm']) }).nullable(),
  diameter: z.object({ value: z.number().positive().max(MAX_TYPED_SIZE.cm), unit: z.enum(['in', 'cm']) }).nullable(),
});

/** Where a value shown on the results came from. */
export const valueSourceSchema = z.enum(['user', 'measured', 'band', 'description', 'model', 'assumed']);
export type ValueSource = z.infer<typeof valueSourceSchema>;
export const VALUE_SOURCE_LABELS: Record<ValueSource, string> = {
  user: 'You entered it',
  measured: 'Measured on your photo',
  band: 'From the size you chose',
  description: 'From your project details',
  model: 'Read from the photo by the AI model',
  assumed: 'Assumed',
};

export const valueSourcesSchema = z.object({
  species: valueSourceSchema.nullable(),
  height: valueSourceSchema,
  diameter: valueSourceSchema,
});
export type ValueSources = z.infer<typeof valueSourcesSchema>;

/** What an analysis's value_sources column holds: the sources and the sizes as typed, when any was. */
export type StoredValueSources = ValueSources & { entered?: z.infer<typeof enteredSizesSchema> };

/**
 * Abstention: no quote without a size from somewhere, or for a photo that is probably not a
 * tree. A distinct answer (200, `outcome: "needs_details"`), never a charge.
 */
export const NEEDS_DETAILS_MESSAGE = "Add the tree's height and trunk size, or measure them on the photo";
export const NOT_A_TREE_MESSAGE = 'This photo does not look like a tree. Choose a photo that shows the whole tree';
/** Sizes the checks find unlikely (core/plausibility.ts): asked about before any price is shown. */
export const CHECK_SIZES_MESSAGE = 'Check the sizes before we work out a price';
export const needsDetailsSchema = z.object({
  outcome: z.literal('needs_details'),
  message: z.string(),
  /** What would let an estimate be made; `check_sizes`: the sizes corrected, or sent again with `sizesConfirmed`. */
  missing: z.array(z.enum(['height', 'diameter', 'tree_photo', 'check_sizes'])),
  /** Photo checks and other reasons, in the product's words. */
  reasons: z.array(z.string()),
});
export type NeedsDetails = z.infer<typeof needsDetailsSchema>;

/**
 * GET /api/capabilities (public): whether a vision model is configured, so the sign-in
 * panel, home page, How It Works and the results say honestly where an estimate comes from.
 */
export const capabilitiesSchema = z.object({ visionModel: z.boolean() });
export type Capabilities = z.infer<typeof capabilitiesSchema>;
