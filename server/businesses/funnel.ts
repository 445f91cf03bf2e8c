import { and, between, eq, sql } from 'drizzle-orm';
import type { FunnelDay, FunnelStep } from '../../core/embed';
import type { Db } from '../../db/client';
import { embedFunnel } from '../../db/schema';
import type { Clock } from '../clock';
import { utcDay } from '../analysis/embed-usage';

/**
 * A business's estimator funnel, one row per UTC day with a count per step (docs/embedding.md, The funnel). Only
 * numbers: no visitor, address or cookie is stored. The HTTP layer decides what counts (loads
 * and photos at most so often per address, so a script cannot inflate them cheaply).
 */
const COLUMNS = {
  loads: embedFunnel.loads,
  photos: embedFunnel.photos,
  estimates: embedFunnel.estimates,
  needsDetails: embedFunnel.needsDetails,
  leads: embedFunnel.leads,
  trees: embedFunnel.trees,
} as const;

/** Adds `by` (one unless said: a quote request adds its trees at once) to today's count of `step`. */
export function countFunnelStep(db: Db, clock: Clock, businessId: number, step: FunnelStep, by = 1): void {
  const column = COLUMNS[step];
  db.insert(embedFunnel)
    .values({ businessId, day: utcDay(clock.now()), [step]: by })
    .onConflictDoUpdate({ target: [embedFunnel.businessId, embedFunnel.day], set: { [step]: sql`${column} + ${by}` } })
    .run();
}

/** Adds one to today's visitors turned away by the business's daily cap or rate (limit-notice.ts). */
export function countTurnedAway(db: Db, clock: Clock, businessId: number): void {
  db.insert(embedFunnel)
    .values({ businessId, day: utcDay(clock.now()), turnedAway: 1 })
    .onConflictDoUpdate({ target: [embedFunnel.businessId, embedFunnel.day], set: { turnedAway: sql`${embedFunnel.turnedAway} + 1` } })
    .run();
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The last `days` UTC days up to today as one span, the days funnelDays counts: what the
 * funnel's quote figures (server/jobs/summary.ts funnelQuotes) are summed over.
 */
export function funnelWindow(clock: Clock, days: number): { start: Date; end: Date } {
  const tomorrow = Date.parse(`${utcDay(clock.now())}T00:00:00Z`) + DAY_MS;
  return { start: new Date(tomorrow - days * DAY_MS), end: new Date(tomorrow) };
}

/** The last `days` UTC days up to today, oldest first, each present (zeros where nothing was counted). */
export function funnelDays(db: Db, clock: Clock, businessId: number, days: number): FunnelDay[] {
  const today = Date.parse(`${utcDay(clock.now())}T00:00:00Z`);
  const dates = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
  const rows = db
    .select()
    .from(embedFunnel)
    .where(and(eq(embedFunnel.businessId, businessId), between(embedFunnel.day, dates[0]!, dates[dates.length - 1]!)))
    .all();
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return dates.map((date) => {
    const row = byDay.get(date);
    return {
      date,
      loads: row?.loads ?? 0,
      photos: row?.photos ?? 0,
      estimates: row?.estimates ?? 0,
      needsDetails: row?.needsDetails ?? 0,
      leads: row?.leads ?? 0,
      trees: row?.trees ?? 0,
      turnedAway: row?.turnedAway ?? 0,
    };
  });
}
