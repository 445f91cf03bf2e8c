import { depositAskOf } from '../../core/card-payments';
import { getInvoiceSettings } from '../settings/invoice-settings';
type DepositRule = ReturnType<typeof getInvoiceSettings>['depositRule'];
import { desc, eq, inArray } from 'drizzle-orm';
import { siteVisitOf } from '../../core/job-booking';
import { AWAITING_ANSWER_STATUSES, jobReference, type Job, type JobItemKind, type JobStatus } from '../../core/jobs';
import type { VatMode } from '../../core/price';
import { quoteChanges } from '../../core/quote-changes';
import type { QuoteContent } from '../../core/quote-versions';
import { penceToDecimal } from '../../core/money';
import { quoteTotals, type QuoteTotals } from '../../core/quote-totals';
import type { Db } from '../../db/client';
import { earlyStartRequests, quoteAnswers, quoteCancellations, quoteVersions, treeAnalyses } from '../../db/schema';
import { cancellationPeriodOf } from '../../core/cancellation-period';
import { toAnalysisView } from '../analysis/store';
import { itemsOf, type JobItemRow, type JobRow } from './jobs';
import { cancellableUntil, type EarlyStartRow, type QuoteAnswerRow, type QuoteVersionRow } from './quote-links';
import { namedBy, teamNamesOf, type NameOf } from '../team/names';

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

/** What the job's quote asks as a deposit: as the given version was sent, else as it would be sent now. */
function depositAsked(rule: DepositRule, row: JobRow, version: { content: QuoteContent } | undefined): Job['deposit']['asked'] {
  const ask = version && version.content.deposit !== undefined ? version.content.deposit : version ? rule : depositAskOf(row.depositPercent, rule);
  return ask ? { percent: ask.percent, over: penceToDecimal(ask.overPence) } : null;
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
  const versionsOfJob = versionsByJob(
    db,
    rows.map((row) => row.id),
  );
  const sentItems = [...versionsOfJob.values()].flatMap((list) => list.flatMap(({ version }) => version.content.items));
  const analysisIds = [...new Set([...items, ...sentItems].map((item) => item.analysisId).filter((id): id is number => id !== null))];
  const analyses = new Map(
    (analysisIds.length > 0 ? db.select().from(treeAnalyses).where(inArray(treeAnalyses.id, analysisIds)).all() : []).map((row) => [row.id, toAnalysisView(row)]),
  );
  const cancellations = new Map(
    (rows.length > 0 ? db.select().from(quoteCancellations).where(inArray(quoteCancellations.jobId, rows.map((row) => row.id))).all() : []).map((c) => [c.jobId, c]),
  );
  // Names only in a team that has had more than one person (team/names.ts); one lookup per account.
  const teamNames = new Map<number, NameOf | null>();
  const namesOf = (accountId: number): NameOf | null => {
    if (!teamNames.has(accountId)) teamNames.set(accountId, teamNamesOf(db, accountId));
    return teamNames.get(accountId)!;
  };
  // The deposit rule, read once an account rather than once a job (a list is one account's).
  const depositRules = new Map<number, DepositRule>();
  const depositRuleOf = (accountId: number): DepositRule => {
    if (!depositRules.has(accountId)) depositRules.set(accountId, getInvoiceSettings(db, accountId).depositRule);
    return depositRules.get(accountId)!;
  };
  const earlyStarts = new Map(
    (rows.length > 0 ? db.select().from(earlyStartRequests).where(inArray(earlyStartRequests.jobId, rows.map((row) => row.id))).all() : []).map((e) => [e.jobId, e]),
  );
  return rows.map((row) => {
    const versions = versionsOfJob.get(row.id) ?? [];
    const accepted = versions.flatMap(({ version, answers }) => answers.filter((a) => a.kind === 'accepted').map((answer) => ({ version, answer })))[0];
    const chosen = new Set(accepted?.answer.optionalItemIds ?? []);
    // Once accepted, the job is the version the customer accepted, never the live draft.
    const record = accepted ? recordOf(accepted.version.content) : liveOf(row, items.filter((item) => item.jobId === row.id));
    const priced = record.items.map((item) => ({ id: item.id, pricePence: item.pricePence, optional: item.optional }));
    const cancellation = cancellations.get(row.id);
    const names = namesOf(row.userId);
    return {
      id: row.id,
      reference: jobReference(row.id),
      status: row.status,
      customer: record.customer,
      businessId: row.businessId,
      leadId: row.leadId,
      vatMode: record.vatMode,
      items: record.items.map((item) => {
        const analysis = item.analysisId === null ? undefined : analyses.get(item.analysisId);
        return {
          id: item.id,
          kind: item.kind,
          // A sent version keeps its tree's analysis id; once that analysis is deleted, none.
          analysisId: analysis ? item.analysisId : null,
          description: item.description,
          price: penceToDecimal(item.pricePence),
          optional: item.optional,
          estimate: item.kind === 'tree' ? { species: analysis?.species ?? null, imageUrl: analysis?.imageUrl ?? null, price: analysis?.price ?? null } : null,
        };
      }),
      totals: money(quoteTotals(priced, chosen, record.vatMode, record.vatRatePercent)),
      totalsWithOptional: money(quoteTotals(priced, new Set(priced.map((p) => p.id)), record.vatMode, record.vatRatePercent)),
      versions: versions.map(({ version, answers }) => ({
        version: version.version,
        sentTo: version.sentTo,
        sentAt: version.sentAt.toISOString(),
        expiresAt: version.expiresAt.toISOString(),
        viewedAt: version.viewedAt?.toISOString() ?? null,
        revokedAt: version.revokedAt?.toISOString() ?? null,
        replacedAt: version.replacedAt?.toISOString() ?? null,
        contentHash: version.contentHash,
        ...namedBy(names, 'sentBy', version.sentBy),
        answers: answers.map((a) => ({ kind: a.kind, at: a.createdAt.toISOString(), name: a.name, message: a.message })),
      })),
      deposit: { percent: row.depositPercent, asked: depositAsked(depositRuleOf(row.userId), row, accepted?.version ?? versions[0]?.version) },
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
            cancellableUntil: cancellableUntil(accepted.version.content, accepted.answer.createdAt),
          }
        : null,
      cancellation: cancellation
        ? {
            at: cancellation.createdAt.toISOString(),
            receivedOn: cancellation.receivedOn,
            via: cancellation.via,
            name: cancellation.name,
            note: cancellation.note,
            withinPeriod: cancellation.withinPeriod,
            contentHash: cancellation.contentHash,
            address: cancellation.address,
            userAgent: cancellation.userAgent,
          }
        : null,
      cancellationPeriod: accepted && !cancellation ? cancellationPeriodView(accepted, earlyStarts.get(row.id)) : null,
      changedSinceSent: accepted ? null : changedSinceSent(row, record, versions),
      booking:
        row.bookedFor && row.bookedStart && row.bookedAt
          ? {
              date: row.bookedFor,
              startTime: row.bookedStart,
              days: row.bookedDays ?? 1,
              siteVisit: siteVisitOf(row.siteVisitAt),
              note: row.bookingNote,
              bookedAt: row.bookedAt.toISOString(),
              crewId: row.crewId,
              ...namedBy(names, 'bookedBy', row.bookedBy),
            }
          : null,
      doneAt: row.doneAt?.toISOString() ?? null,
      ...namedBy(names, 'doneBy', row.doneBy),
      createdAt: row.createdAt.toISOString(),
      ...namedBy(names, 'createdBy', row.createdBy),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

/** A consumer's cancellation period and the early start asked or requested (core/cancellation-period.ts); null for a trade quote. */
function cancellationPeriodView(accepted: { version: QuoteVersionRow; answer: QuoteAnswerRow }, earlyStart: EarlyStartRow | undefined): Job['cancellationPeriod'] {
  if (!accepted.version.content.consumer) return null;
  const requested = accepted.answer.startEarly === true ? accepted.answer.createdAt : earlyStart?.requestedAt;
  return {
    ...cancellationPeriodOf(accepted.answer.createdAt),
    earlyStartRequestedAt: requested?.toISOString() ?? null,
    earlyStartAskedAt: earlyStart?.askedAt.toISOString() ?? null,
  };
}

/** What a job's items, customer and VAT are: the accepted version's, or the live draft's. */
interface JobRecord {
  customer: Job['customer'];
  vatMode: VatMode;
  vatRatePercent?: number;
  items: { id: number; kind: JobItemKind; analysisId: number | null; description: string; pricePence: number; optional: boolean }[];
}

const recordOf = (content: QuoteContent): JobRecord => ({ customer: content.customer, vatMode: content.vatMode, vatRatePercent: content.vatRatePercent, items: content.items });

const liveOf = (row: JobRow, items: JobItemRow[]): JobRecord => ({
  customer: { name: row.customerName, email: row.customerEmail, phone: row.customerPhone, siteAddress: row.siteAddress },
  vatMode: row.vatMode,
  items,
});

const WAITING: ReadonlySet<JobStatus> = new Set(AWAITING_ANSWER_STATUSES);

/** While the customer can accept the version sent, what the job says now that the version does not. */
function changedSinceSent(row: JobRow, live: JobRecord, versions: readonly VersionWithAnswers[]): Job['changedSinceSent'] {
  if (!WAITING.has(row.status)) return null;
  const open = versions.find(({ version }) => !version.replacedAt && !version.revokedAt);
  if (!open) return null;
  const changes = quoteChanges(open.version.content, live);
  return changes.length > 0 ? { version: open.version.version, changes } : null;
}

export function toJobView(db: Db, row: JobRow): Job {
  return toJobViews(db, [row])[0]!;
}
