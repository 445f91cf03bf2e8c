import { and, eq, lt, notInArray } from 'drizzle-orm';
import { FAILED_RETRY_MINUTES, LOOKUP_FRESH_DAYS, hasFindings, normalisePlaces, normaliseWebsite, postcodeAtEnd, type LookupFindings } from '../../core/protection';
import { ENDED_STATUSES } from '../../core/jobs';
import { plainLine } from '../../core/plain-text';
import type { Db } from '../../db/client';
import { jobProtection, jobs, leads } from '../../db/schema';
import type { AppDeps } from '../deps';
import { LOOKUP_TIMEOUT_MS } from './fetch-json';
import type { Found, PostcodeLookups } from './postcode-lookups';
import { protectionLookups } from './providers';
import { UnknownPostcode, type PlanningEntity, type ProtectionLookups } from './types';

/**
 * A job's postcode looked up and kept (core/protection.ts says what it means). The postcode is
 * the quote request's own when the job came from one (the visitor typed it into a postcode field),
 * else the UK postcode ending the job's site address. The answer is kept on the job's row of
 * job_protection with the date and the services asked; a failure is kept as "failed" and asked
 * again, like a lookup grown old, on the next GET or POST .../lookup (lookupDue).
 */
type LookupDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

export function jobPostcode(db: Db, jobId: number): string | null {
  const job = db.select({ siteAddress: jobs.siteAddress, leadId: jobs.leadId }).from(jobs).where(eq(jobs.id, jobId)).get();
  if (!job) return null;
  const lead = job.leadId === null ? undefined : db.select({ postcode: leads.postcode }).from(leads).where(eq(leads.id, job.leadId)).get();
  return lead?.postcode ?? postcodeAtEnd(job.siteAddress);
}

export type ProtectionRow = typeof jobProtection.$inferSelect;

export function protectionRow(db: Db, jobId: number): ProtectionRow | undefined {
  return db.select().from(jobProtection).where(eq(jobProtection.jobId, jobId)).get();
}

/** Whether the job's lookup should be asked (again): never asked, failed an hour ago, a month old, or the postcode changed. */
export function lookupDue(row: ProtectionRow | undefined, postcode: string | null, now: Date): boolean {
  if (!postcode) return false;
  if (!row || row.lookupStatus === 'not_checked' || row.postcode !== postcode || !row.checkedAt) return true;
  const age = now.getTime() - row.checkedAt.getTime();
  return row.lookupStatus === 'failed' ? age >= FAILED_RETRY_MINUTES * 60_000 : age >= LOOKUP_FRESH_DAYS * 86_400_000;
}

const inDataset = (entities: PlanningEntity[], dataset: string) => entities.filter((e) => e.dataset === dataset);

/** The council: the local planning authority's organisation at the point (else any entity's), named by the planning data, else by postcodes.io. */
async function councilOf(lookups: ProtectionLookups, entities: PlanningEntity[], district: string | null, signal: AbortSignal): Promise<LookupFindings['council']> {
  const authority = inDataset(entities, 'local-planning-authority').find((e) => e.organisationEntity) ?? entities.find((e) => e.organisationEntity);
  // The council's own record only adds its name and website: a failure there keeps what was found.
  const organisation = authority?.organisationEntity ? await lookups.planning.organisation(authority.organisationEntity, signal).catch(() => null) : null;
  const name = typeof organisation?.name === 'string' ? plainLine(organisation.name).slice(0, 200) : '';
  if (name) return { name, website: normaliseWebsite(organisation?.website) };
  return district ? { name: plainLine(district).slice(0, 200), website: null } : null;
}

/** Asks both services, all within one deadline; throws what they throw. */
export async function findOut(lookups: ProtectionLookups, postcode: string): Promise<Found> {
  const signal = AbortSignal.timeout(LOOKUP_TIMEOUT_MS);
  const centre = await lookups.postcodes.centre(postcode, signal);
  const entities = await lookups.planning.entitiesAt(centre.latitude, centre.longitude, signal);
  const findings: LookupFindings = {
    council: await councilOf(lookups, entities, centre.district, signal),
    conservationAreas: normalisePlaces(inDataset(entities, 'conservation-area')),
    preservationZones: normalisePlaces(inDataset(entities, 'tree-preservation-zone')),
    protectedTrees: normalisePlaces(inDataset(entities, 'tree')),
  };
  return { status: hasFindings(findings) ? 'found' : 'none_found', findings };
}

export interface LookUpOptions {
  /** Ask now, due or not (POST .../lookup). */
  force?: boolean;
  /** The app's lookups in flight: a postcode already being looked up is joined, not asked again. */
  shared?: PostcodeLookups;
  /**
   * Called before a lookup that would ask the services (not when joining one on its way): the
   * route spends the account's allowance here, and a refusal (429) is thrown before anything is asked.
   */
  admit?: () => Promise<void>;
}

/**
 * Looks the job's postcode up when due (or now, with `force`) and keeps the answer. With lookups
 * off or no postcode nothing is asked and nothing changes: the job reads "not checked".
 */
export async function lookUpJob(deps: LookupDeps, jobId: number, { force = false, shared, admit }: LookUpOptions = {}): Promise<void> {
  const lookups = protectionLookups(deps.config);
  const postcode = jobPostcode(deps.db, jobId);
  if (!lookups || !postcode) return;
  if (!force && !lookupDue(protectionRow(deps.db, jobId), postcode, deps.clock.now())) return;
  if (admit && !shared?.running(postcode)) await admit();
  const source = `${lookups.postcodes.source} ${lookups.planning.source}`;
  let kept: Pick<ProtectionRow, 'lookupStatus' | 'findings' | 'lookupProblem'>;
  try {
    const { status, findings } = await (shared ? shared.find(postcode, () => findOut(lookups, postcode)) : findOut(lookups, postcode));
    kept = { lookupStatus: status, findings, lookupProblem: null };
  } catch (err) {
    const problem = err instanceof UnknownPostcode ? 'unknown_postcode' : 'unavailable';
    deps.logger.warn({ jobId, postcode, problem, err: err instanceof Error ? err.message : String(err) }, 'protected trees lookup failed');
    kept = { lookupStatus: 'failed', findings: null, lookupProblem: problem };
  }
  const now = deps.clock.now();
  const values = { ...kept, postcode, checkedAt: now, source, updatedAt: now };
  // The job may have been deleted while the services answered: then there is nothing to keep.
  if (!deps.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, jobId)).get()) return;
  deps.db.insert(jobProtection).values({ jobId, ...values }).onConflictDoUpdate({ target: jobProtection.jobId, set: values }).run();
}

/** At most this many lookups are asked again in one housekeeping run: each takes up to a few seconds. */
export const REFRESH_BATCH = 20;

/**
 * Hourly housekeeping (server/main.ts): failed lookups of jobs still to be done, asked again an
 * hour after they failed, oldest first, one at a time. A lookup grown old is asked again when
 * the job is next opened instead: nothing waits on it. Returns how many were asked.
 */
export async function retryFailedLookups(deps: LookupDeps, shared?: PostcodeLookups): Promise<number> {
  if (!protectionLookups(deps.config)) return 0;
  const before = new Date(deps.clock.now().getTime() - FAILED_RETRY_MINUTES * 60_000);
  const due = deps.db
    .select({ jobId: jobProtection.jobId })
    .from(jobProtection)
    .innerJoin(jobs, eq(jobs.id, jobProtection.jobId))
    .where(and(eq(jobProtection.lookupStatus, 'failed'), lt(jobProtection.checkedAt, before), notInArray(jobs.status, [...ENDED_STATUSES])))
    .orderBy(jobProtection.checkedAt)
    .limit(REFRESH_BATCH)
    .all();
  for (const { jobId } of due) await lookUpJob(deps, jobId, { shared });
  return due.length;
}
