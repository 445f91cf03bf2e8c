import { DomainError } from '../../core/errors';
import type { PublicQuote, QuoteContent } from '../../core/quote-versions';
import { findUserById } from '../accounts/users';
import type { AppDeps } from '../deps';
import { describeError } from '../log';
import { backgroundMail } from '../mail/background';
import type { MailMessage } from '../mail/mailer';
import { acceptanceEmail, ownerQuoteNewsEmail, quoteLinkEmail, type OwnerNews } from '../mail/quote-emails';
import { versionQuotePdf } from '../quotes/job-quote-source';
import type { JobRow } from './jobs';
import { answerQuote, contentTotals, markViewed, openQuote, sendQuote, toPublicQuote, type AnswerInput, type OpenedQuote, type QuoteAnswerRow, type QuoteVersionRow } from './quote-links';

/**
 * A quote's way from the surgeon to the customer and back (docs/product.md, Jobs and quotes): the
 * steps of quote-links.ts with the e-mails that go with them, each sent in the background so an
 * answer never waits on the mail server (a refused send is retried, then logged).
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

const NO_ADDRESS = "Add the customer's e-mail address to send the quote.";

/** Sends the job to its customer (or `email`): a new version, its link by e-mail. */
export function sendJobQuote(deps: FlowDeps, job: JobRow, email: string | undefined): JobRow {
  const to = email ?? job.customerEmail;
  if (!to) throw new DomainError('VALIDATION_ERROR', NO_ADDRESS, { details: { email: [NO_ADDRESS] } });
  const sent = sendQuote(deps.db, deps.clock, job, to);
  const content = sent.version.content;
  const mail = quoteLinkEmail(content, quoteLink(deps.config.publicUrl, sent.token), contentTotals(content, []));
  sendWithPdf(deps, mail, content, () => customerQuotePdf(deps, sent), `quote ${content.reference} v${content.version}`);
  return sent.job;
}

/** The file name of a quote's PDF, e.g. quote-Q-000012.pdf. */
export const quotePdfFilename = (content: Pick<QuoteContent, 'reference'>) => `quote-${content.reference}.pdf`;

/** A version of a job, and the customer's final answer to it if any. */
export interface QuoteOfJob {
  job: Pick<JobRow, 'userId' | 'businessId'>;
  version: Pick<QuoteVersionRow, 'content'>;
  answer?: QuoteAnswerRow | undefined;
}

/** The customer's PDF of a version, as sent (quotes/job-quote-source.ts), with their acceptance once given. */
export function customerQuotePdf(deps: Pick<AppDeps, 'db' | 'photos'>, quote: QuoteOfJob): Promise<Buffer> {
  const accepted = quote.answer?.kind === 'accepted' ? quote.answer : undefined;
  return versionQuotePdf(deps.db, deps.photos, {
    userId: quote.job.userId,
    businessId: quote.job.businessId,
    content: quote.version.content,
    acceptance: accepted ? { name: accepted.name ?? '', at: accepted.createdAt, optionalItemIds: accepted.optionalItemIds ?? [], startEarly: accepted.startEarly === true } : null,
  });
}

/** Sends `message` in the background with the quote's PDF attached; made by `pdf` after the answer, without it if that fails. */
export function sendWithPdf(deps: Pick<FlowDeps, 'mailer' | 'logger'>, message: MailMessage, content: QuoteContent, pdf: () => Promise<Buffer>, label: string): void {
  backgroundMail(deps.mailer).send(async () => {
    try {
      return { ...message, attachments: [{ filename: quotePdfFilename(content), content: await pdf(), contentType: 'application/pdf' }] };
    } catch (err) {
      deps.logger.error({ mail: label, error: describeError(err) }, 'quote PDF not made: the e-mail goes without it');
      return message;
    }
  }, label);
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
  const message = ownerQuoteNewsEmail({
    to: owner.email,
    ownerName: owner.firstName,
    content,
    news,
    jobLink: `${deps.config.publicUrl.replace(/\/$/, '')}/jobs/${opened.job.id}`,
    ...extra,
  });
  const label = `quote ${content.reference} ${news}`;
  if (pdf) sendWithPdf(deps, message, content, pdf, label);
  else backgroundMail(deps.mailer).send(message, label);
}

/**
 * The customer opens their link: their copy, and the account it is from; the owner hears of the
 * first view. `countsAsView` false (a mail scanner fetching the page, quote-page/opened-by-person.ts)
 * shows the copy and records nothing.
 */
export function viewQuoteFrom(deps: FlowDeps, token: string, countsAsView = true): { quote: PublicQuote; userId: number } {
  const opened = openQuote(deps.db, deps.clock, token);
  if (countsAsView && !opened.answer && markViewed(deps.db, deps.clock, opened)) tellOwner(deps, opened, 'viewed');
  return { quote: toPublicQuote(opened), userId: opened.job.userId };
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
  const { opened, answer } = answerQuote(deps.db, deps.clock, token, input);
  const content = opened.version.content;
  if (answer.kind === 'accepted') {
    const chosen = answer.optionalItemIds ?? [];
    const totals = contentTotals(content, chosen);
    // One PDF of the accepted quote, made once for both e-mails.
    let accepted: Promise<Buffer> | undefined;
    const pdf = () => (accepted ??= customerQuotePdf(deps, { job: opened.job, version: opened.version, answer }));
    tellOwner(deps, opened, 'accepted', { acceptance: { name: answer.name ?? '', totals, startEarly: answer.startEarly === true } }, pdf);
    if (content.customer.email) {
      const mail = acceptanceEmail({ content, name: answer.name ?? '', at: answer.createdAt, chosen, totals, startEarly: answer.startEarly === true, link: quoteLink(deps.config.publicUrl, token) });
      sendWithPdf(deps, mail, content, pdf, `quote ${content.reference} acceptance`);
    }
  } else {
    tellOwner(deps, opened, answer.kind, { message: answer.message });
  }
  return toPublicQuote({ version: opened.version, answer: answer.kind === 'changes_requested' ? undefined : answer });
}
