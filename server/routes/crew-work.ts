import { Hono, type Context } from 'hono';
import { finishResponseSchema, finishSchema, jobPhotosResponseSchema, workEventSchema, workSummarySchema, type JobPhoto } from '../../core/crew-day';
import { DomainError } from '../../core/errors';
import { jobDoneSchema } from '../../core/job-booking';
import type { Job } from '../../core/jobs';
import { withCrewWork } from '../crew-day/job-work-view';
import { siteCheckMissing } from '../crew-day/access';
import { crewJobOf } from './crew-job';
import { correctActuals, finishJob } from '../crew-day/finish';
import { addJobPhoto, JOB_PHOTO_LIMITS, jobPhotosOf, noJobPhoto, notJpeg, parsePhotoKind, photoTooLarge, readJobPhoto } from '../crew-day/photos';
import { jobWorkSummary, recordWorkTap } from '../crew-day/work';
import type { AppEnv } from '../http/context';
import { declaresMoreThan, formLimits, readMultipartForm, type FormSpec } from '../http/multipart';
import { currentPerson, currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { findOwnJob, type JobRow } from '../jobs/jobs';
import { toJobView } from '../jobs/job-view';

/**
 * The crew's work on a job (docs/product.md, The crew's day, Timers and the finish; Photos): the
 * timer's taps, the finish, the before and after photos, and the owner's correction of the times.
 * A crew member reaches only jobs booked on a crew they are in, the owner and the office any of
 * the team's (crew-day/access.ts); any other job is a 404, as another team's is. No money in any
 * answer a crew member reads.
 */
export const crewWorkRoutes = new Hono<AppEnv>().use(requireUser);

const workJob = (c: Context<AppEnv>): JobRow => crewJobOf(c);
const byPerson = (c: Context<AppEnv>) => currentPerson(c).user.id;

/** POST /api/jobs/{id}/work: one tap of the timer; the timer as it stands (the same again for a tap sent twice). */
crewWorkRoutes.post('/:id{[0-9]+}/work', async (c) => {
  const { db, clock } = c.var.deps;
  const job = workJob(c);
  const tap = await readJson(c, workEventSchema);
  const person = currentPerson(c);
  const work = recordWorkTap(db, clock.now(), job, tap, { userId: person.user.id, memberId: person.memberId }, siteCheckMissing);
  return c.json({ work: workSummarySchema.parse(work) });
});

/**
 * POST /api/jobs/{id}/finish: the minutes on site become the trees' actual times and the job is
 * done; the customer is e-mailed that the work is finished. Answers the timer and the status only
 * (a crew member may finish, and the job's full view carries money).
 */
crewWorkRoutes.post('/:id{[0-9]+}/finish', async (c) => {
  const job = workJob(c);
  const body = await readJson(c, finishSchema);
  const finished = finishJob(c.var.deps, job, body, byPerson(c));
  return c.json(finishResponseSchema.parse({ status: finished.job.status, emailed: finished.emailed, work: jobWorkSummary(c.var.deps.db, finished.job, c.var.deps.clock.now()) }));
});

/** PATCH /api/jobs/{id}/actuals: the owner or the office corrects a done job's actual times, named. */
crewWorkRoutes.patch('/:id{[0-9]+}/actuals', async (c) => {
  const { db, clock } = c.var.deps;
  const job = findOwnJob(db, currentUser(c).id, Number(c.req.param('id')));
  const { actuals } = await readJson(c, jobDoneSchema);
  const corrected = correctActuals(db, clock.now(), job, actuals, byPerson(c));
  return c.json({ job: withCrewWork(db, [toJobView(db, corrected)], [corrected], clock.now())[0]! satisfies Job });
});

/** The photo form: one JPEG of at most 10 MB in `photo`, and `kind`. */
const PHOTO_FORM: FormSpec = {
  file: 'photo',
  maxFileBytes: JOB_PHOTO_LIMITS.bytes,
  text: { kind: 16 },
  tooLarge: photoTooLarge,
  notMultipart: notJpeg,
  missingFile: noJobPhoto,
  retry: 'Please take or choose the photo again.',
};
export const MAX_JOB_PHOTO_REQUEST_BYTES = formLimits(PHOTO_FORM).requestBytes;

crewWorkRoutes.post('/:id{[0-9]+}/photos', async (c) => {
  const job = workJob(c);
  if (declaresMoreThan(c.req.raw, MAX_JOB_PHOTO_REQUEST_BYTES)) throw photoTooLarge();
  const form = await readMultipartForm(c.req.raw, PHOTO_FORM);
  const kind = parsePhotoKind(form.text.get('kind'));
  if (!form.file) throw noJobPhoto();
  const photo = await addJobPhoto(c.var.deps, job.id, kind, form.file.bytes, byPerson(c));
  return c.json({ photo: photo satisfies JobPhoto }, 201);
});

crewWorkRoutes.get('/:id{[0-9]+}/photos', (c) => {
  const job = workJob(c);
  return c.json(jobPhotosResponseSchema.parse({ photos: jobPhotosOf(c.var.deps.db, job.id) }));
});

crewWorkRoutes.get('/:id{[0-9]+}/photos/:photoId{[0-9]+}', async (c) => {
  const job = workJob(c);
  const bytes = await readJobPhoto(c.var.deps, job.id, Number(c.req.param('photoId')));
  if (!bytes) throw new DomainError('NOT_FOUND', 'Photo not found');
  return c.body(new Uint8Array(bytes), 200, { 'Content-Type': 'image/jpeg', 'Cache-Control': 'private, max-age=86400' });
});
