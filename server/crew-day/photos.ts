import { and, asc, count, eq } from 'drizzle-orm';
import { JOB_PHOTO_KINDS, type JobPhoto, type JobPhotoKind } from '../../core/crew-day';
import { DomainError } from '../../core/errors';
import { detectImageType } from '../../core/image-header';
import { MAX_UPLOAD_BYTES } from '../../core/upload-rules';
import { immediate, type Db } from '../../db/client';
import { jobPhotos, jobs } from '../../db/schema';
import type { AppDeps } from '../deps';
import { newImageName, readImage, saveImage } from '../analysis/store';
import { normaliseImage } from '../images/normalise';
import { refuseImageShape } from '../images/upload-checks';
import { deleteLeftover } from '../storage/photo-store';
import { nameOfUser } from './work';

/**
 * Before and after photos of a job from the crew's phones (docs/product.md, The crew's day,
 * Photos). They take the way every upload takes: at most 10 MB, the shape refused from the header
 * before anything decodes it (an image bomb), then the clean-JPEG pipeline (server/images/
 * normalise.ts: a clean JPEG from the phone's own shrinking kept as sent, anything else decoded and
 * written again without metadata, at most 2048 px). The phone always sends the JPEG it made (core/
 * photo-shrink.ts), so anything whose bytes are not a JPEG, whatever its name or type says, is
 * refused. Stored in the photo store as the analyses' photos are, served only through the job.
 */
export const JOB_PHOTO_LIMITS = {
  bytes: MAX_UPLOAD_BYTES,
  /** A day of before and after shots of a big job is 20 or so; 40 leaves room and bounds the store. */
  perJob: 40,
} as const;

export const JOB_PHOTO_MESSAGES = {
  notJpeg: 'Send the photo as a JPEG: the crew\u2019s screen makes one from the camera\u2019s photo.',
  tooLarge: 'The photo is too large. The most is 10 MB.',
  none: 'Choose a photo to send.',
  kind: `kind is ${JOB_PHOTO_KINDS.join(' or ')}`,
  tooMany: `This job has ${JOB_PHOTO_LIMITS.perJob} photos, the most a job keeps.`,
  notBooked: 'Photos are for a booked or done job.',
} as const;

export const notJpeg = () => new DomainError('UNSUPPORTED_MEDIA_TYPE', JOB_PHOTO_MESSAGES.notJpeg);
export const photoTooLarge = () => new DomainError('PAYLOAD_TOO_LARGE', JOB_PHOTO_MESSAGES.tooLarge);
export const noJobPhoto = () => new DomainError('VALIDATION_ERROR', JOB_PHOTO_MESSAGES.none, { details: { photo: [JOB_PHOTO_MESSAGES.none] } });

export const jobPhotoUrl = (jobId: number, photoId: number) => `/api/jobs/${jobId}/photos/${photoId}`;

function refuseUnlessTakesPhotos(db: Db, jobId: number): void {
  const row = db.select({ status: jobs.status, count: count(jobPhotos.id) }).from(jobs).leftJoin(jobPhotos, eq(jobPhotos.jobId, jobs.id)).where(eq(jobs.id, jobId)).get();
  if (!row || (row.status !== 'booked' && row.status !== 'done')) throw new DomainError('CONFLICT', JOB_PHOTO_MESSAGES.notBooked);
  if (row.count >= JOB_PHOTO_LIMITS.perJob) throw new DomainError('CONFLICT', JOB_PHOTO_MESSAGES.tooMany);
}

export function parsePhotoKind(text: string | undefined): JobPhotoKind {
  const kind = JOB_PHOTO_KINDS.find((k) => k === text?.trim());
  if (!kind) throw new DomainError('VALIDATION_ERROR', JOB_PHOTO_MESSAGES.kind, { details: { kind: [JOB_PHOTO_MESSAGES.kind] } });
  return kind;
}

/**
 * Keeps one photo of the job: refused before any decoding when the job takes no more (409), the
 * bytes are not a JPEG (415) or too large (413), or its header's shape is no photo's (413 or 400);
 * then made clean and stored. The count is checked again in the transaction that names it.
 */
export async function addJobPhoto(deps: Pick<AppDeps, 'db' | 'clock' | 'photos' | 'logger'>, jobId: number, kind: JobPhotoKind, bytes: Buffer, by: number): Promise<JobPhoto> {
  const { db, clock, photos } = deps;
  refuseUnlessTakesPhotos(db, jobId);
  if (bytes.length === 0) throw noJobPhoto();
  if (bytes.length > JOB_PHOTO_LIMITS.bytes) throw photoTooLarge();
  if (detectImageType(bytes) !== 'image/jpeg') throw notJpeg();
  refuseImageShape(bytes, 'image/jpeg', 'photo', 'photo');
  const clean = await normaliseImage(bytes);
  const name = newImageName();
  await saveImage(photos, name, clean.stored);
  try {
    const row = immediate(db, (tx) => {
      refuseUnlessTakesPhotos(tx, jobId);
      const job = tx.select({ userId: jobs.userId }).from(jobs).where(eq(jobs.id, jobId)).get()!;
      return tx
        .insert(jobPhotos)
        .values({ jobId, accountId: job.userId, kind, imageName: name, width: clean.width, height: clean.height, takenBy: by, createdAt: clock.now() })
        .returning()
        .get();
    });
    return toJobPhoto(db, row);
  } catch (error) {
    await deleteLeftover(photos, `uploads/${name}`, deps.logger);
    throw error;
  }
}

type JobPhotoRow = typeof jobPhotos.$inferSelect;

function toJobPhoto(db: Db, row: JobPhotoRow, names = new Map<number | null, string | null>()): JobPhoto {
  if (!names.has(row.takenBy)) names.set(row.takenBy, nameOfUser(db, row.takenBy));
  return { id: row.id, kind: row.kind, url: jobPhotoUrl(row.jobId, row.id), takenBy: names.get(row.takenBy) ?? 'Someone no longer in the team', at: row.createdAt.toISOString() };
}

/** The job's photos, oldest first. */
export function jobPhotosOf(db: Db, jobId: number): JobPhoto[] {
  const names = new Map<number | null, string | null>();
  return db.select().from(jobPhotos).where(eq(jobPhotos.jobId, jobId)).orderBy(asc(jobPhotos.id)).all().map((row) => toJobPhoto(db, row, names));
}

/** The stored names of the job's after photos, oldest first (the "Work finished" e-mail attaches the first few). */
export function afterPhotoNames(db: Db, jobId: number): string[] {
  return db.select({ name: jobPhotos.imageName }).from(jobPhotos).where(and(eq(jobPhotos.jobId, jobId), eq(jobPhotos.kind, 'after'))).orderBy(asc(jobPhotos.id)).all().map((r) => r.name);
}

/** One photo's bytes, when it is this job's; null otherwise (a 404 for the route). */
export async function readJobPhoto(deps: Pick<AppDeps, 'db' | 'photos'>, jobId: number, photoId: number): Promise<Buffer | null> {
  const row = deps.db.select({ name: jobPhotos.imageName }).from(jobPhotos).where(and(eq(jobPhotos.id, photoId), eq(jobPhotos.jobId, jobId))).get();
  return row ? readImage(deps.photos, row.name) : null;
}
