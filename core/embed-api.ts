import { z } from 'zod';
import { analysisSchema, TIME_FIELDS } from './analysis';
import { needsDetailsSchema } from './tree-details';

/**
 * The embed analysis's answers as schemas: what POST /api/analyze-tree?businessSlug= answers a
 * visitor. The server's OpenAPI document (server/routes/openapi.ts) is generated from them, and
 * core/embed.ts takes its types from here with a type-only import, so the widget reads the same
 * shape without carrying zod.
 */

/** A line of what the price covers or leaves out (core/quote.ts includedWork). */
export const quoteItemSchema = z.object({ text: z.string(), included: z.boolean() });

const guideRangeSchema = z.object({ minPence: z.number().int(), maxPence: z.number().int(), vatMode: z.enum(['none', 'inc', 'ex']) });

/** The guide price in a homeowner's words (core/homeowner-guide.ts): what the estimator shows. */
export const homeownerGuideSchema = z.object({
  /** The business's rounded guide price; null when it shows no price. */
  price: guideRangeSchema.nullable(),
  nextStep: z.object({ visit: z.boolean(), heading: z.string(), reasons: z.array(z.string()) }),
  /** "How the price is made up", line by line in plain words. */
  madeUp: z.array(z.object({ label: z.string(), detail: z.string().optional(), value: z.string(), strong: z.boolean().optional() })),
  goodToKnow: z.array(z.string()),
});

/** The estimate a visitor sees: the analysis's fields without the owner's notes, photo or calibration. */
export const embedAnalysisSchema = analysisSchema
  .pick({
    id: true,
    species: true,
    diameter: true,
    height: true,
    woodDensity: true,
    ...TIME_FIELDS,
    factors: true,
    assumptions: true,
    safetyWarnings: true,
    confidence: true,
    siteVisitReason: true,
    hourlyRate: true,
    cost: true,
    price: true,
    sizeWarnings: true,
    enteredSizes: true,
  })
  .extend({
    /** What the price covers and leaves out (stump, waste), from the visitor's answers. */
    included: z.array(quoteItemSchema),
    /**
     * What the estimator shows: the rounded guide price, the next step and its reasons, and the
     * working in a homeowner's words. The fields above are the estimate in the trade's words, for
     * a site that shows its own (they are never shown by the estimator).
     */
    guide: homeownerGuideSchema,
    /**
     * The sizes the visitor chose as a band, as that band's range in the business's units
     * ("8 to 15 m"), to show back instead of `height` and `diameter` (the band's middle); null
     * for a size typed, measured or read from the photo (core/band-ranges.ts chosenBands).
     */
    chosenBands: z.object({ height: z.string().nullable(), diameter: z.string().nullable() }),
  });

export const embedAnalyzeResponseSchema = z.object({
  outcome: z.literal('estimate'),
  analysis: embedAnalysisSchema,
  confidence: z.number().min(0).max(1),
  /** Present when the business charges a rate: the same range as `analysis.cost`. */
  cost: z.object({ min: z.string(), max: z.string() }).optional(),
  /**
   * The proof that this visitor saw this estimate: send it back with a quote request
   * (POST /api/businesses/{slug}/leads). Random, at least 128 bits, good for 24 hours; keep it in
   * memory with the page, never in a URL or storage.
   */
  leadToken: z.string(),
});

/** An estimate (201), or what to add before one can be made (200, nothing charged). */
export const embedAnalyzeOutcomeSchema = z.discriminatedUnion('outcome', [embedAnalyzeResponseSchema, needsDetailsSchema]);

export type EmbedAnalysis = z.infer<typeof embedAnalysisSchema>;
export type EmbedAnalyzeResponse = z.infer<typeof embedAnalyzeResponseSchema>;
export type EmbedNeedsDetails = z.infer<typeof needsDetailsSchema>;
export type EmbedAnalyzeOutcome = z.infer<typeof embedAnalyzeOutcomeSchema>;
