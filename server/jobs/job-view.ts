import { desc, eq, inArray } from 'drizzle-orm';
import { siteVisitOf } from '../../core/job-booking';
import { jobReference, type Job } from '../../core/jobs';
import { penceToDecimal } from '../../core/money';
import { quoteTotals, type QuoteTotals } from '../../core/quote-totals';
import type { Db } from '../../db/client';
import { quoteAnswers, quoteVersions, treeAnalyses } from '../../db/schema';
import { toAnalysisView } from '../analysis/store';
import { itemsOf, type JobRow } from './jobs';
import type { QuoteAnswerRow, QuoteVersionRow } from './quote-links';

const money = (totals: QuoteTotals) => ({
  net: penceToDecimal(totals.netPence),
  vat: penceToDecimal(totals.vatPence),
  gross: penceToDecimal(totals.grossPence),
});

type VersionWithAnswers = { version: QuoteVersionRow; answers: QuoteAnswerRow[] };

/**
 * The jobs' versions sent, newest first, each with its answers, newest first: two queries for
 * any number of jobs (a list of jobs must not cost a query per job).
 */
function versionsByJob(db: Db, jobIds: readonly number[]): Map<number, VersionWithAnswers[]> {
  const byJob = new Map<number, VersionWithAnswers[]>();
  if (jobIds.length === 0) return byJob;
  const ids = [...jobIds];
  const versions = db.select().from(quoteVersions).where(inArray(quoteVersions.jobId, ids)).orderBy(desc(quoteVersions.version)).all();
  const answers = db
    .select({ answer: quoteAnswers })
    .from(quoteAnswers)
    .innerJoin(quoteVersions, eq(quoteVersions.id, quoteAnswers.versionId))
    .where(inArray(quoteVersions.jobId, ids))
    .orderBy(desc(quoteAnswers.id))
    .all();
  const answersByVersion = new Map<number, QuoteAnswerRow[]>();
  for (const { answer } of answers) {
    const list = answersByVersion.get(answer.versionId);
    if (list) list.push(answer);
    else answersByVersion.set(answer.versionId, [answer]);
  }
  for (const version of versions) {
    const entry = { version, answers: answersByVersion.get(version.id) ?? [] };
    const list = byJob.get(version.jobId);
    if (list) list.push(entry);
    else byJob.set(version.jobId, [entry]);
  }
  return byJob;
}

/**
 * Jobs as the API answers them (core/jobs.ts Job): items with the trees' estimates beside the
 * prices, the versions sent and their answers, and the totals of the included items plus the
 * optional ones the customer chose on acceptance (none before).
 */
export function toJobViews(db: Db, rows: readonly JobRow[]): Job[] {
  const items = itemsOf(
    db,
    rows.map((row) => row.id),
  );
  const analysisIds = [...new Set(items.map((item) => item.analysisId).filter((id): id is number => id !== null))];
  const analyses = new Map(
    (analysisIds.length > 0 ? db.select().from(treeAnalyses).where(inArray(treeAnalyses.id, analysisIds)).all() : []).map((row) => [row.id, toAnalysisView(row)]),
  );
  const versionsOfJob = versionsByJob(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const own = items.filter((item) => item.jobId === row.id);
    const priced = own.map((item) => ({ id: item.id, pricePence: item.pricePence, optional: item.optional }));
    const versions = versionsOfJob.get(row.id) ?? [];
    const accepted = versions.flatMap(({ version, answers }) => answers.filter((a) => a.kind === 'accepted').map((answer) => ({ version, answer })))[0];
    const chosen = new Set(accepted?.answer.optionalItemIds ?? []);
    return {
      id: row.id,
      reference: jobReference(row.id),
      status: row.status,
      customer: { name: row.customerName, email: row.customerEmail, phone: row.customerPhone, siteAddress: row.siteAddress },
      businessId: row.businessId,
      leadId: row.leadId,
      vatMode: row.vatMode,
      items: own.map((item) => {
        const analysis = item.analysisId === null ? undefined : analyses.get(item.analysisId);
        return {
          id: item.id,
          kind: item.kind,
          analysisId: item.analysisId,
          description: item.description,
          price: penceToDecimal(item.pricePence),
          optional: item.optional,
          estimate: item.kind === 'tree' ? { species: analysis?.species ?? null, imageUrl: analysis?.imageUrl ?? null, price: analysis?.price ?? null } : null,
        };
      }),
      totals: money(quoteTotals(priced, chosen, row.vatMode)),
      totalsWithOptional: money(quoteTotals(priced, new Set(priced.map((p) => p.id)), row.vatMode)),
      versions: versions.map(({ version, answers }) => ({
        version: version.version,
        sentTo: version.sentTo,
        sentAt: version.sentAt.toISOString(),
        expiresAt: version.expiresAt.toISOString(),
        viewedAt: version.viewedAt?.toISOString() ?? null,
        revokedAt: version.revokedAt?.toISOString() ?? null,
        replacedAt: version.replacedAt?.toISOString() ?? null,
        contentHash: version.contentHash,
        answers: answers.map((a) => ({ kind: a.kind, at: a.createdAt.toISOString(), name: a.name, message: a.message })),
      })),
      acceptance: accepted
        ? {
            version: accepted.version.version,
            name: accepted.answer.name ?? '',
            at: accepted.answer.createdAt.toISOString(),
            optionalItemIds: accepted.answer.optionalItemIds ?? [],
            startEarly: accepted.answer.startEarly === true,
            contentHash: accepted.answer.contentHash,
            address: accepted.answer.address,
            userAgent: accepted.answer.userAgent,
          }
        : null,
      booking:
        row.bookedFor && row.bookedStart && row.bookedAt
          ? {
              date: row.bookedFor,
              startTime: row.bookedStart,
              days: row.bookedDays ?? 1,
              siteVisit: siteVisitOf(row.siteVisitAt),
              note: row.bookingNote,
              bookedAt: row.bookedAt.toISOString(),
            }
          : null,
      doneAt: row.doneAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

export function toJobView(db: Db, row: JobRow): Job {
  return toJobViews(db, [row])[0]!;
}
