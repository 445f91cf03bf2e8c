import { and, eq, isNotNull, or } from 'drizzle-orm';
import { calibrationFactor, type Observation } from '../../core/calibration';
import type { Db } from '../../db/client';
import { treeAnalyses } from '../../db/schema';
import type { Calibration } from './estimate';

/** The user's feedback so far, as per-component calibration factors; null before any feedback. */
export function loadCalibration(db: Db, userId: number): Calibration | null {
  const rows = db
    .select({
      baseTimes: treeAnalyses.baseTimes,
      cutting: treeAnalyses.actualCuttingTime,
      prep: treeAnalyses.actualPrepTime,
      cleanup: treeAnalyses.actualCleanupTime,
    })
    .from(treeAnalyses)
    .where(
      and(
        eq(treeAnalyses.userId, userId),
        isNotNull(treeAnalyses.baseTimes),
        or(isNotNull(treeAnalyses.actualCuttingTime), isNotNull(treeAnalyses.actualPrepTime), isNotNull(treeAnalyses.actualCleanupTime)),
      ),
    )
    .all();
  if (rows.length === 0) return null;
  const observations = (part: 'cutting' | 'prep' | 'cleanup'): Observation[] =>
    rows.flatMap((r) => (r.baseTimes && r[part] !== null ? [{ estimated: r.baseTimes[part], actual: r[part] }] : []));
  return {
    jobs: rows.length,
    factors: {
      cutting: calibrationFactor(observations('cutting')),
      prep: calibrationFactor(observations('prep')),
      cleanup: calibrationFactor(observations('cleanup')),
    },
  };
}
