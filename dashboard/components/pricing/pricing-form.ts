import { z } from 'zod';
import { formatGbp, parsePence } from '../../../core/money';
import { DEFAULT_PRICING_RULES, type VatMode } from '../../../core/price';
import { pricingRulesInputSchema, pricingRulesResponse, type PricingRulesInput, type PricingRulesResponse } from '../../../core/pricing';

/**
 * The pricing rules as a form holds them (Settings, and a business's own prices) and how they
 * become the API's JSON. The checks are the server's own schema (core/pricing.ts), so a rule is
 * refused here for the same reason and in the same words as there.
 */

/** The amounts, in the order the form shows them. */
export const PRICING_AMOUNT_FIELDS = ['minimumCharge', 'travel', 'wastePerTonne', 'stumpGrinding', 'accessPlatform', 'trafficManagement'] as const;
export type PricingAmountField = (typeof PRICING_AMOUNT_FIELDS)[number];

/** What the inputs hold: pounds text ("" for none), the crew size as a number (NaN when emptied). */
export type PricingFormValues = { crewSize: number; vatMode: VatMode } & Record<PricingAmountField, string>;

/** Every field a server error can name, as the form's paths ("pricing.travel"). */
export const PRICING_FIELD_PATHS = (['crewSize', ...PRICING_AMOUNT_FIELDS, 'vatMode'] as const).map((field) => `pricing.${field}` as const);

/** Saved rules as the form's starting values: an amount of 0 is an empty field, read as "none". */
export function pricingFormValues(rules: PricingRulesResponse): PricingFormValues {
  const amounts = Object.fromEntries(
    PRICING_AMOUNT_FIELDS.map((field) => [field, parsePence(rules[field]) === 0 ? '' : rules[field]]),
  ) as Record<PricingAmountField, string>;
  return { crewSize: rules.crewSize, ...amounts, vatMode: rules.vatMode };
}

/** A new business's own prices before the owner's Settings are known: a crew of two, nothing else. */
export const DEFAULT_PRICING_FORM_VALUES = pricingFormValues(pricingRulesResponse(DEFAULT_PRICING_RULES));

/** The form's values as the API takes them: every field, an empty amount sent as "0". */
export function pricingPayload(values: PricingFormValues): PricingRulesInput {
  const amounts = Object.fromEntries(
    PRICING_AMOUNT_FIELDS.map((field) => [field, values[field].trim() || '0']),
  ) as Record<PricingAmountField, string>;
  return { crewSize: values.crewSize, ...amounts, vatMode: values.vatMode };
}

/** Why the server would refuse these values, each message on its field under `path`. */
export function addPricingIssues(values: PricingFormValues, ctx: z.RefinementCtx, path: PropertyKey[]): void {
  const result = pricingRulesInputSchema.safeParse(pricingPayload(values));
  if (result.success) return;
  for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, ...issue.path] });
}

/** The rules alone (the Settings form): checked, and answered as the API's JSON. */
export const pricingFormSchema = z
  .custom<PricingFormValues>()
  .superRefine((values, ctx) => addPricingIssues(values, ctx, []))
  .transform(pricingPayload);

/** Whether a business prices by its owner's Settings or by prices of its own. */
export const PRICING_SOURCES = ['settings', 'own'] as const;
export type PricingSource = (typeof PRICING_SOURCES)[number];

export const PRICING_SOURCE_LABELS: Record<PricingSource, string> = {
  settings: "Use my Settings' pricing rules",
  own: 'Set prices for this estimator',
};

/**
 * What to say beside the VAT choice when it and the company profile disagree: a VAT number
 * with no VAT charged, or VAT charged with no number for the quote to print. `vatNumber`
 * undefined means the profile is not known here, and nothing is said.
 */
export function vatHint(vatMode: VatMode, vatNumber: string | undefined): string | null {
  if (vatNumber === undefined) return null;
  const registered = vatNumber.trim() !== '';
  if (registered && vatMode === 'none')
    return 'Your Company profile has a VAT number, yet no VAT is charged. If you are VAT-registered, choose one of the VAT options.';
  if (!registered && vatMode !== 'none') return 'Add your VAT number to the Company profile so it is printed on quotes.';
  return null;
}

const VAT_SUMMARY: Record<VatMode, string> = { none: 'no VAT', inc: 'prices shown inc VAT', ex: 'prices shown ex VAT' };

/** A business's own rules in one line for its card: "Crew of 2; minimum charge £250.00; ...; prices shown inc VAT". */
export function pricingSummary(rules: PricingRulesResponse): string {
  const parts = [`Crew of ${rules.crewSize}`];
  const named: [PricingAmountField, string][] = [
    ['minimumCharge', 'minimum charge'],
    ['travel', 'travel'],
    ['wastePerTonne', 'waste per tonne'],
    ['stumpGrinding', 'stump grinder'],
    ['accessPlatform', 'access platform'],
    ['trafficManagement', 'traffic management'],
  ];
  for (const [field, words] of named) {
    const pence = parsePence(rules[field]);
    if (pence) parts.push(`${words} ${formatGbp(pence)}`);
  }
  parts.push(VAT_SUMMARY[rules.vatMode]);
  return parts.join('; ');
}
