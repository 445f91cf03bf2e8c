import { and, desc, eq, sql } from 'drizzle-orm';
import type { Lead, LeadData } from '../../core/business';
import { isContactMethod, isContactTime } from '../../core/contact-preference';
import { ESTIMATE_NOT_FOUND, LEAD_HONEYPOT_FIELD } from '../../core/embed';
import { coversPostcode } from '../../core/postcode';
import { totalMinutes } from '../../core/format';
import { siteAssumptions } from '../../core/quote';
import { visitorAnswers } from '../../core/visitor-answers';
import type { Db } from '../../db/client';
import { jobs, leads, treeAnalyses } from '../../db/schema';
import { toAnalysisView, type AnalysisRow } from '../analysis/store';
import type { Clock } from '../clock';
import { DomainError } from '../../core/errors';
import type { BusinessRow } from './businesses';
import { estimateProvenBy } from './estimate-tokens';

/**
 * "Request a quote" from an embedded estimator (docs/product.md, Embed widget): a visitor's
 * contact details, stored with the estimate they saw, readable only by the business's
 * owner. One lead per estimate, proven by the estimate's token.
 */
export type LeadRow = typeof leads.$inferSelect;

/**
 * Whether a request from this postcode is outside the districts the business lists (an empty list
 * covers everywhere). Worked out when the request comes and stored with it, so a later change
 * to the list does not rewrite what the owner was told.
 */
export function isOutsideArea(business: Pick<BusinessRow, 'serviceDistricts'>, postcode: string): boolean {
  return !coversPostcode(business.serviceDistricts, postcode);
}

/**
 * Stores a visitor's request, or updates it: the estimate's token is the visitor's proof
 * (estimate-tokens.ts), so a second request for the same estimate is the same visitor correcting
 * or repeating theirs, and replaces its details instead of being refused. `updated` says which.
 * Returns null, storing nothing, when the honeypot was filled: the bot is answered as if it had
 * succeeded, so it learns nothing to adapt to. A wrong token, another business's estimate and an
 * unknown id are one and the same 404.
 */
export function saveLead(
  db: Db,
  clock: Clock,
  business: BusinessRow,
  input: LeadData,
): { lead: LeadRow; analysis: AnalysisRow; updated: boolean } | null {
  if (input[LEAD_HONEYPOT_FIELD]) return null;
  const analysis = estimateProvenBy(db, clock, business.id, input.analysisId, input.leadToken);
  if (!analysis) throw new DomainError('NOT_FOUND', ESTIMATE_NOT_FOUND);
  const details = {
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    note: input.note ?? null,
    contactMethod: input.contactMethod ?? null,
    contactTime: input.contactTime ?? null,
    postcode: input.postcode,
    address: input.address ?? null,
    outsideArea: isOutsideArea(business, input.postcode),
  };
  // better-sqlite3 is synchronous, so nothing runs between the look and the upsert; the unique
  // index on analysis_id keeps one lead per estimate whatever else writes the file.
  const existing = db.select({ id: leads.id }).from(leads).where(eq(leads.analysisId, analysis.id)).get();
  const lead = db
    .insert(leads)
    .values({ businessId: business.id, analysisId: analysis.id, ...details, createdAt: clock.now() })
    .onConflictDoUpdate({ target: leads.analysisId, set: details })
    .returning()
    .get();
  return { lead, analysis, updated: existing !== undefined };
}

/** The newest of the owner's jobs made from the lead, as a column of a query over leads (jobs_lead_idx). */
const newestJobId = (ownerId: number) =>
  sql<number | null>`(select ${jobs.id} from ${jobs} where ${jobs.leadId} = ${leads.id} and ${jobs.userId} = ${ownerId} order by ${jobs.createdAt} desc, ${jobs.id} desc limit 1)`;

/** A business's leads, newest first, each with its estimate and the newest job made from it: one query. */
export function listLeads(db: Db, business: Pick<BusinessRow, 'id' | 'ownerId'>): Lead[] {
  return db
    .select({ lead: leads, analysis: treeAnalyses, jobId: newestJobId(business.ownerId) })
    .from(leads)
    .leftJoin(treeAnalyses, eq(treeAnalyses.id, leads.analysisId))
    .where(eq(leads.businessId, business.id))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .all()
    .map(({ lead, analysis, jobId }) => toLeadView(lead, analysis, jobId));
}

export function markContacted(db: Db, clock: Clock, business: Pick<BusinessRow, 'id' | 'ownerId'>, leadId: number, contacted: boolean): Lead {
  const updated = Number.isSafeInteger(leadId)
    ? db
        .update(leads)
        .set({ contactedAt: contacted ? clock.now() : null })
        .where(and(eq(leads.id, leadId), eq(leads.businessId, business.id)))
        .returning({ id: leads.id })
        .get()
    : undefined;
  if (!updated) throw new DomainError('NOT_FOUND', 'Lead not found');
  const found = db
    .select({ lead: leads, analysis: treeAnalyses, jobId: newestJobId(business.ownerId) })
    .from(leads)
    .leftJoin(treeAnalyses, eq(treeAnalyses.id, leads.analysisId))
    .where(eq(leads.id, updated.id))
    .get()!;
  return toLeadView(found.lead, found.analysis, found.jobId);
}

/** The estimate the visitor saw, with every answer they gave it, as the owner reads it. */
export function estimateOf(analysis: AnalysisRow): NonNullable<Lead['estimate']> {
  const view = toAnalysisView(analysis);
  return {
    imageUrl: view.imageUrl,
    species: view.species,
    totalMinutes: totalMinutes(view),
    cost: view.cost,
    price: view.price,
    assumed: siteAssumptions(view.factors),
    siteVisitReason: view.siteVisitReason,
    answers: visitorAnswers(
      { species: view.species, heightFt: view.height, dbhIn: view.diameter, sources: view.sources, units: view.units, enteredSizes: view.enteredSizes },
      view.siteDetails,
    ),
  };
}

/** A lead as its owner reads it; `jobId` the newest job made from it (null for the lead's own e-mail, sent before any). */
export function toLeadView(lead: LeadRow, analysis: AnalysisRow | null, jobId: number | null = null): Lead {
  return {
    id: lead.id,
    businessId: lead.businessId,
    analysisId: lead.analysisId,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    note: lead.note,
    // A value this version does not know (a row from a later one) reads as not said.
    contactMethod: isContactMethod(lead.contactMethod) ? lead.contactMethod : null,
    contactTime: isContactTime(lead.contactTime) ? lead.contactTime : null,
    postcode: lead.postcode,
    address: lead.address,
    outsideArea: lead.outsideArea,
    contactedAt: lead.contactedAt?.toISOString() ?? null,
    createdAt: lead.createdAt.toISOString(),
    jobId,
    estimate: analysis ? estimateOf(analysis) : null,
  };
}
