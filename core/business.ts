import { z } from 'zod';
import { hourlyRateTextSchema, MAX_INSTRUCTIONS_CHARS } from './analysis';
import { emailSchema } from './accounts';
import {
  canonicalOrigin,
  notAnOriginMessage,
  FUNNEL_DAYS,
  WIDGET_EVENTS,
  DEFAULT_DAILY_CAP,
  EMBED_STATUSES,
  LEAD_HONEYPOT_FIELD,
  LEAD_LIMITS,
  LEAD_MAX_TREES,
  LEAD_TOKEN_MAX,
  LEAD_TOKEN_REQUIRED,
  MAX_DAILY_CAP,
  SLUG_MAX,
  SLUG_PATTERN,
} from './embed';
import { CONTACT_METHODS, CONTACT_TIMES, EMAIL_FOR_EMAIL, PHONE_FOR_CALL } from './contact-preference';
import { hasLineBreak, isPhoneNumber, LEAD_MESSAGES } from './lead-checks';
import { plainLine, plainText } from './plain-text';
import { parseDistricts, parsePostcode, POSTCODE_INVALID, POSTCODE_REQUIRED } from './postcode';
import { DEFAULT_UNIT_SYSTEM, UNIT_SYSTEMS } from './units';
import { jobPriceSchema, pricingRulesInputSchema, pricingRulesResponseSchema } from './pricing';

/**
 * Businesses and leads as the API takes and answers them (docs/product.md, Embed
 * widget). The server validates with these; the dashboard parses its answers with them.
 */

const unitSystemSchema = z.enum(UNIT_SYSTEMS, "units must be 'metric' or 'imperial'");

/** docs/product.md, Embed widget: the one message for a missing name, slug or rate. */
export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';
export const SLUG_TAKEN_MESSAGE = 'That slug is already taken. Please choose another.';
export const MAX_ALLOWED_ORIGINS = 20;

const requiredText = (max: number) =>
  z
    .string(REQUIRED_FIELDS_MESSAGE)
    .trim()
    .min(1, REQUIRED_FIELDS_MESSAGE)
    .max(max, `Must be at most ${max} characters`);

export const slugSchema = requiredText(SLUG_MAX).regex(
  SLUG_PATTERN,
  'Slug may use lowercase letters, numbers and single hyphens (e.g. green-oak-tree-care)',
);

/**
 * Site origins allowed to embed; each must be one exact origin (scheme, host, optional port: no
 * wildcard, path or keyword, core/embed.ts canonicalOrigin), stored canonical and unique.
 */
export const allowedOriginsSchema = z
  .array(z.string().max(200))
  .max(MAX_ALLOWED_ORIGINS, `List at most ${MAX_ALLOWED_ORIGINS} site origins`)
  .transform((list, ctx) => {
    const origins: string[] = [];
    for (const entry of list) {
      const origin = canonicalOrigin(entry);
      if (!origin) {
        ctx.addIssue({ code: 'custom', message: notAnOriginMessage(entry) });
        return z.NEVER;
      }
      if (!origins.includes(origin)) origins.push(origin);
    }
    return origins;
  });

/**
 * The postcode districts and areas the business covers (core/postcode.ts): ["LS1", "LS6", "BD"],
 * normalised, each once, at most 200; a bad entry is named. Empty: requests from anywhere.
 */
const NOT_A_DISTRICT_LIST = 'serviceDistricts must be a list of postcode districts, e.g. ["LS6", "BD"]';
export const serviceDistrictsSchema = z.array(z.string(NOT_A_DISTRICT_LIST), NOT_A_DISTRICT_LIST).transform((list, ctx) => {
  const parsed = parseDistricts(list);
  if ('error' in parsed) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return parsed.districts;
});

export const accentColorSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Accent colour must be a hex colour such as #166534')
  .transform((v) => v.toLowerCase());

const instructionsSchema = z
  .string()
  .max(MAX_INSTRUCTIONS_CHARS, `Instructions must be at most ${MAX_INSTRUCTIONS_CHARS} characters`)
  .nullable()
  .transform((v) => (v === null || v.trim() === '' ? null : v.trim()));

const dailyCapSchema = z
  .number('Daily cap must be a whole number')
  .int('Daily cap must be a whole number')
  .min(1, 'Daily cap must be at least 1')
  .max(MAX_DAILY_CAP, `Daily cap must be at most ${MAX_DAILY_CAP}`);

/** The rate is required for a business (docs/product.md, Embed widget), unlike the settings' rate where empty means 0. */
const businessRateSchema = z
  .union([z.string(), z.number()], REQUIRED_FIELDS_MESSAGE)
  .pipe(hourlyRateTextSchema)
  .refine((v) => v !== '', REQUIRED_FIELDS_MESSAGE);

export const businessCreateSchema = z.object({
  name: requiredText(100),
  slug: slugSchema,
  hourlyRate: businessRateSchema,
  aiInstructions: instructionsSchema.optional().transform((v) => v ?? null),
  allowedOrigins: allowedOriginsSchema.default([]),
  dailyCap: dailyCapSchema.default(DEFAULT_DAILY_CAP),
  accentColor: accentColorSchema.nullable().default(null),
  /** The units the estimator asks and answers in (core/units.ts). */
  units: unitSystemSchema.default(DEFAULT_UNIT_SYSTEM),
  /** The estimator's own pricing rules (core/pricing.ts); null or left out: the owner's Settings. */
  pricing: pricingRulesInputSchema.nullable().default(null),
  serviceDistricts: serviceDistrictsSchema.default([]),
});
export type BusinessCreateInput = z.input<typeof businessCreateSchema>;
export type BusinessCreate = z.output<typeof businessCreateSchema>;

/** PATCH: what is sent replaces, what is left out stays. Name and slug stay as created (embeds point at the slug). */
export const businessUpdateSchema = z
  .object({
    hourlyRate: businessRateSchema,
    aiInstructions: instructionsSchema,
    allowedOrigins: allowedOriginsSchema,
    dailyCap: dailyCapSchema,
    accentColor: accentColorSchema.nullable(),
    units: unitSystemSchema,
    /** null goes back to the owner's Settings. */
    pricing: pricingRulesInputSchema.nullable(),
    serviceDistricts: serviceDistrictsSchema,
  })
  .partial();
export type BusinessUpdateInput = z.input<typeof businessUpdateSchema>;
export type BusinessUpdate = z.output<typeof businessUpdateSchema>;

/** A business as its owner sees it: name, slug, rate and instructions, plus allowedOrigins, dailyCap and accentColor. */
export const businessSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  hourlyRate: z.string(),
  aiInstructions: z.string().nullable(),
  allowedOrigins: z.array(z.string()),
  dailyCap: z.number().int(),
  accentColor: z.string().nullable(),
  units: z.enum(UNIT_SYSTEMS),
  /** Its own pricing rules, or null when it prices by the owner's Settings. */
  pricing: pricingRulesResponseSchema.nullable(),
  /** The postcode districts and areas it covers; empty: everywhere. Requests from outside are sent, marked. */
  serviceDistricts: z.array(z.string()),
  /** Analyses its estimator ran today (UTC), against dailyCap. */
  analysesToday: z.number().int(),
  createdAt: z.string(),
});
export type Business = z.infer<typeof businessSchema>;
export const businessListSchema = z.object({ businesses: z.array(businessSchema) });
export const businessResponseSchema = z.object({ business: businessSchema });

/** GET /api/businesses/{slug}: what anyone may read of a business, never owner data or a balance. */
export const publicBusinessSchema = z.object({
  name: z.string(),
  slug: z.string(),
  /** Decimal text such as "45.00". */
  hourlyRate: z.string(),
  /** #rrggbb, or null for the default green. */
  accentColor: z.string().nullable(),
  status: z.enum(EMBED_STATUSES),
  /** The units the estimator asks and shows sizes in (core/units.ts). */
  units: z.enum(UNIT_SYSTEMS),
  /**
   * Whether this server reads a tree's size from the photo (a vision model is configured). When
   * it cannot, the estimator asks the size questions up front; when it can, they are offered as
   * "Let the photo decide". The visitor never reads why.
   */
  sizesFromPhoto: z.boolean(),
});
export type PublicBusiness = z.infer<typeof publicBusinessSchema>;

/** A visitor's optional text: its control and bidi characters dropped, lines kept (core/plain-text.ts), trimmed. */
const optionalTrimmed = (max: number, message: string) =>
  z
    .string()
    .overwrite(plainText)
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v));

const phoneSchema = optionalTrimmed(LEAD_LIMITS.phone, LEAD_MESSAGES.phoneTooLong).refine(
  (v) => v === undefined || isPhoneNumber(v),
  LEAD_MESSAGES.phoneInvalid,
);

const analysisIdSchema = z.number('analysisId is required').int().positive();
/** The estimate answer's leadToken: the proof this visitor saw that estimate (server/analysis/estimate-tokens.ts). */
const leadTokenSchema = z.string(LEAD_TOKEN_REQUIRED).min(1, LEAD_TOKEN_REQUIRED).max(LEAD_TOKEN_MAX, LEAD_TOKEN_REQUIRED);
/** One tree of a quote request: an estimate of the visit and its token. */
export const leadTreeInputSchema = z.object({ analysisId: analysisIdSchema, leadToken: leadTokenSchema });
export type LeadTreeInput = z.infer<typeof leadTreeInputSchema>;
export const LEAD_TREES_MESSAGES = {
  tooMany: `A quote request carries at most ${LEAD_MAX_TREES} trees`,
  none: 'trees must list at least one estimate',
  twice: 'Each estimate may be in trees once',
  conflicting: 'analysisId is also in trees with another leadToken',
} as const;

/**
 * The trees a request carries, in order: `trees`, with the top-level analysisId and leadToken
 * (the one-tree form, which older widgets send) put first when that estimate is not among them.
 * The simplest rule that stays safe: every pair is proven by its own token either way, and one
 * estimate cannot come with two different tokens.
 */
function treesOf(v: { analysisId?: number; leadToken?: string; trees?: LeadTreeInput[] }): LeadTreeInput[] {
  const listed = v.trees ?? [];
  if (v.analysisId === undefined || v.leadToken === undefined) return listed;
  return listed.some((tree) => tree.analysisId === v.analysisId) ? listed : [{ analysisId: v.analysisId, leadToken: v.leadToken }, ...listed];
}

/**
 * POST /api/businesses/{slug}/leads: a name and an e-mail or a phone, an optional note; the
 * honeypot must stay empty. The rules and words are core/lead-checks.ts's, which the widget's
 * form checks with too.
 */
export const leadInputSchema = z
  .object({
    /** The one-tree form: the estimate's id and token. Optional when `trees` is given. */
    analysisId: analysisIdSchema.optional(),
    leadToken: leadTokenSchema.optional(),
    /**
     * Several trees, one request: every estimate of the visit, each with its token, in the order
     * the visitor priced them; the first is the lead's primary. At most LEAD_MAX_TREES, each once.
     */
    trees: z.array(leadTreeInputSchema).min(1, LEAD_TREES_MESSAGES.none).max(LEAD_MAX_TREES, LEAD_TREES_MESSAGES.tooMany).optional(),
    name: z
      .string(LEAD_MESSAGES.nameRequired)
      // A typed line break is refused, as the widget refuses it; any other control or bidi
      // character is dropped and the name kept as one plain line (core/plain-text.ts).
      .refine((v) => !hasLineBreak(v), LEAD_MESSAGES.nameLineBreak)
      .overwrite(plainLine)
      .min(1, LEAD_MESSAGES.nameRequired)
      .max(LEAD_LIMITS.name, LEAD_MESSAGES.nameTooLong),
    email: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v === '' ? undefined : v))
      .pipe(emailSchema.optional()),
    phone: phoneSchema,
    note: optionalTrimmed(LEAD_LIMITS.note, LEAD_MESSAGES.noteTooLong),
    /**
     * Where the job is: a UK postcode in any case and spacing, stored as "LS6 2AB". Required: the
     * widget that sends it is served by this server, so it always asks for one.
     */
    postcode: z
      .string(POSTCODE_REQUIRED)
      .superRefine((text, ctx) => {
        if (!parsePostcode(text)) ctx.addIssue({ code: 'custom', message: text.trim() === '' ? POSTCODE_REQUIRED : POSTCODE_INVALID });
      })
      .transform((text) => parsePostcode(text)?.postcode ?? text),
    address: optionalTrimmed(LEAD_LIMITS.address, LEAD_MESSAGES.addressTooLong),
    /** How and when the visitor would like to hear back (core/contact-preference.ts): one tap each, optional. */
    contactMethod: z.enum(CONTACT_METHODS, 'contactMethod must be phone, email or either').nullish(),
    contactTime: z.enum(CONTACT_TIMES, 'contactTime must be morning, afternoon, evening or any').nullish(),
    [LEAD_HONEYPOT_FIELD]: z.string().max(500).optional(),
  })
  .refine((v) => v.email !== undefined || v.phone !== undefined, {
    message: LEAD_MESSAGES.contactRequired,
    path: ['email'],
  })
  // A chosen way needs its detail, or the business cannot use it.
  .refine((v) => v.contactMethod !== 'phone' || v.phone !== undefined, { message: PHONE_FOR_CALL, path: ['phone'] })
  .refine((v) => v.contactMethod !== 'email' || v.email !== undefined, { message: EMAIL_FOR_EMAIL, path: ['email'] })
  .superRefine((v, ctx) => {
    if (v.trees === undefined) {
      if (v.analysisId === undefined) ctx.addIssue({ code: 'custom', message: 'analysisId is required', path: ['analysisId'] });
      if (v.leadToken === undefined) ctx.addIssue({ code: 'custom', message: LEAD_TOKEN_REQUIRED, path: ['leadToken'] });
      return;
    }
    // With trees, the top-level pair is both or neither: an id without its token proves nothing.
    if ((v.analysisId === undefined) !== (v.leadToken === undefined)) {
      ctx.addIssue({ code: 'custom', message: v.analysisId === undefined ? 'analysisId is required' : LEAD_TOKEN_REQUIRED, path: [v.analysisId === undefined ? 'analysisId' : 'leadToken'] });
    }
    const ids = v.trees.map((tree) => tree.analysisId);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: LEAD_TREES_MESSAGES.twice, path: ['trees'] });
    const same = v.trees.find((tree) => tree.analysisId === v.analysisId);
    if (same && v.leadToken !== undefined && same.leadToken !== v.leadToken) ctx.addIssue({ code: 'custom', message: LEAD_TREES_MESSAGES.conflicting, path: ['analysisId'] });
    if (treesOf(v).length > LEAD_MAX_TREES) ctx.addIssue({ code: 'custom', message: LEAD_TREES_MESSAGES.tooMany, path: ['trees'] });
  })
  .transform(({ analysisId, leadToken, trees, ...details }) => ({ ...details, trees: treesOf({ analysisId, leadToken, trees }) }));
export type LeadInput = z.input<typeof leadInputSchema>;
export type LeadData = z.output<typeof leadInputSchema>;

/** An estimate a visitor sent with a quote request, as its owner reads it. */
const leadEstimateSchema = z.object({
  imageUrl: z.string(),
  species: z.string().nullable(),
  totalMinutes: z.object({ min: z.number().int(), max: z.number().int() }),
  cost: z.object({ min: z.string(), max: z.string() }).nullable(),
  /** The price the visitor was shown (core/price.ts), the same figures and VAT words. */
  price: jobPriceSchema.nullable(),
  /** What the estimate took for the site questions the visitor left unanswered (core/quote.ts siteAssumptions). */
  assumed: z.array(z.string()),
  /** Why the estimate recommends seeing the site first, when it does. */
  siteVisitReason: z.string().nullable(),
  /** Every answer the visitor gave, tree then site (core/visitor-answers.ts). */
  answers: z.array(z.object({ question: z.string(), answer: z.string() })),
});

export const leadSchema = z.object({
  id: z.number().int(),
  businessId: z.number().int(),
  analysisId: z.number().int().nullable(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  note: z.string().nullable(),
  /** The visitor's preferred way and time to be contacted; null when they did not say. */
  contactMethod: z.enum(CONTACT_METHODS).nullable(),
  contactTime: z.enum(CONTACT_TIMES).nullable(),
  /** Where the job is, e.g. "LS6 2AB"; null on requests from before the estimator asked. */
  postcode: z.string().nullable(),
  address: z.string().nullable(),
  /** The postcode was outside the business's districts when the request came. */
  outsideArea: z.boolean(),
  contactedAt: z.string().nullable(),
  createdAt: z.string(),
  /** The newest job made from this request (its quote number is core/jobs.ts jobReference), or null. */
  jobId: z.number().int().nullable(),
  /** The estimate the visitor saw (the first tree's); null if the analysis was since deleted. */
  estimate: leadEstimateSchema.nullable(),
  /** Every tree of the request in the visitor's order, the first being `analysisId` and `estimate`. */
  trees: z.array(z.object({ analysisId: z.number().int().nullable(), estimate: leadEstimateSchema.nullable() })),
  /** The sum of the trees' price ranges as shown (core/lead-total.ts), in pence; null when none is priced. */
  total: z.object({ minPence: z.number().int(), maxPence: z.number().int() }).nullable(),
});
export type Lead = z.infer<typeof leadSchema>;
export const leadListSchema = z.object({ leads: z.array(leadSchema) });
export const leadResponseSchema = z.object({ lead: leadSchema });
/**
 * The answer to a quote request: the thanks, whether the postcode is outside the districts the
 * business lists, and the request's reference (core/embed.ts requestReference).
 */
export const leadThanksSchema = z.object({ message: z.string(), outsideArea: z.boolean(), reference: z.string() });
export type LeadThanks = z.infer<typeof leadThanksSchema>;
export const leadUpdateSchema = z.object({ contacted: z.boolean('contacted must be true or false') });

/** GET /api/businesses/{id}/funnel?days=N: every UTC day of the window, oldest first. */
export const funnelQuerySchema = z.object({
  days: z.coerce
    .number('days must be a whole number')
    .int('days must be a whole number')
    .min(1, 'days must be at least 1')
    .max(FUNNEL_DAYS.max, `days must be at most ${FUNNEL_DAYS.max}`)
    .default(FUNNEL_DAYS.default),
});
export const funnelResponseSchema = z.object({
  days: z.array(
    z.object({
      date: z.string(),
      loads: z.number().int(),
      photos: z.number().int(),
      estimates: z.number().int(),
      needsDetails: z.number().int(),
      leads: z.number().int(),
      /** The trees in that day's leads (a request carries one or more), and trees added to a lead sent again. */
      trees: z.number().int(),
      /** Visitors refused that day because the daily cap or the business's rate was reached. */
      turnedAway: z.number().int(),
    }),
  ),
  /**
   * The quotes made from the business's leads over the same UTC days: jobs with a version sent
   * in them, acceptances in them, and what those acceptances are worth (pounds text, VAT
   * included where charged, with the options the customers chose).
   */
  quotes: z.object({
    sent: z.number().int(),
    accepted: z.number().int(),
    acceptedValue: z.string(),
  }),
});
export type FunnelResponse = z.infer<typeof funnelResponseSchema>;
/** POST /api/businesses/{slug}/events: a step only the widget sees. */
export const widgetEventSchema = z.object({ event: z.enum(WIDGET_EVENTS) });
