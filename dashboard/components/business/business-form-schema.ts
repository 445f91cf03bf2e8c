import { z } from 'zod';
import { hourlyRateTextSchema, MAX_INSTRUCTIONS_CHARS } from '../../../core/analysis';
import {
  MAX_ALLOWED_ORIGINS,
  REQUIRED_FIELDS_MESSAGE,
  slugSchema,
  type Business,
  type BusinessCreateInput,
  type BusinessUpdateInput,
} from '../../../core/business';
import { canonicalOrigin, DEFAULT_DAILY_CAP, MAX_DAILY_CAP, notAnOriginMessage } from '../../../core/embed';
import { parseDistricts } from '../../../core/postcode';
import { DEFAULT_UNIT_SYSTEM, UNIT_SYSTEMS } from '../../../core/units';
import {
  addPricingIssues,
  DEFAULT_PRICING_FORM_VALUES,
  PRICING_SOURCES,
  pricingFormValues,
  pricingPayload,
  type PricingFormValues,
} from '../pricing/pricing-form';

/**
 * The Business Admin forms as the browser holds them (every input's text, plus the
 * "use default colour" tick) and how they become the API's JSON. The rules are the
 * server's (core/business.ts), checked here first so most mistakes are named at once,
 * each on its own field.
 */

/** The estimator's own green when a business picks no accent (the example in core/business.ts). */
export const DEFAULT_ACCENT = '#166534';

/** Every line of the textarea is checked, and a bad one is named by its line number as the user sees it. */
const originsTextSchema = z.string().transform((text, ctx) => {
  const origins: string[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    const origin = canonicalOrigin(line);
    if (!origin) {
      // The server's words (core/business.ts), with the line the owner can find it on.
      ctx.addIssue({ code: 'custom', message: `Line ${index + 1}: ${notAnOriginMessage(line)}` });
      return z.NEVER;
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  if (origins.length > MAX_ALLOWED_ORIGINS) {
    ctx.addIssue({ code: 'custom', message: `List at most ${MAX_ALLOWED_ORIGINS} site origins.` });
    return z.NEVER;
  }
  return origins;
});

/** "LS1, LS6, BD" (commas, spaces or lines) as the API's list, by the server's own parser and words. */
const districtsTextSchema = z.string().transform((text, ctx) => {
  const parsed = parseDistricts(text);
  if ('error' in parsed) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return parsed.districts;
});

const settingsFields = {
  // The rate is required for a business, unlike AI Settings' rate where empty means 0.
  hourlyRate: hourlyRateTextSchema.refine((v) => v !== '', REQUIRED_FIELDS_MESSAGE),
  // Sent as null when empty.
  aiInstructions: z
    .string()
    .max(MAX_INSTRUCTIONS_CHARS, `Instructions must be at most ${MAX_INSTRUCTIONS_CHARS} characters`)
    .transform((v) => (v.trim() === '' ? null : v.trim())),
  allowedOrigins: originsTextSchema,
  /** The postcode districts the business covers; empty for anywhere. */
  serviceDistricts: districtsTextSchema,
  dailyCap: z
    .string()
    .trim()
    .regex(/^\d+$/, 'Daily cap must be a whole number')
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, 'Daily cap must be at least 1')
        .max(MAX_DAILY_CAP, `Daily cap must be at most ${MAX_DAILY_CAP.toLocaleString('en-GB')}`),
    ),
  accentColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Pick a colour, or use the default'),
  useDefaultAccent: z.boolean(),
  /** The units the estimator asks and shows sizes in. */
  units: z.enum(UNIT_SYSTEMS),
  /** By the owner's Settings, or by the rules under `pricing` (checked only then, by ownPricingChecked). */
  pricingSource: z.enum(PRICING_SOURCES),
  pricing: z.custom<PricingFormValues>(),
};

/** A business's own prices are checked when it has them; left on the owner's Settings, the hidden fields are not. */
function ownPricingChecked(values: { pricingSource: string; pricing: PricingFormValues }, ctx: z.RefinementCtx) {
  if (values.pricingSource === 'own') addPricingIssues(values.pricing, ctx, ['pricing']);
}

/** The API's `pricing`: the rules, or null for the owner's Settings. */
function pricingOf(values: { pricingSource: string; pricing: PricingFormValues }) {
  return values.pricingSource === 'own' ? pricingPayload(values.pricing) : null;
}

function accentOf(values: { accentColor: string; useDefaultAccent: boolean }): string | null {
  return values.useDefaultAccent ? null : values.accentColor.toLowerCase();
}

export const createBusinessFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, REQUIRED_FIELDS_MESSAGE)
      .max(100, 'Must be at most 100 characters'),
    slug: slugSchema,
    ...settingsFields,
  })
  .superRefine(ownPricingChecked)
  .transform(
    ({ useDefaultAccent, accentColor, pricingSource, pricing, ...values }): BusinessCreateInput => ({
      ...values,
      accentColor: accentOf({ accentColor, useDefaultAccent }),
      pricing: pricingOf({ pricingSource, pricing }),
    }),
  );
export type CreateBusinessFormValues = z.input<typeof createBusinessFormSchema>;

export const editBusinessFormSchema = z
  .object(settingsFields)
  .superRefine(ownPricingChecked)
  .transform(
    ({ useDefaultAccent, accentColor, pricingSource, pricing, ...values }): BusinessUpdateInput => ({
      ...values,
      accentColor: accentOf({ accentColor, useDefaultAccent }),
      pricing: pricingOf({ pricingSource, pricing }),
    }),
  );
export type EditBusinessFormValues = z.input<typeof editBusinessFormSchema>;

export const EMPTY_CREATE_FORM: CreateBusinessFormValues = {
  name: '',
  slug: '',
  hourlyRate: '',
  aiInstructions: '',
  allowedOrigins: '',
  serviceDistricts: '',
  dailyCap: String(DEFAULT_DAILY_CAP),
  accentColor: DEFAULT_ACCENT,
  useDefaultAccent: true,
  units: DEFAULT_UNIT_SYSTEM,
  pricingSource: 'settings',
  pricing: DEFAULT_PRICING_FORM_VALUES,
};

/** A saved business as the edit form's starting values. */
export function editFormValues(business: Business): EditBusinessFormValues {
  return {
    hourlyRate: business.hourlyRate,
    aiInstructions: business.aiInstructions ?? '',
    allowedOrigins: business.allowedOrigins.join('\n'),
    serviceDistricts: business.serviceDistricts.join(', '),
    dailyCap: String(business.dailyCap),
    accentColor: business.accentColor ?? DEFAULT_ACCENT,
    useDefaultAccent: business.accentColor === null,
    units: business.units,
    pricingSource: business.pricing ? 'own' : 'settings',
    pricing: business.pricing ? pricingFormValues(business.pricing) : DEFAULT_PRICING_FORM_VALUES,
  };
}

/**
 * docs/product.md, Embed widget: one message for missing required fields. It is shown once, above the
 * buttons; each empty field says "Required" so the user sees which ones.
 */
export function fieldErrorText(message: string | undefined): string | undefined {
  return message === REQUIRED_FIELDS_MESSAGE ? 'Required' : message;
}
