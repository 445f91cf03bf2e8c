import { eq } from 'drizzle-orm';
import {
  EARLY_START_MESSAGES,
  EARLY_START_REQUEST_TEXT,
  cancellationPeriodMessage,
  cancellationPeriodOf,
  startsInsideCancellationPeriod,
  type CancellationPeriod,
} from '../../core/cancellation-period';
import { DomainError } from '../../core/errors';
import { ukToday } from '../../core/job-booking';
import type { JobStatus } from '../../core/jobs';
import type { QuoteContent } from '../../core/quote-versions';
import { immediate, type Db } from '../../db/client';
import { earlyStartRequests, quoteVersions } from '../../db/schema';
import { findUserById } from '../accounts/users';
import type { AppDeps } from '../deps';
import { queueMail } from '../mail/outbox';
import { earlyStartAskEmail, earlyStartOwnerEmail, earlyStartRequestEmail } from '../mail/early-start-emails';
import { randomSecret, sha256 } from '../secrets/tokens';
import { rereadOwnJob, type JobRow } from './jobs';
import { fromBusiness, quoteLink, toOwnerAbout } from './quote-flow';
import { acceptedOf, cancellationOf, earlyStartOf, openQuote, type EarlyStartRow, type QuoteAnswerRow, type QuoteVersionRow } from './quote-links';

/**
 * The cancellation period and early starts (docs/product.md, Jobs and quotes; core/cancellation-period.ts).
 * A booking inside a consumer's 14 days after acceptance is refused (409 CANCELLATION_PERIOD)
 * unless they asked for an early start: by the tick when accepting, or from their quote page once
 * the surgeon asks them (askEarlyStart e-mails them a link to it). Their request is kept as
 * evidence (the name typed, the words, when, the address and browser) and e-mailed to both sides,
 * which makes it the durable medium regulation 36(2) asks of an off-premises contract.
 */
type EarlyStartDeps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>;

/** Only a live agreement (accepted or booked, not cancelled) has a period to start inside. */
const LIVE: ReadonlySet<JobStatus> = new Set(['accepted', 'booked']);

interface Agreement {
  version: QuoteVersionRow;
  answer: QuoteAnswerRow;
  period: CancellationPeriod;
  earlyStart: EarlyStartRow | undefined;
}

/** When the customer asked for an early start: at acceptance, or later from their page; null if not. */
function requestedAt(answer: QuoteAnswerRow, earlyStart: EarlyStartRow | undefined): Date | null {
  if (answer.startEarly === true) return answer.createdAt;
  return earlyStart?.requestedAt ?? null;
}

/**
 * The live consumer agreement whose period is still running on `today`, or the sentence that says
 * why there is nothing to start early: 409 for a job not accepted, done or cancelled, a trade quote,
 * a period already over, or a request already made.
 */
function runningAgreement(
  job: Pick<JobRow, 'status'>,
  accepted: { version: QuoteVersionRow; answer: QuoteAnswerRow } | undefined,
  cancelled: boolean,
  earlyStart: EarlyStartRow | undefined,
  today: string,
): Agreement {
  if (!accepted || cancelled || !LIVE.has(job.status)) throw new DomainError('CONFLICT', EARLY_START_MESSAGES.notAccepted);
  if (!accepted.version.content.consumer) throw new DomainError('CONFLICT', EARLY_START_MESSAGES.notConsumer);
  const period = cancellationPeriodOf(accepted.answer.createdAt);
  if (today > period.lastDay) throw new DomainError('CONFLICT', EARLY_START_MESSAGES.periodOver(period));
  const requested = requestedAt(accepted.answer, earlyStart);
  if (requested) throw new DomainError('CONFLICT', EARLY_START_MESSAGES.alreadyRequested(ukToday(requested)));
  return { ...accepted, period, earlyStart };
}

/**
 * Refuses work starting on `date` inside the customer's cancellation period when they did not ask
 * for an early start: 409 CANCELLATION_PERIOD with the first day after it. Read in the booking's
 * transaction, so a request that lands meanwhile counts.
 */
export function refuseInsideCancellationPeriod(tx: Db, jobId: number, date: string): void {
  const period = cancellationHold(tx, jobId);
  if (!startsInsideCancellationPeriod(period, false, date)) return;
  throw new DomainError('CANCELLATION_PERIOD', cancellationPeriodMessage(period!), { details: { firstDay: [period!.firstDay] } });
}

/**
 * The cancellation period that holds the job's work back: a consumer's, when they have not asked
 * for an early start (work may begin from its firstDay); null for a trade quote, a job not
 * accepted, or an early start asked for.
 */
export function cancellationHold(tx: Db, jobId: number): CancellationPeriod | null {
  const accepted = acceptedOf(tx, jobId);
  if (!accepted?.version.content.consumer) return null;
  if (requestedAt(accepted.answer, earlyStartOf(tx, jobId)) !== null) return null;
  return cancellationPeriodOf(accepted.answer.createdAt);
}

/** The customer's address for a job's mail: the job's, else the one the accepted quote went to. */
const customerAddress = (job: Pick<JobRow, 'customerEmail'>, content: QuoteContent) => job.customerEmail ?? content.customer.email ?? null;

/**
 * The surgeon asks the customer whether they want the work to start within their 14 days: the
 * ask is kept (when, who) and the customer is e-mailed a new link to their quote page, which then
 * offers the request. Asking again sends a new link (the one before stops working; the quote's
 * own link still opens the page). 409 when there is nothing to ask (runningAgreement); 400
 * without an address.
 */
export function askEarlyStart(deps: EarlyStartDeps, job: Pick<JobRow, 'id' | 'userId'>, askedBy: number): JobRow {
  const now = deps.clock.now();
  const token = randomSecret();
  const asked = immediate(deps.db, (tx) => {
    const current = rereadOwnJob(tx, job);
    const agreement = runningAgreement(current, acceptedOf(tx, job.id), cancellationOf(tx, job.id) !== undefined, earlyStartOf(tx, job.id), ukToday(now));
    const to = customerAddress(current, agreement.version.content);
    if (!to) throw new DomainError('VALIDATION_ERROR', EARLY_START_MESSAGES.noAddress, { details: { email: [EARLY_START_MESSAGES.noAddress] } });
    tx.insert(earlyStartRequests)
      .values({ jobId: job.id, versionId: agreement.version.id, askedAt: now, askedBy })
      .onConflictDoUpdate({ target: earlyStartRequests.jobId, set: { askedAt: now, askedBy, versionId: agreement.version.id } })
      .run();
    tx.update(quoteVersions).set({ earlyStartTokenHash: sha256(token) }).where(eq(quoteVersions.id, agreement.version.id)).run();
    // The ask and its e-mail in one transaction (the outbox, server/mail/outbox.ts).
    const content = agreement.version.content;
    const mail = earlyStartAskEmail({ to, content, period: agreement.period, link: `${quoteLink(deps.config.publicUrl, token)}#early-start` });
    queueMail(deps, fromBusiness(deps, job.userId, content.business, mail), { label: `quote ${content.reference} early start asked`, userId: job.userId });
    return { job: current };
  });
  return asked.job;
}

/** Where the customer's request came from, kept as evidence. */
export interface EarlyStartInput {
  name: string;
  address: string;
  userAgent: string | null;
}

/**
 * The customer asks, from their quote page, for the work to start within their 14 days: only once
 * the business asked them (409 otherwise, and as runningAgreement), kept with the name typed, the
 * words they agreed to, the time, the address and browser; then e-mailed to them and to the owner.
 */
export function requestEarlyStart(deps: EarlyStartDeps, token: string, input: EarlyStartInput): void {
  const now = deps.clock.now();
  immediate(deps.db, (tx) => {
    const opened = openQuote(tx, deps.clock, token);
    const accepted = opened.answer?.kind === 'accepted' ? { version: opened.version, answer: opened.answer } : undefined;
    const agreement = runningAgreement(opened.job, accepted, opened.cancellation !== undefined, opened.earlyStart, ukToday(now));
    if (!agreement.earlyStart) throw new DomainError('CONFLICT', EARLY_START_MESSAGES.notAsked);
    const row = tx
      .update(earlyStartRequests)
      .set({ requestedAt: now, name: input.name, wording: EARLY_START_REQUEST_TEXT, address: input.address, userAgent: input.userAgent?.slice(0, 500) ?? null })
      .where(eq(earlyStartRequests.id, agreement.earlyStart.id))
      .returning()
      .get()!;
    // The request and both e-mails in one transaction (the outbox, server/mail/outbox.ts).
    tellEarlyStartRequested(deps, token, opened.job, agreement.version.content, row);
  });
}

function tellEarlyStartRequested(deps: EarlyStartDeps, token: string, job: JobRow, content: QuoteVersionRow['content'], row: EarlyStartRow): void {
  const label = `quote ${content.reference} early start requested`;
  const to = customerAddress(job, content);
  const evidence = { name: row.name ?? '', at: row.requestedAt!, wording: row.wording ?? EARLY_START_REQUEST_TEXT, address: row.address ?? '', userAgent: row.userAgent };
  if (to) {
    const mail = earlyStartRequestEmail({ to, content, evidence, link: quoteLink(deps.config.publicUrl, token) });
    queueMail(deps, fromBusiness(deps, job.userId, content.business, mail), { label: `${label} (customer)`, userId: job.userId });
  }
  const owner = findUserById(deps.db, job.userId);
  if (owner) {
    const mail = earlyStartOwnerEmail({ to: owner.email, ownerName: owner.firstName, content, evidence, jobLink: `${deps.config.publicUrl.replace(/\/$/, '')}/jobs/${job.id}` });
    queueMail(deps, toOwnerAbout({ customer: { ...content.customer, email: to } }, mail), { label: `${label} (owner)`, userId: job.userId });
  }
}
