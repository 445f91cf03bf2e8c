import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Job } from '../../core/jobs';
import { inTimeOrder, workSummary } from '../../core/work-timer';
import type { Db } from '../../db/client';
import { jobFinishes, jobItems, jobPhotos, treeAnalyses, workEvents } from '../../db/schema';
import type { JobRow } from '../jobs/jobs';
import { jobPhotoUrl } from './photos';
import { nameOfUser } from './work';

export type CrewWorkView = Pick<Job, 'work' | 'finish' | 'actuals' | 'photos' | 'siteNotes'>;

/**
 * What the crew's day adds to the job's answer for the owner and the office (docs/product.md, The
 * crew's day): the timer, the finish and its correction, each tree's actual times, the photos,
 * the office's site notes for the sheet. A
 * few queries for any number of jobs (the Jobs list must not cost a query a job).
 */
export function crewWorkViews(db: Db, rows: readonly JobRow[], now: Date): Map<number, CrewWorkView> {
  const views = new Map<number, CrewWorkView>();
  if (rows.length === 0) return views;
  const ids = rows.map((row) => row.id);
  const names = new Map<number | null, string | null>();
  const nameOf = (userId: number | null) => {
    if (!names.has(userId)) names.set(userId, nameOfUser(db, userId));
    return names.get(userId) ?? null;
  };
  const events = db.select().from(workEvents).where(inArray(workEvents.jobId, ids)).all();
  const photos = db.select().from(jobPhotos).where(inArray(jobPhotos.jobId, ids)).orderBy(asc(jobPhotos.id)).all();
  const actuals = actualsOf(
    db,
    rows.filter((row) => row.status === 'done').map((row) => row.id),
  );
  const finishes = new Map(db.select().from(jobFinishes).where(inArray(jobFinishes.jobId, ids)).all().map((f) => [f.jobId, f]));
  for (const row of rows) {
    const own = events.filter((e) => e.jobId === row.id);
    const timed = own.map((e) => ({ event: e.event, at: e.at, received: e.id }));
    const withReason = inTimeOrder(timed).map((t) => own.find((e) => e.id === t.received)!).find((e) => e.reason !== null);
    const booked = row.status === 'booked' || row.status === 'done' || own.length > 0;
    const finish = finishes.get(row.id);
    views.set(row.id, {
      work: booked
        ? workSummary(timed, row.doneAt ?? now, withReason ? { reason: withReason.reason!, by: nameOf(withReason.by) ?? 'Someone no longer in the team', at: withReason.at.toISOString() } : null, row.doneAt !== null)
        : null,
      finish: finish
        ? {
            minutesOnSite: finish.minutesOnSite,
            givenPerTree: finish.givenPerTree,
            note: finish.note,
            finishedBy: nameOf(finish.finishedBy),
            finishedAt: finish.finishedAt.toISOString(),
            correctedBy: finish.correctedAt ? nameOf(finish.correctedBy) : null,
            correctedAt: finish.correctedAt?.toISOString() ?? null,
          }
        : null,
      actuals: actuals.get(row.id) ?? [],
      photos: photos
        .filter((p) => p.jobId === row.id)
        .map((p) => ({ id: p.id, kind: p.kind, url: jobPhotoUrl(p.jobId, p.id), takenBy: nameOf(p.takenBy) ?? 'Someone no longer in the team', at: p.createdAt.toISOString() })),
      siteNotes: { what3words: row.what3words, accessNotes: row.accessNotes },
    });
  }
  return views;
}

/**
 * Each done job's trees' actual times as stored on their analyses, in one query for any number of
 * jobs. The job's items are its record once accepted (a locked job's items do not change).
 */
function actualsOf(db: Db, jobIds: number[]): Map<number, NonNullable<Job['actuals']>> {
  const byJob = new Map<number, NonNullable<Job['actuals']>>(jobIds.map((id) => [id, []]));
  if (jobIds.length === 0) return byJob;
  const rows = db
    .select({ jobId: jobItems.jobId, itemId: jobItems.id, cutting: treeAnalyses.actualCuttingTime, prep: treeAnalyses.actualPrepTime, cleanup: treeAnalyses.actualCleanupTime })
    .from(jobItems)
    .innerJoin(treeAnalyses, eq(treeAnalyses.id, jobItems.analysisId))
    .where(and(inArray(jobItems.jobId, jobIds), eq(jobItems.kind, 'tree')))
    .orderBy(asc(jobItems.position), asc(jobItems.id))
    .all();
  for (const row of rows) byJob.get(row.jobId)!.push({ itemId: row.itemId, cuttingTime: row.cutting, prepTime: row.prep, cleanupTime: row.cleanup });
  return byJob;
}

/** The job's answers with the crew's day's parts added. */
export function withCrewWork(db: Db, views: Job[], rows: readonly JobRow[], now: Date): Job[] {
  const work = crewWorkViews(db, rows, now);
  return views.map((view) => ({ ...view, ...work.get(view.id) }));
}
