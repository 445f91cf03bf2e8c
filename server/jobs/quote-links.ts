import { depositAskOf, depositAskText } from '../../core/card-payments';
import { getInvoiceSettings } from '../settings/invoice-settings';
import { customerLineOf } from '../protection/protection';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { formatSortCode } from '../../core/invoices';
import { AWAITING_ANSWER_STATUSES, jobReference, lockedMessage, type JobStatus } from '../../core/jobs';
import { cancellationLastDay } from '../../core/consumer-rights';
import { ukToday } from '../../core/job-booking';
import { customerCopyText } from '../../core/quote-copy';
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
import { businesses, earlyStartRequests, jobs, quoteAnswers, quoteCancellations, quoteVersions } from '../../db/schema';
import { hashesMatch, randomSecret, sha256 } from '../secrets/tokens';
import type { Clock } from '../clock';
import { getCompanyProfile, getSettings } from '../settings/settings';
import { itemsOf, refuseIfLocked, rereadOwnJob, type JobRow } from './jobs';

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

export type QuoteCancellationRow = typeof quoteCancellations.$inferSelect;
export type EarlyStartRow = typeof earlyStartRequests.$inferSelect;

/**
 * The fingerprint of the customer's copy of a version: the SHA-256 of the quote as their link
 * serves it, without its answer, in canonical JSON (core/quote-copy.ts). Anyone with the link can
 * recompute it from `GET /api/quotes/{token}`; an acceptance records it as it stood then.
 */
export function contentHash(content: QuoteContent): string {
  return sha256(customerCopyText(toPublicQuote({ version: { content } })));
}

/** The protected trees' line as the job stands on the day it is sent, when one applies. */
function protectionLine(db: Db, jobId: number, issuedAt: Date): { protectionNotice?: string } {
  const line = customerLineOf(db, jobId, ukToday(issuedAt));
  return line ? { protectionNotice: line } : {};
}

/** The customer's copy of the job as it stands, for sending now. */
function freezeContent(db: Db, job: JobRow, version: number, sentTo: string, issuedAt: Date, takesCards: boolean): QuoteContent {
  const invoiceSettings = getInvoiceSettings(db, job.userId);
  const ask = depositAskOf(job.depositPercent, invoiceSettings.depositRule);
  const bank = invoiceSettings.bankDetails;
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
    // The deposit with how it can be paid as things stand now: what the customer agrees to.
    deposit: ask
      ? { ...ask, payBy: { card: takesCards, bank: bank ? { accountName: bank.accountName, sortCode: formatSortCode(bank.sortCode), accountNumber: bank.accountNumber } : null } }
      : null,
    ...protectionLine(db, job.id, issuedAt),
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

const NO_ADDRESS = "Add the customer's e-mail address to send the quote.";

/**
 * Sends the job as a new version to `email` (else the job's customer e-mail): the version before
 * (if any) is marked replaced in the same transaction, so only the newest link opens the quote.
 * The job is read again and its lock checked inside that one immediate transaction, so an
 * acceptance that lands first always wins: an accepted job is never sent again (409) and its
 * accepted version is never replaced. A job with nothing in it cannot be sent (400).
 */
/**
 * `takesCards`: whether the business takes card payments now (card-payments/checkout.ts cardPaymentsOpen, a layer above), for the deposit's way to pay.
 * `by`: the person sending it (quote_versions.sent_by).
 */
export function sendQuote(db: Db, clock: Clock, job: Pick<JobRow, 'id' | 'userId'>, email: string | undefined, takesCards = false, by: number | null = null): SentQuote {
  const now = clock.now();
  const token = randomSecret();
  return immediate(db, (tx) => {
    const current = rereadOwnJob(tx, job);
    refuseIfLocked(current);
    const to = email ?? current.customerEmail;
    if (!to) throw new DomainError('VALIDATION_ERROR', NO_ADDRESS, { details: { email: [NO_ADDRESS] } });
    const accepted = tx
      .select({ id: quoteAnswers.id })
      .from(quoteAnswers)
      .innerJoin(quoteVersions, eq(quoteVersions.id, quoteAnswers.versionId))
      .where(and(eq(quoteVersions.jobId, job.id), eq(quoteAnswers.kind, 'accepted')))
      .get();
    if (accepted) throw new DomainError('CONFLICT', lockedMessage('accepted'));
    const last = tx.select({ version: quoteVersions.version }).from(quoteVersions).where(eq(quoteVersions.jobId, job.id)).orderBy(desc(quoteVersions.version)).get();
    const number = (last?.version ?? 0) + 1;
    const content = freezeContent(tx, current, number, to, now, takesCards);
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
        sentBy: by,
        expiresAt: new Date(content.validUntil),
      })
      .returning()
      .get();
    const updated = tx.update(jobs).set({ status: 'sent', updatedAt: now }).where(eq(jobs.id, job.id)).returning().get()!;
    return { job: updated, version, token };
  });
}

/** Ends the current link (the customer's page then says the quote was withdrawn); the job is a draft again. */
export function revokeQuote(db: Db, clock: Clock, job: Pick<JobRow, 'id' | 'userId'>): JobRow {
  const now = clock.now();
  return immediate(db, (tx) => {
    refuseIfLocked(rereadOwnJob(tx, job));
    const version = currentVersion(tx, job.id);
    if (!version) throw new DomainError('NOT_FOUND', 'This job has no quote link to withdraw.');
    tx.update(quoteVersions).set({ revokedAt: now }).where(eq(quoteVersions.id, version.id)).run();
    return tx.update(jobs).set({ status: 'draft', updatedAt: now }).where(eq(jobs.id, job.id)).returning().get()!;
  });
}

export interface OpenedQuote {
  version: QuoteVersionRow;
  job: JobRow;
  answer: QuoteAnswerRow | undefined;
  /** The agreement's cancellation, once there is one. */
  cancellation?: QuoteCancellationRow | undefined;
  /** The surgeon's ask for an early start and the customer's request, once there is one (jobs/early-start.ts). */
  earlyStart?: EarlyStartRow | undefined;
}

/**
 * The accepted version of a job and its acceptance, read in the caller's transaction: once there
 * is one, it is the job's record (items, prices, words, customer), whatever the draft says.
 */
export function acceptedOf(db: Db, jobId: number): { version: QuoteVersionRow; answer: QuoteAnswerRow } | undefined {
  const row = db
    .select({ version: quoteVersions, answer: quoteAnswers })
    .from(quoteAnswers)
    .innerJoin(quoteVersions, eq(quoteVersions.id, quoteAnswers.versionId))
    .where(and(eq(quoteVersions.jobId, jobId), eq(quoteAnswers.kind, 'accepted')))
    .orderBy(desc(quoteAnswers.id))
    .get();
  return row ?? undefined;
}

/** A job's cancellation, if any. */
export function cancellationOf(db: Db, jobId: number): QuoteCancellationRow | undefined {
  return db.select().from(quoteCancellations).where(eq(quoteCancellations.jobId, jobId)).get();
}

/** A job's early start asked for or requested, if any (jobs/early-start.ts). */
export function earlyStartOf(db: Db, jobId: number): EarlyStartRow | undefined {
  return db.select().from(earlyStartRequests).where(eq(earlyStartRequests.jobId, jobId)).get();
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
  // The link sent with the quote, the reminder's own link, or the early start's ask's, all to the same version.
  const found = db
    .select({ version: quoteVersions, job: jobs })
    .from(quoteVersions)
    .innerJoin(jobs, eq(jobs.id, quoteVersions.jobId))
    .where(or(eq(quoteVersions.tokenHash, hash), eq(quoteVersions.reminderTokenHash, hash), eq(quoteVersions.earlyStartTokenHash, hash)))
    .get();
  const stored = [found?.version.tokenHash, found?.version.reminderTokenHash, found?.version.earlyStartTokenHash].find((h) => h === hash);
  if (!found || !stored || !hashesMatch(stored, hash)) throw new DomainError('NOT_FOUND', QUOTE_LINK_MESSAGES.unknown);
  const { version, job } = found;
  if (version.revokedAt) throw gone(QUOTE_LINK_MESSAGES.revoked);
  if (version.replacedAt) throw gone(QUOTE_LINK_MESSAGES.replaced);
  const answer = finalAnswer(db, version.id);
  if (!answer && version.expiresAt.getTime() < clock.now().getTime()) throw gone(QUOTE_LINK_MESSAGES.expired);
  const accepted = answer?.kind === 'accepted';
  return { version, job, answer, cancellation: accepted ? cancellationOf(db, job.id) : undefined, earlyStart: accepted ? earlyStartOf(db, job.id) : undefined };
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
        // The copy as the customer's link serves it now: what they were shown when they answered.
        contentHash: contentHash(opened.version.content),
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

/** The last UK day of the 14 days from an acceptance at `at` (regulation 30). */
export const lastDayToCancel = (at: Date): string => cancellationLastDay(ukToday(at));

/** The last UK day a consumer who accepted at `at` may cancel; null for a trade quote. */
export function cancellableUntil(content: Pick<QuoteContent, 'consumer'>, at: Date): string | null {
  return content.consumer ? lastDayToCancel(at) : null;
}

/** What the customer's link shows of a version: the copy, and what is known of its answer. */
export interface PublicQuoteSource {
  version: Pick<QuoteVersionRow, 'content'>;
  answer?: QuoteAnswerRow | undefined;
  cancellation?: QuoteCancellationRow | undefined;
  earlyStart?: EarlyStartRow | undefined;
  /** The job's status now (a done job can no longer be cancelled) and the time, for `canCancel`. */
  jobStatus?: JobStatus;
  now?: Date;
}

/**
 * What the customer's link shows: their copy as sent, and their answer once given. Everything that
 * changes after sending is inside `answer`, so the copy without it stays what the customer was
 * shown (its fingerprint, contentHash above).
 */
export function toPublicQuote(opened: PublicQuoteSource): PublicQuote {
  const { content } = opened.version;
  const answer = opened.answer;
  const chosen = answer?.optionalItemIds ?? [];
  const accepted = answer?.kind === 'accepted';
  const lastDay = accepted ? cancellableUntil(content, answer.createdAt) : null;
  const cancellation = accepted ? opened.cancellation : undefined;
  const canCancel = lastDay !== null && !cancellation && opened.jobStatus !== 'done' && opened.now !== undefined && ukToday(opened.now) <= lastDay;
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
    ...(content.deposit ? { deposit: depositAskText(content.deposit) } : {}),
    ...(content.protectionNotice ? { protectionNotice: content.protectionNotice } : {}),
    answer: answer
      ? {
          kind: answer.kind,
          at: answer.createdAt.toISOString(),
          name: answer.name,
          optionalItemIds: chosen,
          startEarly: answer.startEarly === true,
          totals: answer.kind === 'accepted' ? money(contentTotals(content, chosen)) : null,
          contentHash: accepted ? answer.contentHash : null,
          cancellableUntil: lastDay,
          canCancel,
          cancellation: cancellation ? { at: cancellation.createdAt.toISOString(), via: cancellation.via, name: cancellation.name } : null,
          earlyStart: accepted && opened.earlyStart ? { askedAt: opened.earlyStart.askedAt.toISOString(), requestedAt: opened.earlyStart.requestedAt?.toISOString() ?? null, name: opened.earlyStart.name } : null,
        }
      : null,
  };
}

/** The reference a version is sent under, e.g. Q-000012 (v2). */
export function versionReference(jobId: number, version: number): string {
  return version > 1 ? `${jobReference(jobId)} (v${version})` : jobReference(jobId);
}


/**
 * Quotes whose validity has passed without an answer read "expired" (run at start and hourly,
 * with the reminders): the job's current version (not replaced or withdrawn) is past its date and
 * has no acceptance or refusal. The customer's link already says so (410); the job can be sent
 * again as a new version. Returns how many jobs changed.
 */
export function expireQuotes(db: Db, now: Date): number {
  // Found and changed in one transaction, so a job sent again meanwhile is not caught.
  return immediate(db, (tx) => {
    const open = tx
    .select({ jobId: quoteVersions.jobId })
    .from(quoteVersions)
    .innerJoin(jobs, eq(jobs.id, quoteVersions.jobId))
    .where(
      and(
        inArray(jobs.status, [...AWAITING_ANSWER_STATUSES]),
        isNull(quoteVersions.replacedAt),
        isNull(quoteVersions.revokedAt),
        lt(quoteVersions.expiresAt, now),
        sql`not exists (select 1 from ${quoteAnswers} where ${quoteAnswers.versionId} = ${quoteVersions.id} and ${quoteAnswers.kind} != 'changes_requested')`,
      ),
    )
    .all()
    .map((row) => row.jobId);
    if (open.length === 0) return 0;
    return tx.update(jobs).set({ status: 'expired', updatedAt: now }).where(inArray(jobs.id, open)).run().changes;
  });
}
