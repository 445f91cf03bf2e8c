import { eq } from 'drizzle-orm';
import { penceToDecimal } from '../../core/money';
import type { SettingsResponse } from '../../core/analysis';
import type { Db } from '../../db/client';
import { systemSettings } from '../../db/schema';
import type { Clock } from '../clock';

/** Per-user AI settings (DECISIONS: one system_settings row per user, never another's). */
export interface UserSettings {
  aiInstructions: string;
  hourlyRatePence: number;
}

export function getSettings(db: Db, userId: number): UserSettings {
  const row = db.select().from(systemSettings).where(eq(systemSettings.userId, userId)).get();
  return { aiInstructions: row?.aiInstructions ?? '', hourlyRatePence: row?.hourlyRatePence ?? 0 };
}

export function saveSettings(db: Db, clock: Clock, userId: number, settings: UserSettings): UserSettings {
  const now = clock.now();
  db.insert(systemSettings)
    .values({ userId, ...settings, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: systemSettings.userId, set: { ...settings, updatedAt: now } })
    .run();
  return getSettings(db, userId);
}

export function toSettingsResponse(settings: UserSettings): SettingsResponse {
  return { aiInstructions: settings.aiInstructions, hourlyRate: penceToDecimal(settings.hourlyRatePence) };
}
