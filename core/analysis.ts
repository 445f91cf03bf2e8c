import { z } from 'zod';
import { companyProfileResponseSchema, companyProfileSchema } from './company-profile';
import { jobPriceSchema, pricingRulesInputSchema, pricingRulesResponseSchema } from './pricing';
import { invoiceSettingsFields } from './invoices';
import { QUOTE_ROUNDINGS, quoteReminderDaysSchema, quoteRoundingSchema, quoteTermsSchema } from './quote-settings';
import { siteDetailsSchema } from './site';
import { nestingSeasonSchema } from './protection';
import { enteredSizesSchema, needsDetailsSchema, photoMeasurementSchema, valueSourcesSchema } from './tree-details';
import { UNIT_SYSTEMS } from './units';

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

/** The AI settings (the Settings page's first form; docs/product.md, Accounts). */
export const settingsSchema = z.object({
  aiInstructions: z.string().max(MAX_INSTRUCTIONS_CHARS, `Instructions must be at most ${MAX_INSTRUCTIONS_CHARS} characters`),
  hourlyRate: hourlyRateTextSchema,
});
export type AiSettingsInput = z.input<typeof settingsSchema>;

/**
 * PATCH /api/system-settings: aiInstructions and hourlyRate, the company profile
 * printed on quotes, and whether the account shares its job times, each saved only when sent
 * (the Settings page saves each part on its own). `companyProfile`, when sent, is the whole
 * profile.
 */
export const settingsPatchSchema = settingsSchema
  .partial()
  .extend({
    companyProfile: companyProfileSchema.optional(),
    shareJobTimes: z.boolean().optional(),
    /** The units sizes are entered and shown in (core/units.ts). */
    units: z.enum(UNIT_SYSTEMS, "units must be 'metric' or 'imperial'").optional(),
    /** The pricing rules beside the hourly rate (core/pricing.ts), all fields when sent. */
    pricing: pricingRulesInputSchema.optional(),
    /** What quoted prices are rounded to, in whole pounds: "1", "5" or "10" (core/quote-settings.ts). */
    quoteRounding: quoteRoundingSchema.optional(),
    /** The terms on the surgeon's quotes; "" or null for the standard terms (core/quote-settings.ts). */
    quoteTerms: quoteTermsSchema.optional(),
    /** Days after sending when an unanswered quote's customer is reminded, once; 0 for never. */
    quoteReminderDays: quoteReminderDaysSchema.optional(),
    /** The nesting season bookings are checked against, "MM-DD" inclusive (core/protection.ts). */
    nestingSeason: nestingSeasonSchema.optional(),
    /** Getting paid (core/invoices.ts): bank details, payment terms, deposit rule, numbers, reminders, sales account code. */
    ...invoiceSettingsFields,
  })
  .refine((v) => Object.values(v).some((part) => part !== undefined), {
    message: 'Send aiInstructions, hourlyRate, companyProfile, shareJobTimes, units, pricing, quoteRounding, quoteTerms, quoteReminderDays, nestingSeason or a Getting paid field to save',
  });
export type SettingsPatch = z.input<typeof settingsPatchSchema>;

export const settingsResponseSchema = z.object({
  aiInstructions: z.string(),
  hourlyRate: z.string(),
  companyProfile: companyProfileResponseSchema,
  /** Whether the account's job times count in everyone's starting estimates (docs/analysis.md, Calibration); on by default. */
  shareJobTimes: z.boolean(),
  /** The units sizes are entered and shown in (core/units.ts); metric unless changed. */
  units: z.enum(UNIT_SYSTEMS),
  pricing: pricingRulesResponseSchema,
  /** What quoted prices are rounded to, in whole pounds; "5" unless changed. */
  quoteRounding: z.enum(QUOTE_ROUNDINGS),
  /** The terms on the surgeon's quotes: their own, or the standard ones (DEFAULT_QUOTE_TERMS). */
  quoteTerms: z.string(),
  /** Days after sending when an unanswered quote's customer is reminded, once; 0 for never. */
  quoteReminderDays: z.number().int(),
  /** The nesting season, "MM-DD" inclusive; 1 March to 31 August unless changed. */
  nestingSeason: z.object({ from: z.string(), to: z.string() }),
  /** Getting paid: the account number masked ("****5678"), the sort code as 12-34-56. */
  bankDetails: z.object({ accountName: z.string(), sortCode: z.string(), accountNumber: z.string() }).nullable(),
  paymentTermsDays: z.number().int(),
  depositRule: z.object({ percent: z.number(), overAmount: z.string() }).nullable(),
  invoicePrefix: z.string(),
  nextInvoiceNumber: z.number().int(),
  invoiceReminderDays: z.tuple([z.number().int(), z.number().int()]),
  salesAccountCode: z.string(),
  /** Statutory interest on late payment by business customers: the base rate it adds 8% to, or null for off. */
  lateInterest: z.object({ baseRatePercent: z.number() }).nullable(),
});
export type SettingsResponse = z.infer<typeof settingsResponseSchema>;

export { range as minuteRangeSchema };
