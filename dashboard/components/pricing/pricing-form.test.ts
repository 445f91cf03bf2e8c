import { describe, expect, it } from 'vitest';
import { pricingRulesInputSchema, type PricingRulesResponse } from '../../../core/pricing';
import { createBusinessFormSchema, EMPTY_CREATE_FORM, editBusinessFormSchema, editFormValues } from '../business/business-form-schema';
import type { Business } from '../../../core/business';
import {
  DEFAULT_PRICING_FORM_VALUES,
  pricingFormSchema,
  pricingFormValues,
  pricingPayload,
  pricingSummary,
  vatHint,
  type PricingFormValues,
} from './pricing-form';

const SAVED: PricingRulesResponse = {
  crewSize: 3,
  minimumCharge: '250.00',
  travel: '30.00',
  wastePerTonne: '0.00',
  stumpGrinding: '90.00',
  accessPlatform: '0.00',
  trafficManagement: '0.00',
  vatMode: 'inc',
};

const FORM: PricingFormValues = {
  crewSize: 2,
  minimumCharge: '250',
  travel: ' 30.5 ',
  wastePerTonne: '',
  stumpGrinding: '90',
  accessPlatform: '',
  trafficManagement: '',
  vatMode: 'inc',
};

describe('pricing rules between the form and the API', () => {
  it('shows saved amounts as typed and an amount of 0 as an empty field', () => {
    expect(pricingFormValues(SAVED)).toEqual({
      crewSize: 3,
      minimumCharge: '250.00',
      travel: '30.00',
      wastePerTonne: '',
      stumpGrinding: '90.00',
      accessPlatform: '',
      trafficManagement: '',
      vatMode: 'inc',
    });
  });

  it('sends every field, trimmed, an empty amount as 0, and the server reads it to pence', () => {
    const payload = pricingPayload(FORM);
    expect(payload).toEqual({
      crewSize: 2,
      minimumCharge: '250',
      travel: '30.5',
      wastePerTonne: '0',
      stumpGrinding: '90',
      accessPlatform: '0',
      trafficManagement: '0',
      vatMode: 'inc',
    });
    expect(pricingRulesInputSchema.parse(payload)).toMatchObject({ minimumChargePence: 25_000, travelPence: 3050, wastePerTonnePence: 0, stumpGrindingPence: 9000 });
  });

  it('round-trips: saved rules shown in the form are sent back unchanged in value', () => {
    const back = pricingRulesInputSchema.parse(pricingPayload(pricingFormValues(SAVED)));
    expect(back).toEqual(pricingRulesInputSchema.parse(SAVED));
  });

  it("refuses what the server refuses, in the server's words, on the field", () => {
    const result = pricingFormSchema.safeParse({ ...FORM, crewSize: Number.NaN, travel: '12.345', stumpGrinding: '-5' });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]));
    expect(Object.keys(byField).sort()).toEqual(['crewSize', 'stumpGrinding', 'travel']);
    expect(byField.crewSize).toMatch(/^Crew size must be a whole number of people from 1 to 12/);
    expect(byField.travel).toMatch(/^Travel charge must be an amount in pounds/);
    expect(pricingFormSchema.safeParse({ ...FORM, crewSize: 13 }).success).toBe(false);
    expect(pricingFormSchema.parse(FORM)).toEqual(pricingPayload(FORM));
  });
});

describe('the VAT hint beside the choice', () => {
  it('speaks when the choice and the VAT number disagree, and only then', () => {
    expect(vatHint('none', 'GB 123 4567 89')).toMatch(/has a VAT number, yet no VAT is charged/);
    expect(vatHint('inc', '')).toBe('Add your VAT number to the Company profile so it is printed on quotes.');
    expect(vatHint('ex', '  ')).toBe('Add your VAT number to the Company profile so it is printed on quotes.');
    expect(vatHint('inc', 'GB 123 4567 89')).toBeNull();
    expect(vatHint('none', '')).toBeNull();
    expect(vatHint('inc', undefined)).toBeNull();
  });
});

describe("a business's prices", () => {
  const business: Business = {
    id: 1,
    name: 'Oak & Ash',
    slug: 'oak-ash',
    hourlyRate: '60.00',
    aiInstructions: null,
    allowedOrigins: [],
    dailyCap: 50,
    accentColor: null,
    units: 'metric',
    pricing: null,
    serviceDistricts: [],
    analysesToday: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
  };

  it("sends null for the owner's Settings, and does not check the hidden fields then", () => {
    const values = { ...editFormValues(business), pricing: { ...DEFAULT_PRICING_FORM_VALUES, travel: 'lots' } };
    expect(values.pricingSource).toBe('settings');
    expect(editBusinessFormSchema.parse(values).pricing).toBeNull();
  });

  it('sends its own rules when chosen, and names a bad one under pricing', () => {
    const own = { ...EMPTY_CREATE_FORM, name: 'Oak & Ash', slug: 'oak-ash', hourlyRate: '60', pricingSource: 'own' as const, pricing: FORM };
    expect(createBusinessFormSchema.parse(own).pricing).toEqual(pricingPayload(FORM));
    const bad = createBusinessFormSchema.safeParse({ ...own, pricing: { ...FORM, travel: 'lots' } });
    expect(bad.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['pricing.travel']);
  });

  it('an edited business starts with its current choice and rules', () => {
    const values = editFormValues({ ...business, pricing: SAVED });
    expect(values.pricingSource).toBe('own');
    expect(values.pricing).toEqual(pricingFormValues(SAVED));
  });

  it("the card sums up its own rules in a line, naming only the charges it makes", () => {
    expect(pricingSummary(SAVED)).toBe('Crew of 3; minimum charge £250.00; travel £30.00; stump grinder £90.00; prices shown inc VAT');
    expect(pricingSummary({ ...SAVED, minimumCharge: '0.00', travel: '0.00', stumpGrinding: '0.00', crewSize: 1, vatMode: 'none' })).toBe('Crew of 1; no VAT');
  });
});
