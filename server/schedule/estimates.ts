import { and, desc, eq } from 'drizzle-orm';
import { inIds } from '../../db/in-ids';
import type { MinutesRange } from '../../core/schedule';
import type { Db } from '../../db/client';
import { jobItems, quoteAnswers, quoteVersions, treeAnalyses } from '../../db/schema';

/**
 * A job's estimated minutes (docs/product.md, Schedule: estimated minutes), for the schedule's
 * crew-days, the waiting tray and the overrun chance.
 *
 * What the minutes are: labour minutes, that is person-minutes. The time model
 * (core/time-model.ts, docs/analysis.md) gives each tree's cutting, prep and cleanup ranges as the
 * minutes of work the tree takes; the schedule holds them against a crew's capacity of members ×
 * the crew's day (person-minutes), so a crew of three has 3 × 480 = 1,440 minutes a day to fill,
 * and the clock time of a job on site is its minutes divided by the crew's members (the arrival
 * window, core/arrival-window.ts). Reading them as wall-clock minutes would make every crew of more
 * than one look idle against a capacity counted in people.
 *
 * Which items: the work the customer agreed to, as booking reads it (server/jobs/booking.ts
 * agreedWork): the accepted version's items with the optional ones they chose; a job with no
 * acceptance, its own items without the optional ones. Each tree adds its analysis's
 * cutting + prep + cleanup, low ends to `min` and high ends to `max` (a missing part adds 0; a
 * tree whose analysis was deleted adds nothing). Typed lines carry no time (a line is words and a
 * price, no quantity), so they add nothing: a job of typed lines only is estimated at 0 to 0,
 * which the board shows as "no estimate" rather than guessing from its price.
 *
 * Three statements whatever the number of jobs (the acceptances, the unaccepted jobs' items, the
 * analyses' times), never one per job: the schedule's query plan (docs/performance.md).
 */

const ZERO: MinutesRange = { min: 0, max: 0 };

interface TreeRef {
  jobId: number;
  analysisId: number;
}

/** Every job id given gets an entry (0 to 0 when it has no tree with times). */
export function estimatedJobMinutes(db: Db, jobIds: number[]): Map<number, MinutesRange> {
  const ids = [...new Set(jobIds)].filter((id) => Number.isSafeInteger(id) && id > 0);
  const out = new Map<number, MinutesRange>(ids.map((id) => [id, { ...ZERO }]));
  if (ids.length === 0) return out;

  // 1. The accepted versions (the newest acceptance of each job), with the options chosen.
  const acceptances = db
    .select({ jobId: quoteVersions.jobId, content: quoteVersions.content, chosen: quoteAnswers.optionalItemIds })
    .from(quoteAnswers)
    .innerJoin(quoteVersions, eq(quoteVersions.id, quoteAnswers.versionId))
    .where(and(inIds(quoteVersions.jobId, ids), eq(quoteAnswers.kind, 'accepted')))
    .orderBy(desc(quoteAnswers.id))
    .all();
  const trees: TreeRef[] = [];
  const acceptedJobs = new Set<number>();
  for (const row of acceptances) {
    if (acceptedJobs.has(row.jobId)) continue;
    acceptedJobs.add(row.jobId);
    const chosen = new Set(row.chosen ?? []);
    for (const item of row.content.items ?? []) {
      if (item.kind !== 'tree' || item.analysisId === null || (item.optional && !chosen.has(item.id))) continue;
      trees.push({ jobId: row.jobId, analysisId: item.analysisId });
    }
  }

  // 2. The jobs with no acceptance: their own trees, without the optional ones.
  const unaccepted = ids.filter((id) => !acceptedJobs.has(id));
  if (unaccepted.length > 0) {
    const rows = db
      .select({ jobId: jobItems.jobId, analysisId: jobItems.analysisId })
      .from(jobItems)
      .where(and(inIds(jobItems.jobId, unaccepted), eq(jobItems.kind, 'tree'), eq(jobItems.optional, false)))
      .all();
    for (const row of rows) if (row.analysisId !== null) trees.push({ jobId: row.jobId, analysisId: row.analysisId });
  }
  if (trees.length === 0) return out;

  // 3. The trees' times.
  const analysisIds = [...new Set(trees.map((t) => t.analysisId))];
  const times = new Map(
    db
      .select({
        id: treeAnalyses.id,
        cuttingMin: treeAnalyses.cuttingTimeMin,
        cuttingMax: treeAnalyses.cuttingTimeMax,
        prepMin: treeAnalyses.prepTimeMin,
        prepMax: treeAnalyses.prepTimeMax,
        cleanupMin: treeAnalyses.cleanupTimeMin,
        cleanupMax: treeAnalyses.cleanupTimeMax,
      })
      .from(treeAnalyses)
      .where(inIds(treeAnalyses.id, analysisIds))
      .all()
      .map((a) => [a.id, { min: (a.cuttingMin ?? 0) + (a.prepMin ?? 0) + (a.cleanupMin ?? 0), max: (a.cuttingMax ?? 0) + (a.prepMax ?? 0) + (a.cleanupMax ?? 0) }]),
  );
  for (const tree of trees) {
    const t = times.get(tree.analysisId);
    const sum = out.get(tree.jobId);
    if (!t || !sum) continue;
    sum.min += t.min;
    // A high end below the low end (an old row) counts as the low end.
    sum.max += Math.max(t.min, t.max);
  }
  return out;
}

/**
 * Day `dayNumber` (1-based) of a job's `total` minutes split over its `days`: whole minutes that add
 * up to the total, floor(total·n/days) − floor(total·(n−1)/days). The board and a postponed day's
 * room check split a job's estimate the same way.
 */
export const dayShare = (total: number, days: number, dayNumber: number): number => Math.floor((total * dayNumber) / days) - Math.floor((total * (dayNumber - 1)) / days);
