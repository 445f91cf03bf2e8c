import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { DEFAULT_QUOTE_VALIDITY_DAYS, formatVatNumber, type CompanyProfileValues } from '../../core/company-profile';
import { penceToDecimal } from '../../core/money';
import type { PricingRules } from '../../core/price';
import { pricingRulesResponse, storedPricingRules } from '../../core/pricing';
import { DEFAULT_QUOTE_REMINDER_DAYS, DEFAULT_QUOTE_ROUNDING_PENCE, quoteRoundingText, storedQuoteTerms, type QuoteRoundingPence } from '../../core/quote-settings';
import { DEFAULT_BANK_HOLIDAY_REGION, DEFAULT_CLIMBING_WIND_LIMIT_MS, DEFAULT_WORKING_DAYS, type BankHolidayRegion, msToMph, type FullSettingsResponse, type ScheduleSettingsResponse, type settingsPatchSchema, type SettingsResponse } from '../../core/settings';
import { DEFAULT_UNIT_SYSTEM, type UnitSystem } from '../../core/units';
import { NESTING_SEASON, type NestingSeason } from '../../core/protection';
import { immediate, type Db } from '../../db/client';
import { systemSettings, users } from '../../db/schema';
import type { Clock } from '../clock';
import { hourlyRatePence } from './hourly-rate';
import { logoVersion } from './logo';
import { getInvoiceSettings, invoiceSettingsColumns, invoiceSettingsResponse, type InvoiceSettings } from './invoice-settings';

/** Per-user AI settings (one system_settings row per user, never another's; docs/product.md, Accounts). */
export interface UserSettings {
  aiInstructions: string;
  hourlyRatePence: number;
  /** The units sizes are entered and shown in (core/units.ts). */
  units: UnitSystem;
  /** The rules beside the hourly rate (core/price.ts); the defaults until saved. */
  pricing: PricingRules;
  /** What the surgeon's quoted prices are rounded to (core/quote-settings.ts); £5 until changed. */
  quoteRoundingPence: QuoteRoundingPence;
  /** The terms on the surgeon's quotes: their own, or the standard ones (DEFAULT_QUOTE_TERMS). */
  quoteTerms: string;
  /** Days after sending when an unanswered quote's customer is reminded, once; 0 for never. */
  quoteReminderDays: number;
  /** The nesting season bookings are checked against (core/protection.ts); 1 March to 31 August until changed. */
  nestingSeason: NestingSeason;
}

/** The company profile on the user's quotes; the VAT number normalised ("GB123456789") or "". */
export interface CompanyProfile extends CompanyProfileValues {
  /** Server-generated file name under DATA_DIR/logos, or null. */
  logoPath: string | null;
}

type SettingsRow = typeof systemSettings.$inferSelect;

function findRow(db: Db, userId: number): SettingsRow | undefined {
  return db.select().from(systemSettings).where(eq(systemSettings.userId, userId)).get();
}

export function getSettings(db: Db, userId: number): UserSettings {
  const row = findRow(db, userId);
  return {
    aiInstructions: row?.aiInstructions ?? '',
    hourlyRatePence: row?.hourlyRatePence ?? 0,
    units: row?.units ?? DEFAULT_UNIT_SYSTEM,
    // Until the rules are saved, VAT follows the profile: a VAT number means VAT is charged.
    pricing: storedPricingRules(row?.pricing, Boolean(row?.vatNumber)),
    quoteRoundingPence: row?.quoteRoundingPence ?? DEFAULT_QUOTE_ROUNDING_PENCE,
    // The standard terms' payment sentence follows the account's payment terms (Getting paid).
    quoteTerms: storedQuoteTerms(row?.quoteTerms, row?.paymentTermsDays),
    quoteReminderDays: row?.quoteReminderDays ?? DEFAULT_QUOTE_REMINDER_DAYS,
    nestingSeason: row?.nestingFrom && row.nestingTo ? { from: row.nestingFrom, to: row.nestingTo } : { ...NESTING_SEASON },
  };
}

export function getCompanyProfile(db: Db, userId: number): CompanyProfile {
  const row = findRow(db, userId);
  return {
    tradingName: row?.tradingName ?? '',
    phone: row?.companyPhone ?? '',
    email: row?.companyEmail ?? '',
    address: row?.companyAddress ?? '',
    vatNumber: row?.vatNumber ?? '',
    quoteValidityDays: row?.quoteValidityDays ?? DEFAULT_QUOTE_VALIDITY_DAYS,
    logoPath: row?.logoPath ?? null,
  };
}

/** Upserts the user's row with only the columns given; the rest keep their value (or default). */
function saveColumns(db: Db, clock: Clock, userId: number, columns: Partial<Omit<SettingsRow, 'id' | 'userId' | 'createdAt' | 'updatedAt'>>): void {
  const now = clock.now();
  db.insert(systemSettings)
    .values({ userId, ...columns, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: systemSettings.userId, set: { ...columns, updatedAt: now } })
    .run();
}

/**
 * The settings as their columns take them: the quote terms are null for the standard ones, so
 * an account that never wrote its own follows any later change to them.
 */
type SettingsColumns = Partial<Omit<UserSettings, 'quoteTerms'> & { quoteTerms: string | null }>;

export function saveSettings(db: Db, clock: Clock, userId: number, settings: SettingsColumns): UserSettings {
  saveColumns(db, clock, userId, settings);
  return getSettings(db, userId);
}

export function saveCompanyProfile(db: Db, clock: Clock, userId: number, profile: CompanyProfileValues): CompanyProfile {
  saveColumns(db, clock, userId, {
    tradingName: profile.tradingName,
    companyPhone: profile.phone,
    companyEmail: profile.email,
    companyAddress: profile.address,
    vatNumber: profile.vatNumber,
    quoteValidityDays: profile.quoteValidityDays,
  });
  return getCompanyProfile(db, userId);
}

/** Records the user's logo file (or none); returns the file it replaced, for the caller to delete. */
export function setLogoPath(db: Db, clock: Clock, userId: number, logoPath: string | null): string | null {
  const previous = findRow(db, userId)?.logoPath ?? null;
  saveColumns(db, clock, userId, { logoPath });
  return previous;
}

/** Whether the account's job times count in the install's starting point (docs/analysis.md, Calibration); on unless turned off. */
export function getShareJobTimes(db: Db, userId: number): boolean {
  return db.select({ share: users.shareJobTimes }).from(users).where(eq(users.id, userId)).get()?.share ?? true;
}

/**
 * Turns the account's share of its job times on or off. The install's starting point is summed
 * afresh for every estimate (server/analysis/calibration.ts pooledCalibration), so the next
 * estimate anyone makes already goes without (or with) this account's jobs.
 */
export function saveShareJobTimes(db: Db, clock: Clock, userId: number, share: boolean): void {
  db.update(users).set({ shareJobTimes: share, updatedAt: clock.now() }).where(eq(users.id, userId)).run();
}

export function toSettingsResponse(settings: UserSettings, profile: CompanyProfile, shareJobTimes: boolean, invoicing: InvoiceSettings): SettingsResponse {
  return {
    ...invoiceSettingsResponse(invoicing),
    aiInstructions: settings.aiInstructions,
    hourlyRate: penceToDecimal(settings.hourlyRatePence),
    companyProfile: {
      tradingName: profile.tradingName,
      phone: profile.phone,
      email: profile.email,
      address: profile.address,
      vatNumber: profile.vatNumber ? formatVatNumber(profile.vatNumber) : '',
      quoteValidityDays: profile.quoteValidityDays,
      logoUrl: profile.logoPath ? `/api/system-settings/logo?v=${logoVersion(profile.logoPath)}` : null,
    },
    shareJobTimes,
    units: settings.units,
    pricing: pricingRulesResponse(settings.pricing),
    quoteRounding: quoteRoundingText(settings.quoteRoundingPence),
    quoteTerms: settings.quoteTerms,
    quoteReminderDays: settings.quoteReminderDays,
    nestingSeason: settings.nestingSeason,
  };
}

/** The team's schedule settings (docs/product.md, Schedule): the defaults until chosen. */
export interface ScheduleSettings {
  /** ISO weekday numbers, 1 Monday … 7 Sunday. */
  workingDays: number[];
  climbingWindLimitMs: number;
  /** "YYYY-MM-DD", sorted. */
  daysOff: string[];
  bankHolidayRegion: BankHolidayRegion;
}

export function getScheduleSettings(db: Db, userId: number): ScheduleSettings {
  const row = findRow(db, userId);
  return {
    workingDays: row?.workingDays ?? [...DEFAULT_WORKING_DAYS],
    climbingWindLimitMs: row?.climbingWindLimitMs ?? DEFAULT_CLIMBING_WIND_LIMIT_MS,
    daysOff: row?.daysOff ?? [],
    bankHolidayRegion: row?.bankHolidayRegion ?? DEFAULT_BANK_HOLIDAY_REGION,
  };
}

/** The mph beside the m/s is the server's, so the dashboard and any e-mail round it the same way. */
function scheduleSettingsResponse(schedule: ScheduleSettings): ScheduleSettingsResponse {
  return { ...schedule, climbingWindLimitMph: msToMph(schedule.climbingWindLimitMs) };
}

/** GET /api/system-settings and the answer of every change to them. */
export function settingsResponseFor(db: Db, userId: number): FullSettingsResponse {
  return {
    ...toSettingsResponse(getSettings(db, userId), getCompanyProfile(db, userId), getShareJobTimes(db, userId), getInvoiceSettings(db, userId)),
    ...scheduleSettingsResponse(getScheduleSettings(db, userId)),
    hospitals: getHospitals(db, userId),
  };
}

/** A hospital of the team's list, where its postcode was located when it was saved. */
export interface LocatedHospital {
  name: string;
  postcode: string;
  latitude: number;
  longitude: number;
}

/** The team's A&E departments for the site check (docs/product.md, The crew's day), in the order given. */
export function getHospitals(db: Db, userId: number): LocatedHospital[] {
  return findRow(db, userId)?.hospitals ?? [];
}

/** A PATCH /api/system-settings body as its schema gives it (the rate still pounds text). */
export type SettingsPatchInput = z.output<typeof settingsPatchSchema>;

/**
 * Applies a settings change: the AI instructions (trimmed), the hourly rate (pounds text, held
 * in pence), units, pricing rules, quote rounding and terms, company profile and the share of
 * job times, and the schedule's working days, climbing wind limit and days off, each only when
 * sent. One transaction: a change with several parts saves all or
 * none, and a rate out of bounds saves nothing. Returns the settings as the API answers them.
 */
export function applySettingsPatch(db: Db, clock: Clock, userId: number, patch: SettingsPatchInput, located: { hospitals?: LocatedHospital[] } = {}): FullSettingsResponse {
  if (patch.hospitals !== undefined && located.hospitals?.length !== patch.hospitals.length) throw new Error('the hospitals are located before they are saved');
  immediate(db, (tx) => {
    const settings: SettingsColumns = {
      ...(patch.aiInstructions !== undefined && { aiInstructions: patch.aiInstructions.trim() }),
      ...(patch.hourlyRate !== undefined && { hourlyRatePence: hourlyRatePence(patch.hourlyRate) }),
      ...(patch.units !== undefined && { units: patch.units }),
      ...(patch.pricing !== undefined && { pricing: patch.pricing }),
      ...(patch.quoteRounding !== undefined && { quoteRoundingPence: patch.quoteRounding }),
      // Already plain text, or null for the standard terms (core/quote-settings.ts quoteTermsSchema).
      ...(patch.quoteTerms !== undefined && { quoteTerms: patch.quoteTerms }),
      ...(patch.quoteReminderDays !== undefined && { quoteReminderDays: patch.quoteReminderDays }),
      ...(patch.nestingSeason !== undefined && { nestingFrom: patch.nestingSeason.from, nestingTo: patch.nestingSeason.to }),
    };
    if (Object.keys(settings).length > 0) saveSettings(tx, clock, userId, settings);
    const invoicing = invoiceSettingsColumns(tx, userId, patch);
    if (Object.keys(invoicing).length > 0) saveColumns(tx, clock, userId, invoicing);
    if (patch.companyProfile) saveCompanyProfile(tx, clock, userId, patch.companyProfile);
    if (patch.shareJobTimes !== undefined) saveShareJobTimes(tx, clock, userId, patch.shareJobTimes);
    const schedule = {
      ...(patch.workingDays !== undefined && { workingDays: patch.workingDays }),
      ...(patch.climbingWindLimitMs !== undefined && { climbingWindLimitMs: patch.climbingWindLimitMs }),
      ...(patch.daysOff !== undefined && { daysOff: patch.daysOff }),
      ...(patch.bankHolidayRegion !== undefined && { bankHolidayRegion: patch.bankHolidayRegion }),
    };
    if (Object.keys(schedule).length > 0) saveColumns(tx, clock, userId, schedule);
    if (located.hospitals !== undefined) saveColumns(tx, clock, userId, { hospitals: located.hospitals });
  });
  return settingsResponseFor(db, userId);
}
