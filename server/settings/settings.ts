import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { DEFAULT_QUOTE_VALIDITY_DAYS, formatVatNumber, type CompanyProfileValues } from '../../core/company-profile';
import { penceToDecimal } from '../../core/money';
import type { PricingRules } from '../../core/price';
import { pricingRulesResponse, storedPricingRules } from '../../core/pricing';
import type { settingsPatchSchema, SettingsResponse } from '../../core/analysis';
import { DEFAULT_UNIT_SYSTEM, type UnitSystem } from '../../core/units';
import { immediate, type Db } from '../../db/client';
import { systemSettings, users } from '../../db/schema';
import type { Clock } from '../clock';
import { hourlyRatePence } from './hourly-rate';
import { logoVersion } from './logo';

/** Per-user AI settings (one system_settings row per user, never another's; docs/product.md, Accounts). */
export interface UserSettings {
  aiInstructions: string;
  hourlyRatePence: number;
  /** The units sizes are entered and shown in (core/units.ts). */
  units: UnitSystem;
  /** The rules beside the hourly rate (core/price.ts); the defaults until saved. */
  pricing: PricingRules;
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

export function saveSettings(db: Db, clock: Clock, userId: number, settings: Partial<UserSettings>): UserSettings {
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

export function toSettingsResponse(settings: UserSettings, profile: CompanyProfile, shareJobTimes: boolean): SettingsResponse {
  return {
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
  };
}

/** GET /api/system-settings and the answer of every change to them. */
export function settingsResponseFor(db: Db, userId: number): SettingsResponse {
  return toSettingsResponse(getSettings(db, userId), getCompanyProfile(db, userId), getShareJobTimes(db, userId));
}

/** A PATCH /api/system-settings body as its schema gives it (the rate still pounds text). */
export type SettingsPatchInput = z.output<typeof settingsPatchSchema>;

/**
 * Applies a settings change: the AI instructions (trimmed), the hourly rate (pounds text, held
 * in pence), units, pricing rules, company profile and the share of job times, each only when
 * sent. One transaction: a change with several parts saves all or none, and a rate out of
 * bounds saves nothing. Returns the settings as the API answers them.
 */
export function applySettingsPatch(db: Db, clock: Clock, userId: number, patch: SettingsPatchInput): SettingsResponse {
  immediate(db, (tx) => {
    const settings: Partial<UserSettings> = {
      ...(patch.aiInstructions !== undefined && { aiInstructions: patch.aiInstructions.trim() }),
      ...(patch.hourlyRate !== undefined && { hourlyRatePence: hourlyRatePence(patch.hourlyRate) }),
      ...(patch.units !== undefined && { units: patch.units }),
      ...(patch.pricing !== undefined && { pricing: patch.pricing }),
    };
    if (Object.keys(settings).length > 0) saveSettings(tx, clock, userId, settings);
    if (patch.companyProfile) saveCompanyProfile(tx, clock, userId, patch.companyProfile);
    if (patch.shareJobTimes !== undefined) saveShareJobTimes(tx, clock, userId, patch.shareJobTimes);
  });
  return settingsResponseFor(db, userId);
}
