import { and, desc, eq } from 'drizzle-orm';
import type { Lead, LeadData } from '../../core/business';
import { isContactMethod, isContactTime } from '../../core/contact-preference';
import { LEAD_HONEYPOT_FIELD } from '../../core/embed';
import { totalMinutes } from '../../core/format';
import { siteAssumptions } from '../../core/quote';
import { visitorAnswers } from '../../core/visitor-answers';
import type { Db } from '../../db/client';
import { leads, treeAnalyses } from '../../db/schema';
import { toAnalysisView, type AnalysisRow } from '../analysis/store';
import type { Clock } from '../clock';
import { DomainError } from '../../core/errors';
import type { BusinessRow } from './businesses';

/**
 * "Request a quote" from an embedded estimator (docs/product.md, Embed widget): a visitor's
 * contact details, stored with the estimate they saw, readable only by the business's
 * owner. One request per estimate.
 */
export type LeadRow = typeof leads.$inferSelect;

export const LEAD_ALREADY_SENT = 'A quote has already been requested for this estimate.';

/**
 * Stores a visitor's request. Returns null, storing nothing, when the honeypot was filled:
 * the bot is answered as if it had succeeded, so it learns nothing to adapt to.
 */
export function createLead(db: Db, clock: Clock, business: BusinessRow, input: LeadData): { lead: LeadRow; analysis: AnalysisRow } | null {
  if (input[LEAD_HONEYPOT_FIELD]) return null;
  // Only an estimate this business's estimator made can carry a lead to it.
  const analysis = db
    .select()
    .from(treeAnalyses)
    .where(and(eq(treeAnalyses.id, input.analysisId), eq(treeAnalyses.businessId, business.id), eq(treeAnalyses.source, 'embed')))
    .get();
  if (!analysis) throw new DomainError('NOT_FOUND', 'Estimate not found. Please analyze the tree again.');
  try {
    const lead = db
      .insert(leads)
      .values({
        businessId: business.id,
        analysisId: analysis.id,
        name: input.name,
        email: input.email ?? null,
        phone: input.phone ?? null,
        note: input.note ?? null,
        contactMethod: input.contactMethod ?? null,
        contactTime: input.contactTime ?? null,
        createdAt: clock.now(),
      })
      .returning()
      .get();
    return { lead, analysis };
  } catch (err) {
    if ((err as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DomainError('CONFLICT', LEAD_ALREADY_SENT);
    throw err;
  }
}

export function listLeads(db: Db, businessId: number): Lead[] {
  return db
    .select({ lead: leads, analysis: treeAnalyses })
    .from(leads)
    .leftJoin(treeAnalyses, eq(treeAnalyses.id, leads.analysisId))
    .where(eq(leads.businessId, businessId))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .all()
    .map(({ lead, analysis }) => toLeadView(lead, analysis));
}

export function markContacted(db: Db, clock: Clock, businessId: number, leadId: number, contacted: boolean): Lead {
  const updated = Number.isSafeInteger(leadId)
    ? db
        .update(leads)
        .set({ contactedAt: contacted ? clock.now() : null })
        .where(and(eq(leads.id, leadId), eq(leads.businessId, businessId)))
        .returning()
        .get()
    : undefined;
  if (!updated) throw new DomainError('NOT_FOUND', 'Lead not found');
  const analysis = updated.analysisId
    ? db.select().from(treeAnalyses).where(eq(treeAnalyses.id, updated.analysisId)).get()
    : undefined;
  return toLeadView(updated, analysis ?? null);
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

export function toLeadView(lead: LeadRow, analysis: AnalysisRow | null): Lead {
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
    contactedAt: lead.contactedAt?.toISOString() ?? null,
    createdAt: lead.createdAt.toISOString(),
    estimate: analysis ? estimateOf(analysis) : null,
  };
}
