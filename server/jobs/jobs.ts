import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { JOB_LIMITS, JOB_NOT_FOUND, LOCKED_STATUSES, lockedMessage, type JobCustomer } from '../../core/jobs';
import { parsePence } from '../../core/money';
import { QUOTE_SITE_ADDRESS_MAX } from '../../core/quote';
import type { VatMode } from '../../core/price';
import { roundToStep, startingPricePence } from '../../core/quote-totals';
import { immediate, type Db } from '../../db/client';
import { businesses, jobItems, jobs, leads, treeAnalyses } from '../../db/schema';
import { toAnalysisView, type AnalysisRow } from '../analysis/store';
import { leadTreeIds, type LeadRow } from '../businesses/leads';
import type { Clock } from '../clock';
import { treeWork } from './tree-work';
import { describeLeadTrees } from './lead-items';

/**
 * Jobs (docs/product.md, Jobs and quotes): an account's quote to one customer, its trees (the
 * account's own analyses) and typed lines, each priced by the surgeon. A job and its items are
 * the account's alone: another account's job, lead or analysis is the same 404 as a missing one.
 * Once the customer has accepted, items and prices are locked (409): each change reads the job
 * again inside its own immediate transaction and checks the lock there (rereadOwnJob).
 */
export type JobRow = typeof jobs.$inferSelect;
export type JobItemRow = typeof jobItems.$inferSelect;

/** What a new job is priced with: the account's VAT mode and rounding rule. */
export interface JobPricing {
  vatMode: VatMode;
  roundingPence: number;
}

export interface NewJob {
  analysisIds: number[];
  leadId?: number;
  customer?: JobCustomer;
}

const notFound = (what: string) => new DomainError('NOT_FOUND', what);

/** The account's analyses by id, in the order asked; any other id is a 404 that names no owner. */
function ownAnalyses(db: Db, userId: number, ids: readonly number[]): AnalysisRow[] {
  if (ids.length === 0) return [];
  const rows = db.select().from(treeAnalyses).where(and(eq(treeAnalyses.userId, userId), inArray(treeAnalyses.id, [...ids]))).all();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound('Analysis not found');
    return row;
  });
}

/** A lead of one of the account's businesses, with its business's id. */
function ownLead(db: Db, userId: number, leadId: number) {
  const found = db
    .select({ lead: leads })
    .from(leads)
    .innerJoin(businesses, eq(businesses.id, leads.businessId))
    .where(and(eq(leads.id, leadId), eq(businesses.ownerId, userId)))
    .get();
  if (!found) throw notFound('Lead not found');
  return found.lead;
}

/**
 * Where the job is, from the visitor's request: their address and postcode ("12 Oak Lane,
 * Headingley, LS6 2AB"), the postcode not written twice, within the quote's limit.
 */
function siteAddressOf(lead: Pick<LeadRow, 'address' | 'postcode'>): string | null {
  const { address, postcode } = lead;
  if (!address) return postcode;
  if (!postcode || address.toUpperCase().replace(/\s+/g, '').includes(postcode.replace(/\s+/g, ''))) return address;
  const both = `${address}, ${postcode}`;
  return both.length <= QUOTE_SITE_ADDRESS_MAX ? both : address;
}

/**
 * Makes a draft job: from a lead (every tree of it and the customer's details, which `customer` may
 * override), from analyses (ticked in History), or empty. Each tree starts at its estimate's
 * middle, rounded by the account's rule (core/quote-totals.ts).
 */
/** `by`: the person who made it (jobs.created_by; null from the CLI or background work). */
export function createJob(db: Db, clock: Clock, userId: number, input: NewJob, pricing: JobPricing, by: number | null = null): JobRow {
  const lead = input.leadId === undefined ? null : ownLead(db, userId, input.leadId);
  const ids = [...new Set([...(lead ? leadTreeIds(db, lead) : []), ...input.analysisIds])];
  if (ids.length > JOB_LIMITS.items) throw new DomainError('VALIDATION_ERROR', `A job holds at most ${JOB_LIMITS.items} items`);
  const trees = ownAnalyses(db, userId, ids);
  const customer: JobCustomer = input.customer ?? {
    name: lead!.name,
    email: lead!.email,
    phone: lead!.phone,
    siteAddress: siteAddressOf(lead!),
  };
  const now = clock.now();
  return immediate(db, (tx) => {
    const job = tx
      .insert(jobs)
      .values({
        userId,
        businessId: lead?.businessId ?? null,
        leadId: lead?.id ?? null,
        customerName: customer.name,
        customerEmail: customer.email,
        customerPhone: customer.phone,
        siteAddress: customer.siteAddress,
        vatMode: pricing.vatMode,
        createdBy: by,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    insertTrees(tx, job.id, trees, 0, pricing);
    if (lead) describeLeadTrees(tx, job.id, trees);
    return job;
  });
}

/** Trees as items from `position` on: each in plain words, at its estimate's middle rounded by the rule. */
function insertTrees(tx: Db, jobId: number, trees: readonly AnalysisRow[], position: number, pricing: JobPricing): void {
  trees.forEach((tree, index) => {
    const view = toAnalysisView(tree);
    tx.insert(jobItems)
      .values({
        jobId,
        kind: 'tree',
        analysisId: tree.id,
        description: treeWork(view),
        pricePence: startingPricePence(view.price, pricing.vatMode, pricing.roundingPence),
        position: position + index,
      })
      .run();
  });
}

/**
 * Adds the account's analyses to a job as trees, after its items (History's "Add to a job", the
 * job page's "Add a tree from History"). A tree already in the job is not added twice, so a
 * repeated request changes nothing; another account's analysis is a 404 and adds nothing.
 */
export function addTrees(db: Db, clock: Clock, job: Pick<JobRow, 'id' | 'userId'>, analysisIds: readonly number[], pricing: JobPricing): JobRow {
  const trees = ownAnalyses(db, job.userId, [...new Set(analysisIds)]);
  return immediate(db, (tx) => {
    unlockedJob(tx, job);
    const existing = itemsOf(tx, [job.id]);
    const present = new Set(existing.map((item) => item.analysisId));
    const fresh = trees.filter((tree) => !present.has(tree.id));
    if (existing.length + fresh.length > JOB_LIMITS.items) throw new DomainError('VALIDATION_ERROR', `A job holds at most ${JOB_LIMITS.items} items`);
    insertTrees(tx, job.id, fresh, existing.reduce((last, item) => Math.max(last, item.position), -1) + 1, pricing);
    return tx.update(jobs).set({ updatedAt: clock.now() }).where(eq(jobs.id, job.id)).returning().get()!;
  });
}

export function listOwnJobs(db: Db, userId: number): JobRow[] {
  return db.select().from(jobs).where(eq(jobs.userId, userId)).orderBy(desc(jobs.createdAt), desc(jobs.id)).all();
}

export function findOwnJob(db: Db, userId: number, id: number): JobRow {
  const row = Number.isSafeInteger(id) && id > 0 ? db.select().from(jobs).where(and(eq(jobs.id, id), eq(jobs.userId, userId))).get() : undefined;
  if (!row) throw notFound(JOB_NOT_FOUND);
  return row;
}

/** Refuses a change to a job the customer has accepted (or whose agreement was cancelled): 409 with the reason. */
export function refuseIfLocked(job: Pick<JobRow, 'status'>): void {
  if (LOCKED_STATUSES.has(job.status)) throw new DomainError('CONFLICT', lockedMessage(job.status));
}

/**
 * The job as it is now, read inside the caller's write transaction. Every change to a job reads
 * it here, after the request's body has arrived, and checks the lock on what it reads: a body
 * that arrives after the customer's acceptance finds the job accepted (409), whatever the order
 * in which the requests began.
 */
export function rereadOwnJob(tx: Db, job: Pick<JobRow, 'id' | 'userId'>): JobRow {
  return findOwnJob(tx, job.userId, job.id);
}

/** The job read again inside the write transaction, refused when locked. */
function unlockedJob(tx: Db, job: Pick<JobRow, 'id' | 'userId'>): JobRow {
  const current = rereadOwnJob(tx, job);
  refuseIfLocked(current);
  return current;
}

/** The items of the jobs, in their order. */
export function itemsOf(db: Db, jobIds: readonly number[]): JobItemRow[] {
  if (jobIds.length === 0) return [];
  return db.select().from(jobItems).where(inArray(jobItems.jobId, [...jobIds])).orderBy(asc(jobItems.position), asc(jobItems.id)).all();
}

export interface JobChanges {
  customer?: JobCustomer;
  items?: { id: number; price?: string; description?: string; optional?: boolean }[];
  removeItemIds?: number[];
  /** Rounds every item's price by the account's rule. */
  roundPrices?: boolean;
  /** The job's own deposit percentage (0: none), or null to follow the Settings rule. */
  depositPercent?: number | null;
}

/**
 * Changes a draft (or sent, not yet accepted) job: the customer, each item's price, words and
 * whether it is optional, items removed. An item id that is not this job's is a 404; nothing is
 * changed unless all of it can be.
 */
export function updateJob(db: Db, clock: Clock, job: Pick<JobRow, 'id' | 'userId'>, changes: JobChanges, roundingPence: number): JobRow {
  return immediate(db, (tx) => {
    unlockedJob(tx, job);
    const own = new Map(itemsOf(tx, [job.id]).map((item) => [item.id, item]));
    for (const id of [...(changes.items ?? []).map((i) => i.id), ...(changes.removeItemIds ?? [])]) {
      if (!own.has(id)) throw notFound('Item not found');
    }
    for (const change of changes.items ?? []) {
      const set: Partial<JobItemRow> = {};
      if (change.price !== undefined) set.pricePence = parsePence(change.price)!;
      if (change.description !== undefined) set.description = change.description;
      if (change.optional !== undefined) set.optional = change.optional;
      if (Object.keys(set).length > 0) tx.update(jobItems).set(set).where(eq(jobItems.id, change.id)).run();
    }
    if (changes.removeItemIds?.length) tx.delete(jobItems).where(inArray(jobItems.id, changes.removeItemIds)).run();
    if (changes.roundPrices) {
      for (const item of itemsOf(tx, [job.id])) {
        const rounded = roundToStep(item.pricePence, roundingPence);
        if (rounded !== item.pricePence) tx.update(jobItems).set({ pricePence: rounded }).where(eq(jobItems.id, item.id)).run();
      }
    }
    const customer = changes.customer
      ? { customerName: changes.customer.name, customerEmail: changes.customer.email, customerPhone: changes.customer.phone, siteAddress: changes.customer.siteAddress }
      : {};
    const deposit = changes.depositPercent !== undefined ? { depositPercent: changes.depositPercent } : {};
    return tx.update(jobs).set({ ...customer, ...deposit, updatedAt: clock.now() }).where(eq(jobs.id, job.id)).returning().get()!;
  });
}

/** Adds a typed line (work the photo cannot price) at the end of the job. */
export function addLine(db: Db, clock: Clock, job: Pick<JobRow, 'id' | 'userId'>, line: { description: string; price: string; optional: boolean }): JobRow {
  return immediate(db, (tx) => {
    unlockedJob(tx, job);
    const existing = itemsOf(tx, [job.id]);
    if (existing.length >= JOB_LIMITS.items) throw new DomainError('VALIDATION_ERROR', `A job holds at most ${JOB_LIMITS.items} items`);
    const position = existing.reduce((last, item) => Math.max(last, item.position), -1) + 1;
    tx.insert(jobItems)
      .values({ jobId: job.id, kind: 'line', analysisId: null, description: line.description, pricePence: parsePence(line.price)!, optional: line.optional, position })
      .run();
    return tx.update(jobs).set({ updatedAt: clock.now() }).where(eq(jobs.id, job.id)).returning().get()!;
  });
}
