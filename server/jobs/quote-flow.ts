import { formatBookingDate, ukToday } from '../../core/job-booking';
import { cancellationConfirmationEmail, cancellationOwnerEmail } from '../mail/cancellation-emails';
import { cancelOnline, recordCancellation, type Cancelled, type RecordedCancellation } from './cancellation';
import type { PublicQuote, QuoteContent } from '../../core/quote-versions';
import { findUserById } from '../accounts/users';
import type { AppDeps } from '../deps';
import { describeError } from '../log';
import { immediate } from '../../db/client';
import { queueMail } from '../mail/outbox';
import type { MailMessage } from '../mail/mailer';
import { acceptanceEmail, ownerQuoteNewsEmail, quoteLinkEmail, type OwnerNews } from '../mail/quote-emails';
import { versionQuotePdf } from '../quotes/job-quote-source';
import type { JobRow } from './jobs';
import { answerQuote, cancellableUntil, contentTotals, markViewed, openQuote, sendQuote, toPublicQuote, type AnswerInput, type OpenedQuote, type QuoteAnswerRow, type QuoteVersionRow } from './quote-links';

/**
 * A quote's way from the surgeon to the customer and back (docs/product.md, Jobs and quotes): the
 * steps of quote-links.ts with the e-mails that go with them, each written to the outbox in the
 * step's transaction (server/mail/outbox.ts), so an answer never waits on the mail server and no
 * e-mail is lost to a restart.
 *
 * The quote's e-mails to the customer (the link, the reminder, the acceptance) and the owner's
 * news of an acceptance carry the version's PDF as the customer has it (customerQuotePdf). It is
 * rendered in the background too, after the answer has gone out: a job of three trees took 0.3 to
 * 0.6 s to render (1 s the first time, loading pdfkit and the font) on a shared two-core box,
 * while the send answered in 15 to 35 ms, and the answer says nothing of the PDF. A PDF that
 * cannot be made is logged, and its e-mail goes without it: the link still opens the quote.
 */
type FlowDeps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config' | 'logger' | 'photos'>;

/** The customer's page for a quote link. */
export function quoteLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/quote/${token}`;
}

/** The app's page on how to check a quote's fingerprint (quote-page/fingerprint-help.ts), linked from the acceptance e-mail. */
export const FINGERPRINT_HELP_PATH = '/help/quote-fingerprint';
export const fingerprintHelpLink = (publicUrl: string): string => `${publicUrl.replace(/\/$/, '')}${FINGERPRINT_HELP_PATH}`;

/** The API address of a quote link's copy, against which its fingerprint is checked. */
export function quoteApiLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/api/quotes/${token}`;
}

/**
 * Who a message to the customer is from: the business by name (the install's address still sends
 * it, server/mail/sender.ts), replies going to the company profile's e-mail as sent with the
 * quote, else the account's own. The customer's Reply then reaches a person.
 */
export function fromBusiness(deps: Pick<AppDeps, 'db'>, userId: number, business: { name: string; email: string }, message: MailMessage): MailMessage {
  const replyTo = business.email || findUserById(deps.db, userId)?.email || undefined;
  return { ...message, from: business.name || 'Your tree surgeon', ...(replyTo ? { replyTo } : {}) };
}

/**
 * Sends the job to its customer (or `email`): a new version, its link by e-mail. The job is read
 * again and its lock checked inside the send's transaction (quote-links.ts sendQuote).
 */
export function sendJobQuote(deps: FlowDeps, job: Pick<JobRow, 'id' | 'userId'>, email: string | undefined, takesCards = false, by: number | null = null): JobRow {
  return immediate(deps.db, () => {
    const sent = sendQuote(deps.db, deps.clock, job, email, takesCards, by);
    const content = sent.version.content;
    const everyOptional = content.items.filter((item) => item.optional).map((item) => item.id);
    const mail = fromBusiness(deps, job.userId, content.business, quoteLinkEmail(content, quoteLink(deps.config.publicUrl, sent.token), contentTotals(content, []), contentTotals(content, everyOptional)));
    sendWithPdf(deps, mail, content, () => customerQuotePdf(deps, sent), `quote ${content.reference} v${content.version}`, job.userId);
    return sent.job;
  });
}

/** The file name of a quote's PDF, e.g. quote-Q-000012.pdf. */
export const quotePdfFilename = (content: Pick<QuoteContent, 'reference'>) => `quote-${content.reference}.pdf`;

/** A version of a job, and the customer's final answer to it if any. */
export interface QuoteOfJob {
  job: Pick<JobRow, 'userId' | 'businessId'>;
  version: Pick<QuoteVersionRow, 'content'>;
  answer?: QuoteAnswerRow | undefined;
  /** The link's API address, when known, for the fingerprint's check sentence. */
  apiUrl?: string;
}

/** The customer's PDF of a version, as sent (quotes/job-quote-source.ts), with their acceptance once given. */
export function customerQuotePdf(deps: Pick<AppDeps, 'db' | 'photos'>, quote: QuoteOfJob): Promise<Buffer> {
  const accepted = quote.answer?.kind === 'accepted' ? quote.answer : undefined;
  return versionQuotePdf(deps.db, deps.photos, {
    userId: quote.job.userId,
    businessId: quote.job.businessId,
    content: quote.version.content,
    acceptance: accepted
      ? {
          name: accepted.name ?? '',
          at: accepted.createdAt,
          optionalItemIds: accepted.optionalItemIds ?? [],
          startEarly: accepted.startEarly === true,
          contentHash: accepted.contentHash,
          apiUrl: quote.apiUrl,
        }
      : null,
  });
}

/**
 * Writes `message` to the outbox (in the caller's transaction, if any) with the quote's PDF
 * attached; made by `pdf` after the answer, the e-mail going without it if that fails.
 */
export function sendWithPdf(deps: Pick<FlowDeps, 'db' | 'clock' | 'config' | 'logger'>, message: MailMessage, content: QuoteContent, pdf: () => Promise<Buffer>, label: string, userId: number | null): void {
  queueMail(deps, message, {
    label,
    userId,
    attach: async () => {
      try {
        return [{ filename: quotePdfFilename(content), content: await pdf(), contentType: 'application/pdf' }];
      } catch (err) {
        deps.logger.error({ mail: label, error: describeError(err) }, 'quote PDF not made: the e-mail goes without it');
        return [];
      }
    },
  });
}

/** A message to the owner about their customer: a reply goes to the customer (the address the quote was sent to). */
export function toOwnerAbout(content: Pick<QuoteContent, 'customer'>, message: MailMessage): MailMessage {
  return content.customer.email ? { ...message, replyTo: content.customer.email } : message;
}

/** Tells the owner the news; with `pdf`, the accepted quote's PDF goes with it. */
function tellOwner(
  deps: FlowDeps,
  opened: OpenedQuote,
  news: OwnerNews,
  extra: { message?: string | null; acceptance?: Parameters<typeof ownerQuoteNewsEmail>[0]['acceptance'] } = {},
  pdf?: () => Promise<Buffer>,
): void {
  const owner = findUserById(deps.db, opened.job.userId);
  if (!owner) return;
  const content = opened.version.content;
  const message = toOwnerAbout(content, ownerQuoteNewsEmail({
    to: owner.email,
    ownerName: owner.firstName,
    content,
    news,
    jobLink: `${deps.config.publicUrl.replace(/\/$/, '')}/jobs/${opened.job.id}`,
    ...extra,
  }));
  const label = `quote ${content.reference} ${news}`;
  if (pdf) sendWithPdf(deps, message, content, pdf, label, opened.job.userId);
  else queueMail(deps, message, { label, userId: opened.job.userId });
}

/**
 * The customer opens their link: their copy, and the account it is from; the owner hears of the
 * first view. `countsAsView` false (a mail scanner fetching the page, quote-page/opened-by-person.ts)
 * shows the copy and records nothing.
 */
export function viewQuoteFrom(deps: FlowDeps, token: string, countsAsView = true): { quote: PublicQuote; userId: number } {
  const opened = openQuote(deps.db, deps.clock, token);
  if (countsAsView && !opened.answer) immediate(deps.db, () => markViewed(deps.db, deps.clock, opened) && tellOwner(deps, opened, 'viewed'));
  return { quote: publicQuoteOf(deps, opened), userId: opened.job.userId };
}

/** The customer's copy of an opened link now: whether it can still be cancelled depends on the day and the job. */
export function publicQuoteOf(deps: Pick<AppDeps, 'clock'>, opened: OpenedQuote): PublicQuote {
  return toPublicQuote({ ...opened, jobStatus: opened.job.status, now: deps.clock.now() });
}

/** The customer's copy as their link opens it (viewQuoteFrom). */
export const viewQuote = (deps: FlowDeps, token: string): PublicQuote => viewQuoteFrom(deps, token).quote;

/** What the customer answered, with where from (quote-links.ts AnswerInput). */
export type CustomerAnswer = AnswerInput;

/**
 * The customer's answer: recorded with its evidence (quote-links.ts answerQuote), the owner told,
 * and an acceptance confirmed to the customer with their rights as a consumer.
 */
export function answerQuoteAs(deps: FlowDeps, token: string, input: CustomerAnswer): PublicQuote {
  return immediate(deps.db, () => answerAndTell(deps, token, input));
}

function answerAndTell(deps: FlowDeps, token: string, input: CustomerAnswer): PublicQuote {
  const { opened, answer } = answerQuote(deps.db, deps.clock, token, input);
  const content = opened.version.content;
  if (answer.kind === 'accepted') {
    const chosen = answer.optionalItemIds ?? [];
    const totals = contentTotals(content, chosen);
    // One PDF of the accepted quote, made once for both e-mails.
    let accepted: Promise<Buffer> | undefined;
    const pdf = () => (accepted ??= customerQuotePdf(deps, { job: opened.job, version: opened.version, answer, apiUrl: quoteApiLink(deps.config.publicUrl, token) }));
    tellOwner(deps, opened, 'accepted', { acceptance: { name: answer.name ?? '', totals, startEarly: answer.startEarly === true } }, pdf);
    if (content.customer.email) {
      const lastDay = cancellableUntil(content, answer.createdAt);
      const mail = acceptanceEmail({
        content,
        name: answer.name ?? '',
        at: answer.createdAt,
        chosen,
        totals,
        startEarly: answer.startEarly === true,
        link: quoteLink(deps.config.publicUrl, token),
        fingerprint: { hash: answer.contentHash, helpUrl: fingerprintHelpLink(deps.config.publicUrl) },
        cancelUntil: lastDay ? formatBookingDate(lastDay, 'long') : null,
      });
      sendWithPdf(deps, fromBusiness(deps, opened.job.userId, content.business, mail), content, pdf, `quote ${content.reference} acceptance`, opened.job.userId);
    }
  } else {
    tellOwner(deps, opened, answer.kind, { message: answer.message });
  }
  return publicQuoteOf(deps, { ...opened, answer: answer.kind === 'changes_requested' ? undefined : answer });
}

/** E-mails both sides about a cancellation: the customer from the business, the owner with the refund duty. */
function tellCancellation(deps: FlowDeps, cancelled: Cancelled, link: string | null): void {
  const { job, version, answer, cancellation } = cancelled;
  const content = version.content;
  const facts = {
    via: cancellation.via,
    receivedOn: cancellation.receivedOn,
    name: cancellation.name,
    note: cancellation.note,
    withinPeriod: cancellation.withinPeriod,
    contentHash: cancellation.contentHash,
  };
  const label = `quote ${content.reference} cancelled`;
  const to = job.customerEmail ?? content.customer.email;
  if (to) {
    const mail = cancellationConfirmationEmail({ content, cancellation: facts, acceptedOn: ukToday(answer.createdAt), link: link ?? `${deps.config.publicUrl.replace(/\/$/, '')}/` });
    queueMail(deps, fromBusiness(deps, job.userId, content.business, { ...mail, to }), { label: `${label} (customer)`, userId: job.userId });
  }
  const owner = findUserById(deps.db, job.userId);
  if (owner) {
    const mail = cancellationOwnerEmail({ to: owner.email, ownerName: owner.firstName, content, cancellation: facts, jobLink: `${deps.config.publicUrl.replace(/\/$/, '')}/jobs/${job.id}` });
    queueMail(deps, toOwnerAbout({ customer: { ...content.customer, email: to } }, mail), { label: `${label} (owner)`, userId: job.userId });
  }
}

/** The customer cancels online from their link (cancellation.ts cancelOnline); both sides are e-mailed. */
export function cancelQuoteAs(deps: FlowDeps, token: string, input: { name: string; address: string; userAgent: string | null }): PublicQuote {
  const cancelled = immediate(deps.db, () => {
    const done = cancelOnline(deps.db, deps.clock, token, input);
    tellCancellation(deps, done, quoteLink(deps.config.publicUrl, token));
    return done;
  });
  return publicQuoteOf(deps, cancelled.opened);
}

/** The surgeon records a cancellation the customer sent another way; both sides are e-mailed. `by`: the person recording it. */
export function recordJobCancellation(deps: FlowDeps, job: Pick<JobRow, 'id' | 'userId'>, input: RecordedCancellation, by: number | null = null): JobRow {
  return immediate(deps.db, () => {
    const cancelled = recordCancellation(deps.db, deps.clock, job, by, input);
    tellCancellation(deps, cancelled, null);
    return cancelled.job;
  });
}
