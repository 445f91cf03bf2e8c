import { z } from 'zod';
import { jobPriceSchema } from './pricing';
import { siteDetailsSchema } from './site';
import { enteredSizesSchema, needsDetailsSchema, photoMeasurementSchema, valueSourcesSchema } from './tree-details';
import { UNIT_SYSTEMS } from './units';
import { byNameSchema } from './team';

export {
  ACCEPTED_IMAGE_TYPES,
  INSUFFICIENT_TOKENS_MESSAGE,
  MAX_DESCRIPTION_CHARS,
  MAX_UPLOAD_BYTES,
  SAFETY_DISCLAIMER,
  UPLOAD_HINT,
} from './upload-rules';
export const MAX_INSTRUCTIONS_CHARS = 2000;

const range = z.object({ min: z.number().int(), max: z.number().int() });

/** An analysis as the API answers it: the fields of docs/product.md, Analysis. */
export const analysisSchema = z.object({
  id: z.number().int(),
  imageUrl: z.string(),
  species: z.string().nullable(),
  diameter: z.number().int().nullable(),
  height: z.number().int().nullable(),
  woodDensity: z.string().nullable(),
  cuttingTimeMin: z.number().int(),
  cuttingTimeMax: z.number().int(),
  prepTimeMin: z.number().int(),
  prepTimeMax: z.number().int(),
  cleanupTimeMin: z.number().int(),
  cleanupTimeMax: z.number().int(),
  factors: z.array(z.string()),
  /**
   * "What we assumed" (core/site-assumptions.ts): a plain sentence for each site question left
   * unanswered or answered "Not sure", and each size nobody could give, with what it was priced as.
   */
  assumptions: z.array(z.string()),
  safetyWarnings: z.array(z.string()),
  confidence: z.number().min(0).max(1),
  method: z.string().nullable(),
  /** docs/product.md, Analysis: why a site visit is recommended, when it is. */
  siteVisitReason: z.string().nullable(),
  /** Set when the estimate was scaled by the user's feedback: how many of their jobs. */
  calibratedFromJobs: z.number().int().nullable(),
  /**
   * What the estimate was calibrated from, in the contractor's words (core/calibration.ts
   * calibratedFromText): "Calibrated from 6 of your dismantles and 14 of your other jobs", or the
   * install's starting point; null when nothing calibrated it. Never in a visitor's answer.
   */
  calibratedFrom: z.string().nullable(),
  provider: z.string(),
  description: z.string().nullable(),
  siteDetails: siteDetailsSchema.nullable(),
  /** The hourly rate at the time, decimal text such as "45.00". */
  hourlyRate: z.string(),
  cost: z.object({ min: z.string(), max: z.string() }).nullable(),
  /**
   * The price as the contractor's rules made it when the analysis ran (core/price.ts): the crew
   * time (the cost above) and the other lines, the minimum charge and VAT, in integer pence. Every
   * screen, e-mail and quote shows it with formatPrice; null when the hourly rate was 0.
   */
  price: jobPriceSchema.nullable(),
  actualCuttingTime: z.number().int().nullable(),
  actualPrepTime: z.number().int().nullable(),
  actualCleanupTime: z.number().int().nullable(),
  feedback: z.string().nullable(),
  businessName: z.string().nullable(),
  /** Where species, height and diameter came from; null on analyses stored before it was recorded. */
  sources: valueSourcesSchema.nullable(),
  /** The taps the user measured the tree with on the photo, to draw on the results and the quote. */
  measurement: photoMeasurementSchema.nullable(),
  /**
   * Sizes that looked unlikely (core/plausibility.ts) and the user confirmed as right; the
   * confidence was lowered for them. Empty when the sizes looked believable.
   */
  sizeWarnings: z.array(z.string()),
  /** Where it was run: the signed-in dashboard, or a business's embedded estimator (paid by its owner). */
  source: z.enum(['dashboard', 'embed']),
  /**
   * The units its sizes are shown in (core/units.ts): those they were typed in, else the
   * account's or business's preference at the time; null on analyses stored before units were
   * kept (shown in the reader's preference). `diameter` and `height` stay inches and feet.
   */
  units: z.enum(UNIT_SYSTEMS).nullable(),
  /** The sizes as typed (22 m, 90 cm), shown back exactly; null when neither was typed. */
  enteredSizes: enteredSizesSchema.nullable(),
  createdAt: z.string(),
  /** Who in the team ran it (core/team.ts byNameSchema: absent for a team of one, null for a visitor's on an estimator). */
  runBy: byNameSchema,
});
export type Analysis = z.infer<typeof analysisSchema>;

export const analyzeResponseSchema = z.object({
  outcome: z.literal('estimate'),
  analysis: analysisSchema,
  confidence: z.number().min(0).max(1),
  cost: z.object({ min: z.string(), max: z.string() }).optional(),
});
export type AnalyzeResponse = z.infer<typeof analyzeResponseSchema>;

/** POST /api/analyze-tree answers an estimate, or asks for what it needs (no credits taken). */
export const analyzeOutcomeSchema = z.discriminatedUnion('outcome', [analyzeResponseSchema, needsDetailsSchema]);
export type AnalyzeOutcome = z.infer<typeof analyzeOutcomeSchema>;

/** The six time fields, for the views that pick from an analysis (History's cards, the visitor's estimate). */
export const TIME_FIELDS = {
  cuttingTimeMin: true,
  cuttingTimeMax: true,
  prepTimeMin: true,
  prepTimeMax: true,
  cleanupTimeMin: true,
  cleanupTimeMax: true,
} as const;

/**
 * One card of the History list: only what dashboard/pages/history.tsx shows (the
 * list once sent every column of every analysis). Feedback is a yes/no there, so the
 * actual times and comment stay on GET /api/analysis/{id}.
 */
export const analysisListItemSchema = analysisSchema
  .pick({
    id: true,
    imageUrl: true,
    species: true,
    ...TIME_FIELDS,
    cost: true,
    price: true,
    businessName: true,
    source: true,
    createdAt: true,
  })
  .extend({
    hasFeedback: z.boolean(),
    /**
     * docs/product.md, Screens (History): for a visitor's estimate on a business's website (source
     * 'embed'), the business, the name on its quote request once one was made, and the species as
     * the visitor answered it ("Not sure" when they named none; null on estimates stored before
     * answers were kept). Null for the user's own analyses.
     */
    web: z
      .object({ businessName: z.string().nullable(), leadName: z.string().nullable(), speciesAnswer: z.string().nullable() })
      .nullable(),
  });
export type AnalysisListItem = z.infer<typeof analysisListItemSchema>;

/** GET /api/analyses pages: `?limit=` (default 20, at most 100) and `?cursor=` from the page before. */
export const HISTORY_PAGE_SIZE = { default: 20, max: 100 } as const;

export const analysisListQuerySchema = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, `limit must be a whole number from 1 to ${HISTORY_PAGE_SIZE.max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, `limit must be a whole number from 1 to ${HISTORY_PAGE_SIZE.max}`)
        .max(HISTORY_PAGE_SIZE.max, `limit must be a whole number from 1 to ${HISTORY_PAGE_SIZE.max}`),
    )
    .default(HISTORY_PAGE_SIZE.default),
  /** Opaque: the `nextCursor` of the page before. */
  cursor: z.string().optional(),
});

/** Newest first; `nextCursor` is null on the last page. */
export const analysisListSchema = z.object({ analyses: z.array(analysisListItemSchema), nextCursor: z.string().nullable() });
export type AnalysisList = z.infer<typeof analysisListSchema>;

const actualMinutes = z.number().int('Times are whole minutes').min(0).max(100_000).optional();

/** docs/product.md, Analysis (Feedback): whole minutes, all optional; the text is optional too. */
export const feedbackSchema = z.object({
  actualCuttingTime: actualMinutes,
  actualPrepTime: actualMinutes,
  actualCleanupTime: actualMinutes,
  feedback: z.string().trim().max(2000).optional(),
});
export type FeedbackInput = z.infer<typeof feedbackSchema>;

/** Decimal(10,2) as text: up to 8 digits, 2 decimals, not negative. "" means 0 (docs/product.md, Accounts). */
export const hourlyRateTextSchema = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => v === '' || /^\d{1,8}(\.\d{1,2})?$/.test(v), {
    message: 'Hourly rate must be a number of pounds with at most 2 decimals, 0 or more',
  });

export { range as minuteRangeSchema };
