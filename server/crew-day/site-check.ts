import { and, asc, eq } from 'drizzle-orm';
import { SITE_CHECK_MESSAGES, SITE_HAZARD_KEYS, type SiteCheck, type SiteCheckPut } from '../../core/crew-day';
import { DomainError } from '../../core/errors';
import { calendarDateParts } from '../../core/job-booking';
import { bookedDays, checkDayOf, nearestHospital, siteCheckMissingWords, SITE_CHECK_REFUSALS, what3wordsOf, type Place } from '../../core/site-check';
import { immediate, type Db } from '../../db/client';
import { jobs, siteChecks, siteCheckSignatures } from '../../db/schema';
import { crewCandidates, crewView } from '../crews/crews';
import type { AppDeps } from '../deps';
import type { JobRow } from '../jobs/jobs';
import { jobPostcode } from '../protection/lookup';
import { getHospitals } from '../settings/settings';
import { namedBy, teamNamesOf } from '../team/names';
import { siteLocation } from '../weather/site-location';

/**
 * The site check before work (docs/product.md, The crew's day, The site check): one a job a
 * booked day, the hazards answered and the emergency plan, with what the server works out for the
 * plan (the site's postcode and position, the nearest A&E of the team's list); then each person on
 * site signs with their own sign-in. The caller has checked the person may work on the job
 * (access.ts).
 */

type CheckRow = typeof siteChecks.$inferSelect;
type CheckDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/** How long saving a check waits for the site's position before going on without it (the plan is still kept). */
export const LOCATION_WAIT_MS = 2_000;

/** The site's position, if the postcode service answers within `waitMs`; the lookup goes on and is kept for the next time. */
export async function boundedSiteLocation(deps: CheckDeps, postcode: string | null, waitMs = LOCATION_WAIT_MS): Promise<Place | null> {
  if (!postcode) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
    timer.unref();
  });
  try {
    return await Promise.race([siteLocation(deps, postcode).catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The people who may be on site: the job's crew's active members, or the team's active people for a job on no crew. */
export function onSitePeople(db: Db, job: Pick<JobRow, 'userId' | 'crewId'>): { id: number; name: string }[] {
  const crew = job.crewId === null ? null : crewView(db, job.userId, job.crewId);
  return (crew ? crew.members : crewCandidates(db, job.userId)).map(({ id, name }) => ({ id, name }));
}

/** The booked days of a booked (or done) job; 409 when it is not booked. */
function daysOf(job: JobRow): string[] {
  if ((job.status !== 'booked' && job.status !== 'done') || !job.bookedFor) throw new DomainError('CONFLICT', SITE_CHECK_REFUSALS.notBooked);
  return bookedDays({ date: job.bookedFor, days: job.bookedDays ?? 1 });
}

/**
 * The day a check is for: `asked` when it is one of the booked days (400 otherwise), else today
 * when the job is booked today, else its next booked day (its last once past).
 */
export function checkDate(job: JobRow, asked: string | undefined, today: string): string {
  const days = daysOf(job);
  if (asked === undefined) return checkDayOf({ date: days[0]!, days: days.length }, today);
  if (asked.length !== 10 || !calendarDateParts(asked)) throw new DomainError('VALIDATION_ERROR', SITE_CHECK_REFUSALS.date, { details: { date: [SITE_CHECK_REFUSALS.date] } });
  if (!days.includes(asked)) throw new DomainError('VALIDATION_ERROR', SITE_CHECK_REFUSALS.notADay(days), { details: { date: [SITE_CHECK_REFUSALS.notADay(days)] } });
  return asked;
}

function findCheck(db: Db, jobId: number, date: string): CheckRow | undefined {
  return db
    .select()
    .from(siteChecks)
    .where(and(eq(siteChecks.jobId, jobId), eq(siteChecks.date, date)))
    .get();
}

function signaturesOf(db: Db, checkId: number) {
  return db.select().from(siteCheckSignatures).where(eq(siteCheckSignatures.checkId, checkId)).orderBy(asc(siteCheckSignatures.signedAt), asc(siteCheckSignatures.id)).all();
}

/**
 * What the job's check of `date` still lacks, in words; empty when it is complete (every hazard
 * answered, the plan given, signed by at least two people on site). The timers ask it before work starts.
 */
export function siteCheckMissing(db: Db, jobId: number, date: string): string[] {
  const row = findCheck(db, jobId, date);
  return siteCheckMissingWords(row !== undefined, row ? signaturesOf(db, row.id).length : 0);
}

/** The job's check of `date` as the API answers it (an empty one, with what is missing, before it is filled). */
export function siteCheckView(db: Db, job: Pick<JobRow, 'id' | 'userId'>, date: string): SiteCheck {
  const row = findCheck(db, job.id, date);
  const signatures = row ? signaturesOf(db, row.id) : [];
  const missing = siteCheckMissingWords(row !== undefined, signatures.length);
  const updatedBy = row ? namedBy(teamNamesOf(db, job.userId), 'updatedBy', row.updatedBy).updatedBy : null;
  return {
    jobId: job.id,
    date,
    hazards: row ? row.hazards.map((h) => ({ key: h.key as SiteCheck['hazards'][number]['key'], present: h.present, controls: h.controls })) : [],
    emergency: row
      ? {
          meetingPoint: row.emergency.meetingPoint,
          vehicleAccess: row.emergency.vehicleAccess,
          aerialRescuer: { id: row.emergency.aerialRescuerId, name: row.emergency.aerialRescuerName },
          what3words: row.emergency.what3words,
          signalNote: row.emergency.signalNote,
          postcode: row.postcode,
          latitude: row.latitude,
          longitude: row.longitude,
          nearestHospital: row.nearestHospital,
        }
      : null,
    signatures: signatures.map((s) => ({ memberId: s.memberId, name: s.name, signedAt: s.signedAt.toISOString() })),
    complete: missing.length === 0,
    missing,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: updatedBy ?? null,
  };
}

/** The findings as kept: the hazards in the list's order, a control only where one was written. */
function findingsOf(input: SiteCheckPut, rescuerName: string, jobWhat3words: string | null) {
  const order = (key: string) => SITE_HAZARD_KEYS.indexOf(key as (typeof SITE_HAZARD_KEYS)[number]);
  const hazards = [...input.hazards].sort((a, b) => order(a.key) - order(b.key)).map((h) => ({ key: h.key, present: h.present, controls: h.controls ? h.controls : null }));
  const { emergency } = input;
  return {
    hazards,
    emergency: {
      meetingPoint: emergency.meetingPoint,
      vehicleAccess: emergency.vehicleAccess,
      aerialRescuerId: emergency.aerialRescuerId,
      aerialRescuerName: rescuerName,
      what3words: emergency.what3words ? what3wordsOf(emergency.what3words) : jobWhat3words,
      signalNote: emergency.signalNote ? emergency.signalNote : null,
    },
  };
}

/** Whether two checks say the same (the rescuer's name aside, which follows the id). */
function sameFindings(row: CheckRow, next: ReturnType<typeof findingsOf>): boolean {
  const { aerialRescuerName: _a, ...before } = row.emergency;
  const { aerialRescuerName: _b, ...after } = next.emergency;
  return JSON.stringify(row.hazards) === JSON.stringify(next.hazards) && JSON.stringify(before) === JSON.stringify(after);
}

function refuseIfDone(job: Pick<JobRow, 'status'>): void {
  if (job.status === 'done') throw new DomainError('CONFLICT', SITE_CHECK_REFUSALS.done);
}

/**
 * Saves the day's check (PUT): the aerial rescuer must be one of the people on site (400
 * otherwise); the site's position (bounded, LOCATION_WAIT_MS) and the nearest hospital are worked
 * out now and kept with it. A check whose findings change after it was signed loses its
 * signatures: they signed something else. The same findings sent again (a phone sending twice)
 * keep them.
 */
export async function saveSiteCheck(deps: CheckDeps, job: JobRow, byUserId: number, date: string, input: SiteCheckPut): Promise<SiteCheck> {
  const { db, clock } = deps;
  refuseIfDone(job);
  const rescuer = onSitePeople(db, job).find((p) => p.id === input.emergency.aerialRescuerId);
  if (!rescuer) throw new DomainError('VALIDATION_ERROR', SITE_CHECK_MESSAGES.aerialRescuer, { details: { 'emergency.aerialRescuerId': [SITE_CHECK_MESSAGES.aerialRescuer] } });
  const postcode = jobPostcode(db, job.id);
  const place = await boundedSiteLocation(deps, postcode);
  const hospital = nearestHospital(place, getHospitals(db, job.userId));
  immediate(db, (tx) => {
    const current = tx.select().from(jobs).where(eq(jobs.id, job.id)).get()!;
    refuseIfDone(current);
    daysOf(current);
    const findings = findingsOf(input, rescuer.name, current.what3words);
    const values = { ...findings, postcode, latitude: place?.latitude ?? null, longitude: place?.longitude ?? null, nearestHospital: hospital, updatedAt: clock.now(), updatedBy: byUserId };
    const before = findCheck(tx, job.id, date);
    if (!before) {
      tx.insert(siteChecks).values({ jobId: job.id, date, ...values }).run();
      return;
    }
    if (!sameFindings(before, findings)) tx.delete(siteCheckSignatures).where(eq(siteCheckSignatures.checkId, before.id)).run();
    tx.update(siteChecks).set(values).where(eq(siteChecks.id, before.id)).run();
  });
  return siteCheckView(db, job, date);
}

/**
 * The signed-in person signs the day's check with their own sign-in: their name and the time are
 * kept, once a person (signing again keeps the first signature and answers the check as it is, so
 * a phone that sends twice does no harm). Only the people on site sign: the job's crew, or anyone
 * in the team for a job on no crew (403 otherwise); 409 before the check is filled in.
 */
export function signSiteCheck(db: Db, now: Date, job: JobRow, person: { memberId: number | null; name: string }, date: string): SiteCheck {
  refuseIfDone(job);
  const onSite = person.memberId !== null && onSitePeople(db, job).some((p) => p.id === person.memberId);
  if (!onSite) throw new DomainError('FORBIDDEN', SITE_CHECK_REFUSALS.notOnSite);
  immediate(db, (tx) => {
    const row = findCheck(tx, job.id, date);
    if (!row) throw new DomainError('CONFLICT', SITE_CHECK_REFUSALS.notFilled);
    tx.insert(siteCheckSignatures).values({ checkId: row.id, memberId: person.memberId!, name: person.name, signedAt: now }).onConflictDoNothing().run();
  });
  return siteCheckView(db, job, date);
}
