import { z } from 'zod';
import { hospitalsSchema } from './crew-day';
import { hourlyRateTextSchema, MAX_INSTRUCTIONS_CHARS } from './analysis';
import { companyProfileResponseSchema, companyProfileSchema } from './company-profile';
import { invoiceSettingsFields } from './invoices';
import { pricingRulesInputSchema, pricingRulesResponseSchema } from './pricing';
import { nestingSeasonSchema } from './protection';
import { QUOTE_ROUNDINGS, quoteReminderDaysSchema, quoteRoundingSchema, quoteTermsSchema } from './quote-settings';
import { UNIT_SYSTEMS } from './units';

/*
 * The account's settings (GET and PATCH /api/system-settings; docs/product.md, Accounts): one
 * schema over the parts each capability defines (the company profile, pricing, quotes, the
 * nesting season, getting paid). It reads down to those modules; none of them reads it, so
 * core/ has no import cycle through it (core/no-cycles.test.ts).
 */

/*
 * The schedule's settings (docs/product.md, Schedule): defined here rather than in core/crews.ts,
 * so this module keeps reading only down to the modules it reads (build/layers.test.ts).
 */
/**
 * The climbing wind limit until the owner sets one: 10.7 m/s (24 mph), the top of Beaufort
 * force 5 (Met Office, Beaufort wind force scale), the common UK working rule of calling climbing
 * off above force 5. No law or British Standard gives a figure for climbing: it is a matter for
 * the employer's risk assessment, so the owner's to set.
 */
export const DEFAULT_CLIMBING_WIND_LIMIT_MS = 10.7;

/** Monday to Friday, as ISO weekday numbers (1 Monday … 7 Sunday). */
export const DEFAULT_WORKING_DAYS: readonly number[] = [1, 2, 3, 4, 5];

export const SCHEDULE_SETTINGS_LIMITS = { windMs: { min: 1, max: 40 }, daysOff: 366 } as const;

export const SCHEDULE_SETTINGS_MESSAGES = {
  workingDays: 'Choose at least one working day (1 Monday to 7 Sunday)',
  climbingWindLimit: `The climbing wind limit is ${SCHEDULE_SETTINGS_LIMITS.windMs.min} to ${SCHEDULE_SETTINGS_LIMITS.windMs.max} m/s`,
  dayOff: 'Give each day off as YYYY-MM-DD, a real date',
  daysOff: `At most ${SCHEDULE_SETTINGS_LIMITS.daysOff} days off`,
  bankHolidayRegion: "Choose the bank holidays: 'england-and-wales', 'scotland' or 'northern-ireland'",
} as const;

/** Whose bank holidays the schedule keeps: England and Wales share theirs (core/work-calendar.ts). */
export const BANK_HOLIDAY_REGIONS = ['england-and-wales', 'scotland', 'northern-ireland'] as const;
export type BankHolidayRegion = (typeof BANK_HOLIDAY_REGIONS)[number];
export const DEFAULT_BANK_HOLIDAY_REGION: BankHolidayRegion = 'england-and-wales';

/** Metres a second as whole miles an hour, as a UK forecast says it (1 mph is 0.44704 m/s exactly). */
export function msToMph(ms: number): number {
  return Math.round(ms / 0.44704);
}

/** "2026-12-25" when it is a real date on the calendar (no 30 February). */
function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

const M = SCHEDULE_SETTINGS_MESSAGES;

/** The schedule's fields of PATCH /api/system-settings. */
const scheduleSettingsPatchFields = {
  /** ISO weekday numbers, 1 Monday to 7 Sunday; answered sorted, each once. */
  workingDays: z
    .array(z.number(M.workingDays).int(M.workingDays).min(1, M.workingDays).max(7, M.workingDays), M.workingDays)
    .min(1, M.workingDays)
    .max(7, M.workingDays)
    .transform((days) => [...new Set(days)].sort((a, b) => a - b))
    .optional(),
  /** The owner's (core/permissions.ts SETTINGS_FIELD_AREAS): the gusts above which nobody climbs, held to one decimal. */
  climbingWindLimitMs: z
    .number(M.climbingWindLimit)
    .min(SCHEDULE_SETTINGS_LIMITS.windMs.min, M.climbingWindLimit)
    .max(SCHEDULE_SETTINGS_LIMITS.windMs.max, M.climbingWindLimit)
    .transform((v) => Math.round(v * 10) / 10)
    .optional(),
  /** The team's days off, "YYYY-MM-DD": kept sorted and each once, whatever order they come in. */
  daysOff: z
    .array(z.string(M.dayOff).trim().refine(isCalendarDate, M.dayOff), M.dayOff)
    .max(SCHEDULE_SETTINGS_LIMITS.daysOff, M.daysOff)
    .transform((days) => [...new Set(days)].sort())
    .optional(),
  /** The bank holidays the schedule keeps free: England and Wales unless chosen. */
  bankHolidayRegion: z.enum(BANK_HOLIDAY_REGIONS, { error: M.bankHolidayRegion }).optional(),
};

const scheduleSettingsResponseFields = {
  workingDays: z.array(z.number().int()),
  climbingWindLimitMs: z.number(),
  /** The same limit in whole miles an hour, as UK forecasts say it. */
  climbingWindLimitMph: z.number().int(),
  daysOff: z.array(z.string()),
  bankHolidayRegion: z.enum(BANK_HOLIDAY_REGIONS),
};

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
    /** The schedule (core/crews.ts): working days, days off, and the owner's climbing wind limit. */
    ...scheduleSettingsPatchFields,
    /** The team's A&E departments for the site check's emergency plan (core/crew-day.ts), the whole list when sent; each located once, when saved. */
    hospitals: hospitalsSchema.optional(),
  })
  .refine((v) => Object.values(v).some((part) => part !== undefined), {
    message: 'Send aiInstructions, hourlyRate, companyProfile, shareJobTimes, units, pricing, quoteRounding, quoteTerms, quoteReminderDays, nestingSeason, a Getting paid field, workingDays, climbingWindLimitMs, daysOff, bankHolidayRegion or hospitals to save',
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

/** The schedule's settings as GET and PATCH /api/system-settings answer them (core/crews.ts). */
export const scheduleSettingsResponseSchema = z.object(scheduleSettingsResponseFields);
export type ScheduleSettingsResponse = z.infer<typeof scheduleSettingsResponseSchema>;

/**
 * The whole answer of GET and PATCH /api/system-settings: the settings above and the schedule's.
 * Kept beside settingsResponseSchema rather than in it so the answers' earlier parts read as they
 * did (tests that compare them whole parse with settingsResponseSchema, which drops the rest).
 */
export const fullSettingsResponseSchema = settingsResponseSchema.extend({
  ...scheduleSettingsResponseFields,
  /** The team's A&E departments, each where its postcode was located when saved (the site check's nearest hospital). */
  hospitals: z.array(z.object({ name: z.string(), postcode: z.string(), latitude: z.number(), longitude: z.number() })),
});
export type FullSettingsResponse = z.infer<typeof fullSettingsResponseSchema>;
