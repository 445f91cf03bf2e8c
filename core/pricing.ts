import { z } from 'zod';
import { parsePence, penceToDecimal } from './money';
import { DEFAULT_PRICING_RULES, PRICE_LINE_CODES, VAT_MODES, type PricingRules } from './price';

/**
 * The pricing rules as the API takes and gives them (Settings, and a business's own rules for its
 * estimator): amounts as pounds text ("250.00"), like the hourly rate; integer pence inside
 * (core/price.ts PricingRules).
 */

/** The most any one rule may be: £100,000 before VAT. A larger figure is a typing slip. */
export const MAX_RULE_PENCE = 10_000_000;
export const MAX_CREW_SIZE = 12;

const AMOUNT_FIELDS = {
  minimumCharge: 'minimumChargePence',
  travel: 'travelPence',
  wastePerTonne: 'wastePerTonnePence',
  stumpGrinding: 'stumpGrindingPence',
  accessPlatform: 'accessPlatformPence',
  trafficManagement: 'trafficManagementPence',
} as const satisfies Record<string, keyof PricingRules>;
type AmountField = keyof typeof AMOUNT_FIELDS;

/** What each amount is called in an error and on the Settings form. */
export const PRICING_FIELD_LABELS: Record<AmountField | 'crewSize' | 'vatMode', string> = {
  crewSize: 'Crew size',
  minimumCharge: 'Minimum charge',
  travel: 'Travel charge',
  wastePerTonne: 'Waste disposal per tonne',
  stumpGrinding: 'Stump grinder',
  accessPlatform: 'Access platform',
  trafficManagement: 'Traffic management',
  vatMode: 'VAT',
};

/** Pounds with at most 2 decimals, 0 to £100,000; "" means 0. Answers pence. */
const amount = (field: AmountField) => {
  const message = `${PRICING_FIELD_LABELS[field]} must be an amount in pounds from 0 to 100000, with at most 2 decimals`;
  return z
    .union([z.string(), z.number()], { error: message })
    .transform((value, ctx) => {
      const pence = parsePence(value);
      if (pence === undefined || pence > MAX_RULE_PENCE) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return pence;
    });
};

const CREW_MESSAGE = `Crew size must be a whole number of people from 1 to ${MAX_CREW_SIZE}`;

/** The rules as sent: every field, so a saved set is always whole. */
export const pricingRulesInputSchema = z
  .object({
    crewSize: z.number({ error: CREW_MESSAGE }).int(CREW_MESSAGE).min(1, CREW_MESSAGE).max(MAX_CREW_SIZE, CREW_MESSAGE),
    minimumCharge: amount('minimumCharge'),
    travel: amount('travel'),
    wastePerTonne: amount('wastePerTonne'),
    stumpGrinding: amount('stumpGrinding'),
    accessPlatform: amount('accessPlatform'),
    trafficManagement: amount('trafficManagement'),
    vatMode: z.enum(VAT_MODES, { error: 'VAT must be none, inc or ex' }),
  })
  .strict()
  .transform(
    (v): PricingRules => ({
      crewSize: v.crewSize,
      minimumChargePence: v.minimumCharge,
      travelPence: v.travel,
      wastePerTonnePence: v.wastePerTonne,
      stumpGrindingPence: v.stumpGrinding,
      accessPlatformPence: v.accessPlatform,
      trafficManagementPence: v.trafficManagement,
      vatMode: v.vatMode,
    }),
  );
export type PricingRulesInput = z.input<typeof pricingRulesInputSchema>;

export const pricingRulesResponseSchema = z.object({
  crewSize: z.number().int(),
  minimumCharge: z.string(),
  travel: z.string(),
  wastePerTonne: z.string(),
  stumpGrinding: z.string(),
  accessPlatform: z.string(),
  trafficManagement: z.string(),
  vatMode: z.enum(VAT_MODES),
});
export type PricingRulesResponse = z.infer<typeof pricingRulesResponseSchema>;

/** The rules as the API answers them. */
export function pricingRulesResponse(rules: PricingRules): PricingRulesResponse {
  const text = Object.fromEntries(
    Object.entries(AMOUNT_FIELDS).map(([field, key]) => [field, penceToDecimal(rules[key] as number)]),
  ) as Record<AmountField, string>;
  return { crewSize: rules.crewSize, ...text, vatMode: rules.vatMode };
}

/**
 * A stored rules column as whole rules: the defaults before any were saved, where VAT is charged
 * (and shown included) when the company profile has a VAT number, as quotes always did.
 */
export function storedPricingRules(stored: Partial<PricingRules> | null | undefined, vatRegistered = false): PricingRules {
  return { ...DEFAULT_PRICING_RULES, vatMode: vatRegistered ? 'inc' : 'none', ...(stored ?? {}) };
}

/** How a stored price is checked where it is read back (the analysis API shape). */
const priceLineSchema = z.object({
  code: z.enum(PRICE_LINE_CODES),
  label: z.string(),
  detail: z.string(),
  minPence: z.number().int(),
  maxPence: z.number().int(),
});
export const jobPriceSchema = z.object({
  lines: z.array(priceLineSchema),
  minimumChargePence: z.number().int(),
  netMinPence: z.number().int(),
  netMaxPence: z.number().int(),
  vatMode: z.enum(VAT_MODES),
  vatRatePercent: z.number().int(),
  vatMinPence: z.number().int(),
  vatMaxPence: z.number().int(),
  grossMinPence: z.number().int(),
  grossMaxPence: z.number().int(),
  crewSize: z.number().int(),
});
