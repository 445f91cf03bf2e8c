import { eq, inArray } from 'drizzle-orm';
import type { finishSchema } from '../../core/crew-day';
import { DomainError } from '../../core/errors';
import { BOOKING_MESSAGES, type JobActuals } from '../../core/job-booking';
import { jobReference } from '../../core/jobs';
import { actualsFromMinutes, type TreeEstimate } from '../../core/work-actuals';
import { everStarted } from '../../core/work-timer';
import type { z } from 'zod';
import { immediate, type Db } from '../../db/client';
import { jobFinishes, jobs, treeAnalyses } from '../../db/schema';
import type { AppDeps } from '../deps';
import { loadSharp } from '../images/sharp';
import { markJobDone, saveActuals } from '../jobs/booking';
import { itemsOf, type JobRow } from '../jobs/jobs';
import { fromBusiness } from '../jobs/quote-flow';
import { acceptedOf } from '../jobs/quote-links';
import { queueMail } from '../mail/outbox';
import type { MailAttachment } from '../mail/mailer';
import { workFinishedEmail } from '../mail/work-finished-email';
import { getCompanyProfile } from '../settings/settings';
import { readImage } from '../analysis/store';
import { afterPhotoNames } from './photos';
import { jobWorkSummary } from './work';

/**
 * Finishing a job from the crew's phone (docs/product.md, The crew's day, Timers and the finish):
 * the timer's minutes on site become the trees' actual times, stored exactly as "Mark as done"
 * stores them (server/jobs/booking.ts markJobDone, which keeps the calibration in step), the job
 * is done, and the customer is e-mailed that the work is finished, all in one transaction.
 *
 * Units: the timer counts wall-clock minutes the crew is on site, and the estimate's cutting, prep
 * and cleanup are crew minutes on site (docs/analysis.md, The time model), so the minutes are split
 * as they are (core/work-actuals.ts), never multiplied by the people on site.
 */
export const FINISH_MESSAGES = {
  neverStarted: 'The timer was never started on this job. Start it when work begins, or give each tree\u2019s minutes to finish.',
  notBooked: 'Only a booked job can be finished.',
  notDone: 'The times can be corrected once the job is done.',
} as const;

/** How many after photos the "Work finished" e-mail attaches, each shrunk to EMAIL_PHOTO_EDGE on its long side. */
export const EMAIL_PHOTOS = 3;
const EMAIL_PHOTO_EDGE = 1280;

type FinishBody = z.output<typeof finishSchema>;
type FinishDeps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config' | 'photos'>;

/** The trees the customer agreed to (the accepted version's, optional ones only when chosen), with their estimates. */
function agreedTrees(db: Db, jobId: number): { itemIds: Set<number>; lines: Set<number>; estimates: TreeEstimate[] } {
  const accepted = acceptedOf(db, jobId);
  const chosen = new Set(accepted?.answer.optionalItemIds ?? []);
  const items = (accepted?.version.content.items ?? itemsOf(db, [jobId])).filter((item) => !item.optional || chosen.has(item.id));
  const trees = items.filter((item) => item.kind === 'tree');
  const analysisIds = trees.map((t) => t.analysisId).filter((id): id is number => id !== null);
  const analyses = new Map((analysisIds.length ? db.select().from(treeAnalyses).where(inArray(treeAnalyses.id, analysisIds)).all() : []).map((a) => [a.id, a]));
  const estimates: TreeEstimate[] = [];
  for (const tree of trees) {
    const a = tree.analysisId === null ? undefined : analyses.get(tree.analysisId);
    if (!a) continue;
    const range = (min: number | null, max: number | null) => ({ min: min ?? 0, max: max ?? min ?? 0 });
    estimates.push({ itemId: tree.id, cutting: range(a.cuttingTimeMin, a.cuttingTimeMax), prep: range(a.prepTimeMin, a.prepTimeMax), cleanup: range(a.cleanupTimeMin, a.cleanupTimeMax) });
  }
  return { itemIds: new Set(trees.map((t) => t.id)), lines: new Set(items.filter((i) => i.kind === 'line').map((i) => i.id)), estimates };
}

/** The given per-tree minutes, checked: a typed line is a 400, an item not of the job a 404, a tree twice a 400. */
function givenMinutes(given: NonNullable<FinishBody['actuals']>, trees: ReturnType<typeof agreedTrees>): Map<number, number> {
  const minutes = new Map<number, number>();
  for (const { itemId, minutes: m } of given) {
    if (trees.lines.has(itemId)) throw new DomainError('VALIDATION_ERROR', BOOKING_MESSAGES.lineItem, { details: { actuals: [BOOKING_MESSAGES.lineItem] } });
    if (!trees.itemIds.has(itemId)) throw new DomainError('NOT_FOUND', 'Item not found');
    if (minutes.has(itemId)) throw new DomainError('VALIDATION_ERROR', BOOKING_MESSAGES.itemTwice, { details: { actuals: [BOOKING_MESSAGES.itemTwice] } });
    minutes.set(itemId, m);
  }
  return minutes;
}

/** The after photos, shrunk for an e-mail: made after the answer, by the outbox (a photo gone from the store is left out). */
function shrunkAfterPhotos(deps: Pick<AppDeps, 'photos'>, names: string[]): () => Promise<MailAttachment[]> {
  return async () => {
    const sharp = await loadSharp();
    const attachments: MailAttachment[] = [];
    for (const [index, name] of names.entries()) {
      const bytes = await readImage(deps.photos, name);
      if (!bytes) continue;
      const content = await sharp(bytes).resize(EMAIL_PHOTO_EDGE, EMAIL_PHOTO_EDGE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
      attachments.push({ filename: `after-${index + 1}.jpg`, content, contentType: 'image/jpeg' });
    }
    return attachments;
  };
}

/**
 * Finishes a booked job: refused for a job not booked (409), done already (409), or whose timer was
 * never started when no minutes are given (409 with the sentence). `by`: the person finishing.
 * The e-mail goes to the job's customer address, else the one the accepted quote went to; none, none.
 */
export function finishJob(deps: FinishDeps, job: JobRow, body: FinishBody, by: number): { job: JobRow; emailed: boolean } {
  const { db, clock } = deps;
  const now = clock.now();
  return immediate(db, (tx) => {
    const current = tx.select().from(jobs).where(eq(jobs.id, job.id)).get()!;
    if (current.status === 'done') throw new DomainError('CONFLICT', BOOKING_MESSAGES.alreadyDone);
    if (current.status !== 'booked') throw new DomainError('CONFLICT', FINISH_MESSAGES.notBooked);
    const summary = jobWorkSummary(tx, current, now);
    if (!body.actuals && !everStarted(summary)) throw new DomainError('CONFLICT', FINISH_MESSAGES.neverStarted);
    const trees = agreedTrees(tx, job.id);
    const perTree = body.actuals ? givenMinutes(body.actuals, trees) : undefined;
    const actuals: JobActuals = actualsFromMinutes(trees.estimates, summary.minutesOnSite, perTree)
      // A tree given no minutes at all tells the calibration nothing.
      .filter((a) => a.cuttingTime + a.prepTime + a.cleanupTime > 0);
    const done = markJobDone(tx, now, current, actuals, by);
    tx.insert(jobFinishes)
      .values({ jobId: job.id, accountId: current.userId, minutesOnSite: summary.minutesOnSite, givenPerTree: perTree !== undefined, note: body.note || null, finishedBy: by, finishedAt: now })
      .run();
    const emailed = tellCustomer(deps, tx, done);
    return { job: done, emailed };
  });
}

/** The "Work finished" e-mail, queued in the caller's transaction; false when there is no address. */
function tellCustomer(deps: FinishDeps, tx: Db, job: JobRow): boolean {
  const accepted = acceptedOf(tx, job.id);
  const to = job.customerEmail ?? accepted?.version.content.customer.email ?? null;
  if (!to) return false;
  const profile = getCompanyProfile(tx, job.userId);
  const business = accepted?.version.content.business ?? { name: profile.tradingName, phone: profile.phone, email: profile.email };
  const photos = afterPhotoNames(tx, job.id).slice(0, EMAIL_PHOTOS);
  const mail = workFinishedEmail({
    to,
    customerName: job.customerName,
    jobId: job.id,
    business: { name: business.name || 'Your tree surgeon', phone: business.phone || null, email: business.email || null },
    siteAddress: job.siteAddress,
    photos: photos.length,
  });
  queueMail(
    { ...deps, db: tx },
    fromBusiness({ db: tx }, job.userId, { name: business.name, email: business.email }, mail),
    { label: `work finished ${jobReference(job.id)}`, userId: job.userId, ...(photos.length > 0 && { attach: shrunkAfterPhotos(deps, photos) }) },
  );
  return true;
}

/**
 * The owner's or the office's correction of a done job's actual times (PATCH /api/jobs/{id}/actuals):
 * each tree's times replace what the finish or the done form stored, through the analysis's
 * feedback, so the calibration takes out what they had added and adds the new ones; the
 * correction is named (who, when). 409 for a job not done; items checked as "Mark as done" checks them.
 */
export function correctActuals(db: Db, now: Date, job: JobRow, actuals: JobActuals, by: number): JobRow {
  return immediate(db, (tx) => {
    const current = tx.select().from(jobs).where(eq(jobs.id, job.id)).get()!;
    if (current.status !== 'done') throw new DomainError('CONFLICT', FINISH_MESSAGES.notDone);
    saveActuals(tx, current, actuals);
    const minutesOnSite = jobWorkSummary(tx, current, now).minutesOnSite;
    tx.insert(jobFinishes)
      .values({ jobId: job.id, accountId: current.userId, minutesOnSite, givenPerTree: true, note: null, finishedBy: current.doneBy, finishedAt: current.doneAt ?? now, correctedBy: by, correctedAt: now })
      .onConflictDoUpdate({ target: jobFinishes.jobId, set: { correctedBy: by, correctedAt: now } })
      .run();
    return current;
  });
}
