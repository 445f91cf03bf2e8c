import { and, eq, inArray } from 'drizzle-orm';
import type { Analysis } from '../../core/analysis';
import type { Job } from '../../core/jobs';
import { quoteValidUntil, type ReportCopy } from '../../core/quote';
import type { Db } from '../../db/client';
import { businesses, treeAnalyses } from '../../db/schema';
import { readImage, toAnalysisView } from '../analysis/store';
import { quoteCompanyFor } from '../settings/quote-company';
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
    acceptance: { name: acceptance.name, at: new Date(acceptance.at) },
  };
}

export async function jobQuotePdf(db: Db, dataDir: string, request: JobQuoteRequest): Promise<Buffer> {
  const { userId, job } = request;
  const company = await quoteCompanyFor(db, dataDir, userId);
  const ids = [...new Set(job.items.map((item) => item.analysisId).filter((id): id is number => id !== null))];
  const rows = ids.length > 0 ? db.select().from(treeAnalyses).where(and(eq(treeAnalyses.userId, userId), inArray(treeAnalyses.id, ids))).all() : [];
  const photos = new Map<number, Buffer | null>(await Promise.all(rows.map(async (row) => [row.id, row.imagePath ? await readImage(dataDir, row.imagePath) : null] as const)));
  const analyses = new Map<number, Analysis>(rows.map((row) => [row.id, toAnalysisView(row)]));
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
