import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Lead, LeadData } from '../../core/business';
import { isContactMethod, isContactTime } from '../../core/contact-preference';
import { ESTIMATE_NOT_FOUND, LEAD_HONEYPOT_FIELD } from '../../core/embed';
import { coversPostcode } from '../../core/postcode';
import { totalMinutes } from '../../core/format';
import { leadTotal } from '../../core/lead-total';
import { siteAssumptions } from '../../core/quote';
import { visitorAnswers } from '../../core/visitor-answers';
import { immediate, type Db } from '../../db/client';
import { jobs, leads, leadTrees, treeAnalyses } from '../../db/schema';
import { toAnalysisView, type AnalysisRow } from '../analysis/store';
import type { Clock } from '../clock';
import { DomainError } from '../../core/errors';
import type { BusinessRow } from './businesses';
import { estimateProvenBy } from '../analysis/estimate-tokens';

/**
 * "Request a quote" from an embedded estimator (docs/product.md, Embed widget): a visitor's
 * contact details, stored with the estimate they saw, readable only by the business's
 * owner. A lead holds every estimate of the visit (its trees), each proven by its token.
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

/** A tree of a lead as read: its place's analysis id (null once deleted) and the analysis. */
export interface LeadTreeRead {
  analysisId: number | null;
  analysis: AnalysisRow | null;
}

export interface SavedLead {
  lead: LeadRow;
  /** The request's trees, proven, in its order; the first is the lead's primary. */
  trees: LeadTreeRead[];
  /** The lead was there before (a request for one of these estimates came already). */
  updated: boolean;
  /** How many of the trees were in no lead before: what the funnel's `trees` counts. */
  addedTrees: number;
}

/**
 * Stores a visitor's request, or updates it (docs/product.md, Embed widget: Several trees, one
 * request). Each estimate's token is the visitor's proof (server/analysis/estimate-tokens.ts): every tree must be
 * proven, or nothing is stored and the answer is the one 404 a wrong token, another business's
 * estimate and an unknown id all get. An estimate is in one lead at most, so a request naming
 * estimates already sent is the same visitor correcting or adding to theirs: it updates the lead
 * of its earliest such tree (details and trees replaced, `updated`), and a tree of another lead
 * moves to it; a lead left with no tree is then deleted, its request being in this one now.
 * Returns null, storing nothing, when the honeypot was filled: the bot is answered as if it had
 * succeeded, so it learns nothing to adapt to.
 */
export function saveLead(db: Db, clock: Clock, business: BusinessRow, input: LeadData): SavedLead | null {
  if (input[LEAD_HONEYPOT_FIELD]) return null;
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
  // One write transaction: the proofs, the look at where the trees are, and the moves cannot
  // interleave with another request for the same estimates.
  return immediate(db, (tx) => {
    const trees = input.trees.map(({ analysisId, leadToken }) => estimateProvenBy(tx, clock, business.id, analysisId, leadToken));
    if (trees.some((tree) => tree === undefined)) throw new DomainError('NOT_FOUND', ESTIMATE_NOT_FOUND);
    const proven = trees as AnalysisRow[];
    const ids = proven.map((tree) => tree.id);
    const leadOf = leadsHolding(tx, business.id, ids);
    const targetId = ids.map((id) => leadOf.get(id)).find((id) => id !== undefined);
    const sources = new Set([...leadOf.values()].filter((id) => id !== targetId));
    tx.delete(leadTrees).where(inArray(leadTrees.analysisId, ids)).run();
    for (const source of sources) keepRestOrDelete(tx, source);
    let lead: LeadRow;
    if (targetId === undefined) {
      lead = tx
        .insert(leads)
        .values({ businessId: business.id, analysisId: ids[0]!, ...details, createdAt: clock.now() })
        .returning()
        .get();
    } else {
      // The request says which trees the lead has: ones it no longer names leave it.
      tx.delete(leadTrees).where(eq(leadTrees.leadId, targetId)).run();
      lead = tx
        .update(leads)
        .set({ ...details, analysisId: ids[0]! })
        .where(and(eq(leads.id, targetId), eq(leads.businessId, business.id)))
        .returning()
        .get()!;
    }
    tx.insert(leadTrees)
      .values(ids.map((analysisId, position) => ({ leadId: lead.id, analysisId, position })))
      .run();
    return { lead, trees: proven.map((analysis) => ({ analysisId: analysis.id, analysis })), updated: targetId !== undefined, addedTrees: ids.filter((id) => !leadOf.has(id)).length };
  });
}

/**
 * Which of the business's leads holds each of `ids`: lead_trees, or leads.analysis_id for a lead
 * with no lead_trees rows (from before them; migration 0016 gave every such lead its row).
 */
function leadsHolding(tx: Db, businessId: number, ids: readonly number[]): Map<number, number> {
  const held = new Map<number, number>();
  const primaries = tx
    .select({ leadId: leads.id, analysisId: leads.analysisId })
    .from(leads)
    .where(and(eq(leads.businessId, businessId), inArray(leads.analysisId, [...ids])))
    .all();
  const placed = tx
    .select({ leadId: leadTrees.leadId, analysisId: leadTrees.analysisId })
    .from(leadTrees)
    .innerJoin(leads, eq(leads.id, leadTrees.leadId))
    .where(and(eq(leads.businessId, businessId), inArray(leadTrees.analysisId, [...ids])))
    .all();
  for (const { leadId, analysisId } of [...primaries, ...placed]) if (analysisId !== null) held.set(analysisId, leadId);
  return held;
}

/** A lead some of whose trees moved to another request: the rest close up in order, or the lead goes if none is left. */
function keepRestOrDelete(tx: Db, leadId: number): void {
  const rest = tx.select().from(leadTrees).where(eq(leadTrees.leadId, leadId)).orderBy(asc(leadTrees.position)).all();
  if (rest.length === 0) {
    tx.delete(leads).where(eq(leads.id, leadId)).run();
    return;
  }
  tx.delete(leadTrees).where(eq(leadTrees.leadId, leadId)).run();
  tx.insert(leadTrees)
    .values(rest.map((tree, position) => ({ leadId, analysisId: tree.analysisId, position })))
    .run();
  tx.update(leads).set({ analysisId: rest[0]!.analysisId }).where(eq(leads.id, leadId)).run();
}

/** The lead's trees' analyses, in order, those since deleted left out (a job from the lead holds them all). */
export function leadTreeIds(db: Db, lead: Pick<LeadRow, 'id' | 'analysisId'>): number[] {
  const rows = db.select({ analysisId: leadTrees.analysisId }).from(leadTrees).where(eq(leadTrees.leadId, lead.id)).orderBy(asc(leadTrees.position)).all();
  const ids = rows.length > 0 ? rows.map((row) => row.analysisId) : [lead.analysisId];
  return ids.filter((id): id is number => id !== null);
}

/** The newest of the owner's jobs made from the lead, as a column of a query over leads (jobs_lead_idx). */
const newestJobId = (ownerId: number) =>
  sql<number | null>`(select ${jobs.id} from ${jobs} where ${jobs.leadId} = ${leads.id} and ${jobs.userId} = ${ownerId} order by ${jobs.createdAt} desc, ${jobs.id} desc limit 1)`;

/**
 * Leads as their owner reads them, newest first, each with every tree and the newest job made
 * from it: one query whatever the number of leads or trees (a row per tree). A lead with no
 * lead_trees rows reads as one tree, its analysis_id.
 */
function leadViews(db: Db, ownerId: number, where: SQL): Lead[] {
  const rows = db
    .select({ lead: leads, analysisId: leadTrees.analysisId, placed: leadTrees.leadId, analysis: treeAnalyses, jobId: newestJobId(ownerId) })
    .from(leads)
    .leftJoin(leadTrees, eq(leadTrees.leadId, leads.id))
    .leftJoin(treeAnalyses, eq(treeAnalyses.id, sql`case when ${leadTrees.leadId} is null then ${leads.analysisId} else ${leadTrees.analysisId} end`))
    .where(where)
    .orderBy(desc(leads.createdAt), desc(leads.id), asc(leadTrees.position))
    .all();
  const views: Lead[] = [];
  let current: { lead: LeadRow; jobId: number | null; trees: LeadTreeRead[] } | undefined;
  const flush = () => current && views.push(toLeadView(current.lead, current.trees, current.jobId));
  for (const row of rows) {
    if (current?.lead.id !== row.lead.id) {
      flush();
      current = { lead: row.lead, jobId: row.jobId, trees: [] };
    }
    current.trees.push({ analysisId: row.placed === null ? row.lead.analysisId : row.analysisId, analysis: row.analysis });
  }
  flush();
  return views;
}

/** A business's leads, newest first, each with its trees and the newest job made from it: one query. */
export function listLeads(db: Db, business: Pick<BusinessRow, 'id' | 'ownerId'>): Lead[] {
  return leadViews(db, business.ownerId, eq(leads.businessId, business.id));
}

/** One of the business owner's leads as they read it, with its trees and newest job; undefined once it is gone. */
export function leadView(db: Db, ownerId: number, leadId: number): Lead | undefined {
  return leadViews(db, ownerId, eq(leads.id, leadId))[0];
}

/** `by`: the person marking it (leads.updated_by). */
export function markContacted(db: Db, clock: Clock, business: Pick<BusinessRow, 'id' | 'ownerId'>, leadId: number, contacted: boolean, by: number | null = null): Lead {
  const updated = Number.isSafeInteger(leadId)
    ? db
        .update(leads)
        .set({ contactedAt: contacted ? clock.now() : null, updatedBy: by })
        .where(and(eq(leads.id, leadId), eq(leads.businessId, business.id)))
        .returning({ id: leads.id })
        .get()
    : undefined;
  if (!updated) throw new DomainError('NOT_FOUND', 'Lead not found');
  return leadViews(db, business.ownerId, eq(leads.id, updated.id))[0]!;
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

/**
 * A lead as its owner reads it: `trees` in order (an analysis, or null once deleted), the first
 * also as `estimate`, and their total; `jobId` the newest job made from it (null for the lead's
 * own e-mail, sent before any).
 */
export function toLeadView(lead: LeadRow, trees: readonly LeadTreeRead[], jobId: number | null = null): Lead {
  const treeViews = trees.map(({ analysisId, analysis }) => ({ analysisId, estimate: analysis ? estimateOf(analysis) : null }));
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
    estimate: treeViews[0]?.estimate ?? null,
    trees: treeViews,
    total: leadTotal(treeViews.map(({ estimate }) => estimate?.price ?? null)),
  };
}
