import { customerProtectionLine, lookupWords, PROTECTION_MESSAGES, protectionHold, refusesBooking, type Protection, type ProtectionHold, type ProtectionLookup, type ProtectionRecord, type ProtectionRecordBody } from '../../core/protection';
import { eq } from 'drizzle-orm';
import { inIds } from '../../db/in-ids';
import { DomainError } from '../../core/errors';
import { ukToday } from '../../core/job-booking';
import type { Db } from '../../db/client';
import { jobProtection, jobs } from '../../db/schema';
import { getSettings } from '../settings/settings';
import { jobPostcode, protectionRow, type ProtectionRow } from './lookup';

/**
 * A job's protected trees as the API shows them, the surgeon's record, and the hold they put on
 * booking (core/protection.ts protectionHold: the record, not the lookup, decides). The caller has
 * checked the job is the account's own.
 */

const NOTHING = { council: null, conservationAreas: [], preservationZones: [], protectedTrees: [] };

function lookupOf(row: ProtectionRow | undefined, postcode: string | null): ProtectionLookup {
  const status = row?.lookupStatus ?? 'not_checked';
  const findings = row?.findings ?? NOTHING;
  return {
    status,
    postcode: row?.postcode ?? postcode,
    ...findings,
    checkedAt: row?.checkedAt?.toISOString() ?? null,
    source: row?.source ?? null,
    words: lookupWords(status, findings),
  };
}

function recordOf(row: ProtectionRow | undefined): ProtectionRecord | null {
  if (!row?.outcome || !row.outcomeOn || !row.recordedAt) return null;
  return { outcome: row.outcome, on: row.outcomeOn, reference: row.outcomeReference, note: row.outcomeNote, recordedAt: row.recordedAt.toISOString() };
}

/** The row as core's rules read it: the lookup's status and findings, and the surgeon's outcome and its date. */
function stateOf(row: ProtectionRow | undefined) {
  const lookup = { status: row?.lookupStatus ?? 'not_checked', ...(row?.findings ?? NOTHING) } as const;
  const record = row?.outcome && row.outcomeOn ? { outcome: row.outcome, on: row.outcomeOn } : null;
  return { lookup, record };
}

function holdOf(row: ProtectionRow | undefined): ProtectionHold {
  const { lookup, record } = stateOf(row);
  return protectionHold(lookup, record);
}

/** The job's protected trees; `nestingCheck` is the booked job's nesting line, which jobs' booking works out. */
export function protectionOf(db: Db, job: { id: number; userId: number }, nestingCheck: string | null = null): Protection {
  const jobId = job.id;
  const row = protectionRow(db, jobId);
  const hold = holdOf(row);
  const confirmation = row?.confirmReason && row.confirmedAt ? { reason: row.confirmReason, at: row.confirmedAt.toISOString() } : null;
  return { lookup: lookupOf(row, jobPostcode(db, jobId)), record: recordOf(row), earliestStart: hold.earliestStart, missing: hold.missing, confirmation, nesting: getSettings(db, job.userId).nestingSeason, nestingCheck };
}

/** What booking the job waits for; read inside the booking's own transaction (CONVENTIONS 15). */
export function bookingHold(db: Db, jobId: number): ProtectionHold {
  return holdOf(protectionRow(db, jobId));
}

/** The holds of several jobs in one read (the schedule's query plan); a job with no row has none. */
export function bookingHolds(db: Db, jobIds: readonly number[]): Map<number, ProtectionHold> {
  if (jobIds.length === 0) return new Map();
  const rows = db.select().from(jobProtection).where(inIds(jobProtection.jobId, jobIds)).all();
  return new Map(rows.map((row) => [row.jobId, holdOf(row)]));
}

function upsert(db: Db, jobId: number, now: Date, values: Partial<ProtectionRow>): void {
  db.insert(jobProtection)
    .values({ jobId, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: jobProtection.jobId, set: { ...values, updatedAt: now } })
    .run();
}

/** The surgeon's record replaces the one before (the latest word from the council is the one that counts). */
export function saveProtectionRecord(db: Db, now: Date, jobId: number, body: ProtectionRecordBody): void {
  // What the council said, or the notice sent, has happened: a record dated 2099 would hold a date no one can check.
  if (body.on > ukToday(now)) throw new DomainError('VALIDATION_ERROR', PROTECTION_MESSAGES.dateInFuture, { details: { on: [PROTECTION_MESSAGES.dateInFuture] } });
  upsert(db, jobId, now, { outcome: body.outcome, outcomeOn: body.on, outcomeReference: body.reference, outcomeNote: body.note, recordedAt: now });
}

/** The reason the surgeon gave to book before the earliest start, kept on the job. */
export function keepProtectionConfirmation(db: Db, now: Date, jobId: number, reason: string): void {
  upsert(db, jobId, now, { confirmReason: reason, confirmedAt: now });
}

/**
 * The line the customer's copy of a quote sent on `sentOn` carries (core/protection.ts
 * customerProtectionLine), from the job's lookup and record as they stand; null for none.
 */
export function customerLineOf(db: Db, jobId: number, sentOn: string): string | null {
  const { lookup, record } = stateOf(protectionRow(db, jobId));
  return customerProtectionLine(lookup, record, sentOn);
}

/**
 * The account's jobs whose booking waits on the council on `today`: a consent or notice still to
 * be recorded, or a notice's earliest start still to come (core/protection.ts protectionHold).
 * One read of the account's protection rows, however many jobs it has.
 */
export function waitingOnCouncil(db: Db, userId: number, today: string): Set<number> {
  const waiting = new Set<number>();
  const rows = db.select({ row: jobProtection }).from(jobProtection).innerJoin(jobs, eq(jobs.id, jobProtection.jobId)).where(eq(jobs.userId, userId)).all();
  for (const { row } of rows) {
    if (refusesBooking(holdOf(row), today)) waiting.add(row.jobId);
  }
  return waiting;
}
