import { DomainError } from '../../core/errors';
import type { PublicQuote } from '../../core/quote-versions';
import { findUserById } from '../accounts/users';
import type { AppDeps } from '../deps';
import { backgroundMail } from '../mail/background';
import { acceptanceEmail, ownerQuoteNewsEmail, quoteLinkEmail, type OwnerNews } from '../mail/quote-emails';
import type { JobRow } from './jobs';
import { answerQuote, contentTotals, markViewed, openQuote, sendQuote, toPublicQuote, type AnswerInput, type OpenedQuote } from './quote-links';

/**
 * A quote's way from the surgeon to the customer and back (docs/product.md, Jobs and quotes): the
 * steps of quote-links.ts with the e-mails that go with them, each sent in the background so an
 * answer never waits on the mail server (a refused send is retried, then logged).
 */
type FlowDeps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config'>;

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
  backgroundMail(deps.mailer).send(quoteLinkEmail(content, quoteLink(deps.config.publicUrl, sent.token), contentTotals(content, [])), `quote ${content.reference} v${content.version}`);
  return sent.job;
}

function tellOwner(deps: FlowDeps, opened: OpenedQuote, news: OwnerNews, extra: { message?: string | null; acceptance?: Parameters<typeof ownerQuoteNewsEmail>[0]['acceptance'] } = {}): void {
  const owner = findUserById(deps.db, opened.job.userId);
  if (!owner) return;
  const message = ownerQuoteNewsEmail({
    to: owner.email,
    ownerName: owner.firstName,
    content: opened.version.content,
    news,
    jobLink: `${deps.config.publicUrl.replace(/\/$/, '')}/jobs/${opened.job.id}`,
    ...extra,
  });
  backgroundMail(deps.mailer).send(message, `quote ${opened.version.content.reference} ${news}`);
}

/** The customer opens their link: their copy; the owner hears of the first view. */
export function viewQuote(deps: FlowDeps, token: string): PublicQuote {
  const opened = openQuote(deps.db, deps.clock, token);
  if (!opened.answer && markViewed(deps.db, deps.clock, opened)) tellOwner(deps, opened, 'viewed');
  return toPublicQuote(opened);
}

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
    tellOwner(deps, opened, 'accepted', { acceptance: { name: answer.name ?? '', totals, startEarly: answer.startEarly === true } });
    if (content.customer.email) {
      const mail = acceptanceEmail({ content, name: answer.name ?? '', at: answer.createdAt, chosen, totals, startEarly: answer.startEarly === true, link: quoteLink(deps.config.publicUrl, token) });
      backgroundMail(deps.mailer).send(mail, `quote ${content.reference} acceptance`);
    }
  } else {
    tellOwner(deps, opened, answer.kind, { message: answer.message });
  }
  return toPublicQuote({ version: opened.version, answer: answer.kind === 'changes_requested' ? undefined : answer });
}
