import { eq, inArray, or } from 'drizzle-orm';
import type { JobSheet } from '../../core/crew-day';
import { DomainError } from '../../core/errors';
import { ukToday } from '../../core/job-booking';
import { jobReference } from '../../core/jobs';
import { protectionInWords } from '../../core/protection';
import { ACCESS_LABELS, type Access } from '../../core/questions';
import { mapUrlOf, SITE_CHECK_REFUSALS } from '../../core/site-check';
import { convertLength } from '../../core/units';
import type { Db } from '../../db/client';
import { leads, leadTrees, treeAnalyses } from '../../db/schema';
import type { AnalysisRow } from '../analysis/store';
import { crewView } from '../crews/crews';
import type { AppDeps } from '../deps';
import { bookedNestingCheck } from '../jobs/booking';
import { itemsOf, type JobRow } from '../jobs/jobs';
import { acceptedOf } from '../jobs/quote-links';
import { jobPostcode } from '../protection/lookup';
import { protectionOf } from '../protection/protection';
import { boundedSiteLocation, checkDate, siteCheckMissing } from './site-check';
import { workSummaryOf } from './work-summary';

/**
 * The crew's job sheet (docs/product.md, The crew's day, The job sheet): what the crew needs on
 * site and nothing about money. Built from the version the customer accepted (its customer and
 * the items they agreed to, the optional ones they chose), else the job as it stands. The caller
 * has checked the person may work on the job (access.ts).
 */

type SheetDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

export interface AgreedItem {
  id: number;
  kind: 'tree' | 'line';
  analysisId: number | null;
  description: string;
}

/** The items the customer agreed to: the accepted version's, with the optional ones they chose; else the job's own. */
export function agreedItems(db: Db, job: Pick<JobRow, 'id'>): { items: AgreedItem[]; customer: { name: string; phone: string | null; siteAddress: string | null } | null } {
  const accepted = acceptedOf(db, job.id);
  const chosen = new Set(accepted?.answer.optionalItemIds ?? []);
  const items = (accepted ? accepted.version.content.items : itemsOf(db, [job.id]))
    .filter((item) => !item.optional || chosen.has(item.id))
    .map((item) => ({ id: item.id, kind: item.kind, analysisId: item.analysisId, description: item.description }));
  const customer = accepted ? accepted.version.content.customer : null;
  return { items, customer: customer ? { name: customer.name, phone: customer.phone, siteAddress: customer.siteAddress } : null };
}

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** Height in metres and trunk in cm as typed when typed in those units, else from the stored feet and inches. */
function sizesOf(row: AnalysisRow | undefined): { heightM: number | null; trunkCm: number | null } {
  const entered = row?.valueSources?.entered;
  const height = entered?.height?.unit === 'm' ? entered.height.value : row?.height != null ? convertLength(row.height, 'ft', 'm') : null;
  const trunk = entered?.diameter?.unit === 'cm' ? entered.diameter.value : row?.diameter != null ? convertLength(row.diameter, 'in', 'cm') : null;
  return { heightM: height === null ? null : oneDecimal(height), trunkCm: trunk === null ? null : oneDecimal(trunk) };
}

/** Where the sheet's tree photo is read: the crew's own route, checked as the sheet is (routes/crew-day.ts). */
export const sheetPhotoUrl = (jobId: number, itemId: number) => `/api/jobs/${jobId}/sheet/photos/${itemId}`;

/** The customer's answer on access from the website request the job came from, in words; null without one. */
function leadAccessWords(db: Db, leadId: number | null): string | null {
  if (leadId === null) return null;
  const lead = db.select({ analysisId: leads.analysisId }).from(leads).where(eq(leads.id, leadId)).get();
  if (!lead) return null;
  const rows = db
    .select({ siteDetails: treeAnalyses.siteDetails })
    .from(treeAnalyses)
    .where(or(inArray(treeAnalyses.id, db.select({ id: leadTrees.analysisId }).from(leadTrees).where(eq(leadTrees.leadId, leadId))), eq(treeAnalyses.id, lead.analysisId ?? -1)))
    .all();
  const access = rows.map((r) => r.siteDetails?.access).find((a): a is Access => typeof a === 'string' && a in ACCESS_LABELS);
  return access ? `Access (the customer's answer): ${ACCESS_LABELS[access]}` : null;
}

/** The analyses behind the trees, this account's only. */
function analysesOf(db: Db, accountId: number, ids: number[]): Map<number, AnalysisRow> {
  if (ids.length === 0) return new Map();
  return new Map(
    db
      .select()
      .from(treeAnalyses)
      .where(inArray(treeAnalyses.id, ids))
      .all()
      .filter((row) => row.userId === accountId)
      .map((row) => [row.id, row]),
  );
}

/** The sheet of a booked (or done) job; 409 for the owner and the office on a job not booked yet (a crew member never reaches one). */
export async function jobSheet(deps: SheetDeps, job: JobRow): Promise<JobSheet> {
  const { db, clock } = deps;
  if ((job.status !== 'booked' && job.status !== 'done') || !job.bookedFor) throw new DomainError('CONFLICT', SITE_CHECK_REFUSALS.notBooked);
  const { items, customer } = agreedItems(db, job);
  const postcode = jobPostcode(db, job.id);
  const location = await boundedSiteLocation(deps, postcode);
  const trees = items.filter((item) => item.kind === 'tree');
  const analyses = analysesOf(
    db,
    job.userId,
    trees.map((t) => t.analysisId).filter((id): id is number => id !== null),
  );
  const protection = protectionInWords(protectionOf(db, job));
  const nesting = bookedNestingCheck(db, job);
  const crew = job.crewId === null ? null : crewView(db, job.userId, job.crewId);
  const date = checkDate(job, undefined, ukToday(clock.now()));
  const missing = siteCheckMissing(db, job.id, date);
  return {
    jobId: job.id,
    reference: jobReference(job.id),
    customer: { name: customer?.name ?? job.customerName, phone: customer ? customer.phone : job.customerPhone },
    siteAddress: (customer ? customer.siteAddress : job.siteAddress) ?? '',
    postcode,
    location,
    mapUrl: mapUrlOf(location),
    what3words: job.what3words,
    accessNotes: job.accessNotes ?? leadAccessWords(db, job.leadId),
    bookingNote: job.bookingNote,
    booking: { date: job.bookedFor, startTime: job.bookedStart ?? '08:00', days: job.bookedDays ?? 1 },
    trees: trees.map((tree) => {
      const analysis = tree.analysisId === null ? undefined : analyses.get(tree.analysisId);
      return {
        itemId: tree.id,
        kind: analysis?.species?.trim() || 'Tree (species not identified)',
        ...sizesOf(analysis),
        work: tree.description,
        photoUrl: analysis?.imagePath ? sheetPhotoUrl(job.id, tree.id) : null,
        protection,
        nestingCheck: nesting,
      };
    }),
    lines: items.filter((item) => item.kind === 'line').map((line) => ({ itemId: line.id, description: line.description })),
    crew: crew
      ? {
          id: crew.id,
          name: crew.name,
          members: crew.members.map(({ id, name }) => ({ id, name })),
          kit: crew.equipment.map(({ name, kind, windLimitMs }) => ({ name, kind, windLimitMs })),
        }
      : null,
    siteCheck: { complete: missing.length === 0, missing },
    work: workSummaryOf(db, job.id, clock.now()),
    status: job.status,
  };
}

/** The stored photo of one of the sheet's trees (its analysis's image path), or null. */
export function sheetPhotoPath(db: Db, job: JobRow, itemId: number): string | null {
  const tree = agreedItems(db, job).items.find((item) => item.id === itemId && item.kind === 'tree');
  if (!tree?.analysisId) return null;
  return analysesOf(db, job.userId, [tree.analysisId]).get(tree.analysisId)?.imagePath ?? null;
}
