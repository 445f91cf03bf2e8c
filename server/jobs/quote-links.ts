import { createHash, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull, or } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { JOB_LOCKED_MESSAGE, LOCKED_STATUSES, jobReference, type JobStatus } from '../../core/jobs';
import { penceToDecimal } from '../../core/money';
import { VAT_STANDARD_RATE_PERCENT } from '../../core/price';
import { quoteValidUntil } from '../../core/quote';
import { quoteTotals, type QuoteTotals } from '../../core/quote-totals';
import {
  QUOTE_ALREADY_ANSWERED,
  QUOTE_LINK_MESSAGES,
  type PublicQuote,
  type QuoteAnswerKind,
  type QuoteContent,
} from '../../core/quote-versions';
import { immediate, type Db } from '../../db/client';
import { businesses, jobs, quoteAnswers, quoteVersions } from '../../db/schema';
import { randomSecret, sha256 } from '../accounts/tokens';
import type { Clock } from '../clock';
import { getCompanyProfile, getSettings } from '../settings/settings';
import { itemsOf, type JobRow } from './jobs';

/**
 * Quote links (docs/product.md, Jobs and quotes; CONVENTIONS 13 and 14). Sending a job freezes
 * its customer's copy as a version, hashed, and gives the customer a link holding a random
 * 256-bit token kept only as its SHA-256, good until the quote's validity ends. Sending again
 * makes a new version and marks the one before replaced; revoking ends the current link. A link
 * that was real but is no longer says which (withdrawn, replaced, expired: 410); any other is the
 * same 404. Every answer is found by one lookup of the token's hash, so time tells nothing more.
 */
export type QuoteVersionRow = typeof quoteVersions.$inferSelect;
export type QuoteAnswerRow = typeof quoteAnswers.$inferSelect;

const gone = (message: string) => new DomainError('QUOTE_GONE', message);

/** The content's fingerprint: SHA-256 of its JSON, keys in the order the content is built. */
export function contentHash(content: QuoteContent): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

/** The customer's copy of the job as it stands, for sending now. */
function freezeContent(db: Db, job: JobRow, version: number, sentTo: string, issuedAt: Date): QuoteContent {
  const profile = getCompanyProfile(db, job.userId);
  const business = job.businessId ? db.select().from(businesses).where(eq(businesses.id, job.businessId)).get() : undefined;
  return {
    reference: jobReference(job.id),
    version,
    issuedAt: issuedAt.toISOString(),
    validUntil: quoteValidUntil(issuedAt, profile.quoteValidityDays).toISOString(),
    business: {
      // A website lead's job goes out under the business it came through, as its PDF does.
      name: business?.name || profile.tradingName || '',
      address: profile.address,
      phone: profile.phone,
      email: profile.email,
      vatNumber: profile.vatNumber,
      accentColor: business?.accentColor ?? null,
    },
    customer: { name: job.customerName, email: sentTo, phone: job.customerPhone, siteAddress: job.siteAddress },
    vatMode: job.vatMode,
    vatRatePercent: VAT_STANDARD_RATE_PERCENT,
    items: itemsOf(db, [job.id]).map((item) => ({
      id: item.id,
      kind: item.kind,
      analysisId: item.analysisId,
      description: item.description,
      pricePence: item.pricePence,
      optional: item.optional,
    })),
    terms: getSettings(db, job.userId).quoteTerms,
    consumer: job.vatMode !== 'ex',
  };
}

/** The version a job's customer can open now: sent, not replaced or revoked (expired or not). */
export function currentVersion(db: Db, jobId: number): QuoteVersionRow | undefined {
  return db
    .select()
    .from(quoteVersions)
    .where(and(eq(quoteVersions.jobId, jobId), isNull(quoteVersions.replacedAt), isNull(quoteVersions.revokedAt)))
    .orderBy(desc(quoteVersions.version))
    .get();
}

export interface SentQuote {
  job: JobRow;
  version: QuoteVersionRow;
  /** The link's token: only in this answer and the customer's e-mail, never stored. */
  token: string;
}

/**
 * Sends the job as a new version to `to`: the version before (if any) is marked replaced in the
 * same transaction, so only the newest link opens the quote. An accepted job is locked (409);
 * a job with nothing in it cannot be sent (400).
 */
export function sendQuote(db: Db, clock: Clock, job: JobRow, to: string): SentQuote {
  if (LOCKED_STATUSES.has(job.status)) throw new DomainError('CONFLICT', JOB_LOCKED_MESSAGE);
  const now = clock.now();
  const token = randomSecret();
  return immediate(db, (tx) => {
    const last = tx.select({ version: quoteVersions.version }).from(quoteVersions).where(eq(quoteVersions.jobId, job.id)).orderBy(desc(quoteVersions.version)).get();
    const number = (last?.version ?? 0) + 1;
    const content = freezeContent(tx, job, number, to, now);
    if (content.items.length === 0) throw new DomainError('VALIDATION_ERROR', 'Add a tree or a line to the job before sending it.');
    tx.update(quoteVersions)
      .set({ replacedAt: now })
      .where(and(eq(quoteVersions.jobId, job.id), isNull(quoteVersions.replacedAt)))
      .run();
    const version = tx
      .insert(quoteVersions)
      .values({
        jobId: job.id,
        version: number,
        content,
        contentHash: contentHash(content),
        tokenHash: sha256(token),
        sentTo: to,
        sentAt: now,
        expiresAt: new Date(content.validUntil),
      })
      .returning()
      .get();
    const updated = tx.update(jobs).set({ status: 'sent', updatedAt: now }).where(eq(jobs.id, job.id)).returning().get()!;
    return { job: updated, version, token };
  });
}

/** Ends the current link (the customer's page then says the quote was withdrawn); the job is a draft again. */
export function revokeQuote(db: Db, clock: Clock, job: JobRow): JobRow {
  if (LOCKED_STATUSES.has(job.status)) throw new DomainError('CONFLICT', JOB_LOCKED_MESSAGE);
  const version = currentVersion(db, job.id);
  if (!version) throw new DomainError('NOT_FOUND', 'This job has no quote link to withdraw.');
  const now = clock.now();
  return immediate(db, (tx) => {
    tx.update(quoteVersions).set({ revokedAt: now }).where(eq(quoteVersions.id, version.id)).run();
    return tx.update(jobs).set({ status: 'draft', updatedAt: now }).where(eq(jobs.id, job.id)).returning().get()!;
  });
}

export interface OpenedQuote {
  version: QuoteVersionRow;
  job: JobRow;
  answer: QuoteAnswerRow | undefined;
}

/** The final answer to a version (an acceptance or a refusal), if any; a change asked for leaves it open. */
function finalAnswer(db: Db, versionId: number): QuoteAnswerRow | undefined {
  return db
    .select()
    .from(quoteAnswers)
    .where(eq(quoteAnswers.versionId, versionId))
    .orderBy(desc(quoteAnswers.id))
    .all()
    .find((answer) => answer.kind !== 'changes_requested');
}

/**
 * The version a link opens, or the plain reason it opens nothing: 404 for a token nobody has,
 * 410 for one withdrawn, replaced or expired (an answered quote stays readable after its date).
 */
export function openQuote(db: Db, clock: Clock, token: string): OpenedQuote {
  const hash = sha256(token);
  // The link sent with the quote, or the reminder's own link to the same version.
  const found = db
    .select({ version: quoteVersions, job: jobs })
    .from(quoteVersions)
    .innerJoin(jobs, eq(jobs.id, quoteVersions.jobId))
    .where(or(eq(quoteVersions.tokenHash, hash), eq(quoteVersions.reminderTokenHash, hash)))
    .get();
  const stored = found?.version.tokenHash === hash ? found.version.tokenHash : found?.version.reminderTokenHash;
  if (!found || !stored || !timingSafeEqual(Buffer.from(stored), Buffer.from(hash))) throw new DomainError('NOT_FOUND', QUOTE_LINK_MESSAGES.unknown);
  const { version, job } = found;
  if (version.revokedAt) throw gone(QUOTE_LINK_MESSAGES.revoked);
  if (version.replacedAt) throw gone(QUOTE_LINK_MESSAGES.replaced);
  const answer = finalAnswer(db, version.id);
  if (!answer && version.expiresAt.getTime() < clock.now().getTime()) throw gone(QUOTE_LINK_MESSAGES.expired);
  return { version, job, answer };
}

/**
 * The customer opened their quote: the first time, the job reads "viewed" (if it was only sent)
 * and the caller tells the owner. Returns whether this was the first view.
 */
export function markViewed(db: Db, clock: Clock, opened: OpenedQuote): boolean {
  if (opened.version.viewedAt) return false;
  const now = clock.now();
  return immediate(db, (tx) => {
    const first = tx.update(quoteVersions).set({ viewedAt: now }).where(and(eq(quoteVersions.id, opened.version.id), isNull(quoteVersions.viewedAt))).run().changes === 1;
    if (first) tx.update(jobs).set({ status: 'viewed', updatedAt: now }).where(and(eq(jobs.id, opened.job.id), eq(jobs.status, 'sent'))).run();
    return first;
  });
}

export interface AnswerInput {
  kind: QuoteAnswerKind;
  name?: string;
  message?: string;
  optionalItemIds?: number[];
  startEarly?: boolean;
  /** Where the answer came from: the client's address and browser, kept as evidence. */
  address: string;
  userAgent: string | null;
}

const STATUS_OF: Record<QuoteAnswerKind, JobStatus> = { accepted: 'accepted', declined: 'declined', changes_requested: 'changes_requested' };

/**
 * The customer's answer to the version their link opens. An acceptance records the evidence (the
 * name typed, the optional items chosen, an early start asked for, the content hash, the address
 * and browser) and locks the job; an accepted or declined version takes no other answer (409).
 */
export function answerQuote(db: Db, clock: Clock, token: string, input: AnswerInput): { opened: OpenedQuote; answer: QuoteAnswerRow } {
  const now = clock.now();
  return immediate(db, (tx) => {
    const opened = openQuote(tx, clock, token);
    if (opened.answer) throw new DomainError('CONFLICT', QUOTE_ALREADY_ANSWERED);
    const optional = new Set(opened.version.content.items.filter((item) => item.optional).map((item) => item.id));
    const chosen = [...new Set(input.optionalItemIds ?? [])];
    const stray = chosen.find((id) => !optional.has(id));
    if (stray !== undefined) {
      throw new DomainError('VALIDATION_ERROR', 'Choose only from the optional items on this quote.', { details: { optionalItemIds: [`${stray} is not an optional item of this quote`] } });
    }
    const answer = tx
      .insert(quoteAnswers)
      .values({
        versionId: opened.version.id,
        kind: input.kind,
        name: input.name ?? null,
        message: input.message ?? null,
        optionalItemIds: input.kind === 'accepted' ? chosen : null,
        startEarly: input.kind === 'accepted' ? input.startEarly === true : null,
        contentHash: opened.version.contentHash,
        address: input.address,
        userAgent: input.userAgent?.slice(0, 500) ?? null,
        createdAt: now,
      })
      .returning()
      .get();
    const job = tx.update(jobs).set({ status: STATUS_OF[input.kind], updatedAt: now }).where(eq(jobs.id, opened.job.id)).returning().get()!;
    return { opened: { ...opened, job }, answer };
  });
}

const money = (totals: QuoteTotals) => ({ net: penceToDecimal(totals.netPence), vat: penceToDecimal(totals.vatPence), gross: penceToDecimal(totals.grossPence) });

/** The totals of a version's content with the optional items `chosen`. */
export function contentTotals(content: QuoteContent, chosen: readonly number[]): QuoteTotals {
  return quoteTotals(content.items, new Set(chosen), content.vatMode, content.vatRatePercent);
}

/** What the customer's link shows: their copy as sent, and their answer once given. */
export function toPublicQuote(opened: Pick<OpenedQuote, 'version' | 'answer'>): PublicQuote {
  const { content } = opened.version;
  const answer = opened.answer;
  const chosen = answer?.optionalItemIds ?? [];
  return {
    reference: content.reference,
    version: content.version,
    issuedAt: content.issuedAt,
    validUntil: content.validUntil,
    business: content.business,
    customer: { name: content.customer.name, siteAddress: content.customer.siteAddress },
    vatMode: content.vatMode,
    items: content.items.map((item) => ({ id: item.id, kind: item.kind, description: item.description, price: penceToDecimal(item.pricePence), optional: item.optional })),
    totals: money(contentTotals(content, [])),
    totalsWithOptional: money(contentTotals(content, content.items.filter((i) => i.optional).map((i) => i.id))),
    terms: content.terms,
    consumer: content.consumer,
    answer: answer
      ? {
          kind: answer.kind,
          at: answer.createdAt.toISOString(),
          name: answer.name,
          optionalItemIds: chosen,
          startEarly: answer.startEarly === true,
          totals: answer.kind === 'accepted' ? money(contentTotals(content, chosen)) : null,
        }
      : null,
  };
}

/** The reference a version is sent under, e.g. Q-000012 (v2). */
export function versionReference(jobId: number, version: number): string {
  return version > 1 ? `${jobReference(jobId)} (v${version})` : jobReference(jobId);
}
