import { and, eq, inArray } from 'drizzle-orm';
import type { Analysis } from '../../core/analysis';
import type { Job } from '../../core/jobs';
import { penceToDecimal } from '../../core/money';
import { cancellationNotice, modelCancellationForm, modelFormFactsOf } from '../../core/consumer-rights';
import { formatQuoteDate, quoteValidUntil, type ReportCopy } from '../../core/quote';
import { depositWords } from '../../core/card-payments';
import { fingerprintCheck } from '../../core/quote-copy';
import { quoteTotals } from '../../core/quote-totals';
import type { QuoteContent } from '../../core/quote-versions';
import type { Db } from '../../db/client';
import { businesses, treeAnalyses } from '../../db/schema';
import { readImage, toAnalysisView } from '../analysis/store';
import { quoteCompanyFor } from '../settings/quote-company';
import type { PhotoStore } from '../storage/photo-store';
import { getSettings } from '../settings/settings';
import { buildJobQuotePdf, type JobQuoteInput } from './job-quote';

/**
 * Everything a job's quote PDF prints besides the job, gathered for one account: its company
 * profile and terms, the business a website lead's job came through, and each tree's photo and
 * analysis (only the account's own: a tree whose analysis is gone prints without them).
 *
 * A job not yet accepted is issued `now` ("Valid until" counts from it). An accepted job is
 * locked, so its items are the version the customer accepted: the PDF is that version, dated
 * when it was sent, with the optional items chosen and who accepted when.
 *
 * The customer's PDF of a sent version (versionQuotePdf) is made from that version's frozen
 * content instead: what was sent, not what the job says now.
 */
export interface JobQuoteRequest {
  userId: number;
  job: Job;
  copy: ReportCopy;
  now: Date;
}

function issueOf(job: Job, now: Date): Pick<JobQuoteInput, 'issuedAt' | 'chosenOptionalIds' | 'acceptance'> {
  const { acceptance } = job;
  if (!acceptance) return { issuedAt: now };
  const accepted = job.versions.find((version) => version.version === acceptance.version);
  return {
    issuedAt: accepted ? new Date(accepted.sentAt) : now,
    chosenOptionalIds: acceptance.optionalItemIds,
    acceptance: { name: acceptance.name, at: new Date(acceptance.at), startEarly: acceptance.startEarly },
  };
}

/** The account's own trees among `items`: each one's stored photo and analysis, by analysis id. */
async function treesOf(db: Db, store: PhotoStore, userId: number, items: readonly { analysisId: number | null }[]) {
  const ids = [...new Set(items.map((item) => item.analysisId).filter((id): id is number => id !== null))];
  const rows = ids.length > 0 ? db.select().from(treeAnalyses).where(and(eq(treeAnalyses.userId, userId), inArray(treeAnalyses.id, ids))).all() : [];
  const photos = new Map<number, Buffer | null>(await Promise.all(rows.map(async (row) => [row.id, row.imagePath ? await readImage(store, row.imagePath) : null] as const)));
  const analyses = new Map<number, Analysis>(rows.map((row) => [row.id, toAnalysisView(row)]));
  return { photos, analyses };
}

export async function jobQuotePdf(db: Db, store: PhotoStore, request: JobQuoteRequest): Promise<Buffer> {
  const { userId, job } = request;
  const company = await quoteCompanyFor(db, store, userId);
  const { photos, analyses } = await treesOf(db, store, userId, job.items);
  const business =
    job.businessId === null
      ? undefined
      : db
          .select({ name: businesses.name, accent: businesses.accentColor })
          .from(businesses)
          .where(and(eq(businesses.id, job.businessId), eq(businesses.ownerId, userId)))
          .get();
  const issue = issueOf(job, request.now);
  return buildJobQuotePdf({
    job,
    company,
    terms: getSettings(db, userId).quoteTerms,
    ...issue,
    validUntil: quoteValidUntil(issue.issuedAt, company.quoteValidityDays),
    photos,
    copy: request.copy,
    analyses,
    business: business ?? null,
  });
}

/** The cancellation notice and the model form, filled in with the accepted quote's facts. */
function consumerRightsOf(content: QuoteContent, acceptance: { name: string; at: Date; optionalItemIds: readonly number[] }) {
  const { business } = content;
  const trader = { name: business.name || 'Your tree surgeon', address: business.address, phone: business.phone, email: business.email };
  const facts = modelFormFactsOf(content, { chosen: acceptance.optionalItemIds, on: formatQuoteDate(acceptance.at), name: acceptance.name });
  return { notice: cancellationNotice(trader), form: modelCancellationForm(trader, facts) };
}

/** A sent version, for the customer: whose it is, what was sent, and their acceptance if they gave it. */
export interface VersionQuoteRequest {
  userId: number;
  /** The business the job came through, if any: the profile's trading name is then printed as "A trading name of". */
  businessId: number | null;
  content: QuoteContent;
  acceptance?: {
    name: string;
    at: Date;
    optionalItemIds: readonly number[];
    startEarly: boolean;
    /** The accepted copy's fingerprint, printed with the sentence on how to check it against `apiUrl`. */
    contentHash?: string;
    apiUrl?: string;
  } | null;
}

/**
 * The deposit as the copy states it (core/card-payments.ts depositWords): on an accepted copy,
 * worked out on the total accepted (`chosen`: the optional items taken); on a copy as sent, on the
 * included items, saying when optional items would change it.
 */
function depositOfCopy(content: QuoteContent, chosen: readonly number[] | null): string[] {
  const total = (ids: readonly number[]) => quoteTotals(content.items, new Set(ids), content.vatMode, content.vatRatePercent).grossPence;
  if (chosen) return depositWords(content.deposit, { grossPence: total(chosen) }, 'accepted', content.business.name);
  const everyOptional = content.items.filter((item) => item.optional).map((item) => item.id);
  return depositWords(content.deposit, { grossPence: total([]), withOptionalPence: total(everyOptional) }, 'offered', content.business.name);
}

/**
 * The customer's copy of a version as it was sent (the PDF attached to the quote's e-mails and
 * served by its link): the business, customer, items, prices, VAT, dates and terms all come from
 * the frozen content. Only what the content does not hold is read now: the account's logo, the
 * trees' photos (the account's own analyses, as the page shows them) and, for a website lead's
 * job, the profile's trading name. An acceptance prints who accepted when, the optional items
 * chosen and the total with them.
 */
export async function versionQuotePdf(db: Db, store: PhotoStore, request: VersionQuoteRequest): Promise<Buffer> {
  const { content, acceptance } = request;
  const profile = await quoteCompanyFor(db, store, request.userId);
  const { photos } = await treesOf(db, store, request.userId, content.items);
  const { business } = content;
  return buildJobQuotePdf({
    job: {
      reference: content.reference,
      customer: content.customer,
      vatMode: content.vatMode,
      items: content.items.map((item) => ({ ...item, price: penceToDecimal(item.pricePence) })),
    },
    company: {
      ...profile,
      tradingName: request.businessId === null ? business.name : profile.tradingName,
      phone: business.phone,
      email: business.email,
      address: business.address,
      vatNumber: business.vatNumber,
    },
    business: { name: business.name, accent: business.accentColor },
    terms: content.terms,
    protectionNotice: content.protectionNotice ?? null,
    deposit: depositOfCopy(content, acceptance?.optionalItemIds ?? null),
    issuedAt: new Date(content.issuedAt),
    validUntil: new Date(content.validUntil),
    chosenOptionalIds: acceptance?.optionalItemIds,
    acceptance: acceptance
      ? {
          name: acceptance.name,
          at: acceptance.at,
          startEarly: acceptance.startEarly,
          fingerprint: acceptance.contentHash ? { hash: acceptance.contentHash, check: fingerprintCheck(acceptance.apiUrl ?? 'the API address of your quote link (/api/quotes/ followed by the link\'s code)') } : undefined,
        }
      : null,
    rights: acceptance && content.consumer ? consumerRightsOf(content, acceptance) : null,
    photos,
    copy: 'customer',
  });
}
