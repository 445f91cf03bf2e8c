import { and, eq, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  chainedFactor,
  combineTotals,
  JOB_KIND_PLURALS,
  MIN_POOLED_ACCOUNTS,
  NO_OBSERVATIONS,
  observationTotals,
  type ComponentTotals,
  type JobKind,
  type PooledTotals,
} from '../../core/calibration';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { perDatabase } from '../../db/per-database';
import { calibrationKindTotals, calibrationTotals, treeAnalyses, users } from '../../db/schema';
import type { ComponentFactors } from './estimate';

/**
 * A user's calibration comes from running totals of their feedback (db/schema.ts
 * calibration_totals, and calibration_kind_totals per kind of job), read with primary-key
 * lookups when an analysis is estimated, plus one aggregate over the accounts that share their
 * job times (the install's starting point). The feedback route changes the totals in the same
 * transaction as the actual times (feedback.ts); recountCalibrationTotals and
 * recountKindTotals are the from-scratch references they must equal.
 */
const COMPONENTS = ['cutting', 'prep', 'cleanup'] as const;
type Component = (typeof COMPONENTS)[number];

export interface FeedbackTotals extends Record<Component, ComponentTotals> {
  /** Analyses with a base estimate and at least one actual time: "Calibrated from N of your jobs". */
  jobs: number;
}

export const NO_FEEDBACK: FeedbackTotals = { jobs: 0, cutting: NO_OBSERVATIONS, prep: NO_OBSERVATIONS, cleanup: NO_OBSERVATIONS };

/** The columns of an analysis its feedback is judged by, for a select (FeedbackFields is their row). */
export const FEEDBACK_COLUMNS = {
  baseTimes: treeAnalyses.baseTimes,
  actualCuttingTime: treeAnalyses.actualCuttingTime,
  actualPrepTime: treeAnalyses.actualPrepTime,
  actualCleanupTime: treeAnalyses.actualCleanupTime,
};

/** The columns of an analysis its feedback is judged by. */
export type FeedbackFields = Pick<
  typeof treeAnalyses.$inferSelect,
  'baseTimes' | 'actualCuttingTime' | 'actualPrepTime' | 'actualCleanupTime'
>;

/**
 * What one analysis adds to its user's totals. An analysis stored before base estimates
 * were kept has nothing to compare with and adds nothing.
 */
export function feedbackTotals(row: FeedbackFields): FeedbackTotals {
  const base = row.baseTimes;
  const actual: Record<Component, number | null> = {
    cutting: row.actualCuttingTime,
    prep: row.actualPrepTime,
    cleanup: row.actualCleanupTime,
  };
  if (!base || COMPONENTS.every((part) => actual[part] === null)) return NO_FEEDBACK;
  const part = (name: Component) => {
    const value = actual[name];
    return value === null ? NO_OBSERVATIONS : observationTotals({ estimated: base[name], actual: value });
  };
  return { jobs: 1, cutting: part('cutting'), prep: part('prep'), cleanup: part('cleanup') };
}

/** `a + sign * b` for every total. */
export function combineFeedback(a: FeedbackTotals, b: FeedbackTotals, sign: 1 | -1 = 1): FeedbackTotals {
  return {
    jobs: a.jobs + sign * b.jobs,
    cutting: combineTotals(a.cutting, b.cutting, sign),
    prep: combineTotals(a.prep, b.prep, sign),
    cleanup: combineTotals(a.cleanup, b.cleanup, sign),
  };
}

const isNoChange = (change: FeedbackTotals) =>
  change.jobs === 0 && COMPONENTS.every((p) => change[p].observations === 0 && change[p].logRatioSum === 0);

/** The stored columns of one set of totals (both tables have them). */
function totalsColumns(change: FeedbackTotals) {
  return {
    jobs: change.jobs,
    cuttingObservations: change.cutting.observations,
    cuttingLogRatioSum: change.cutting.logRatioSum,
    prepObservations: change.prep.observations,
    prepLogRatioSum: change.prep.logRatioSum,
    cleanupObservations: change.cleanup.observations,
    cleanupLogRatioSum: change.cleanup.logRatioSum,
  };
}

/** On conflict each stored total grows by the value the insert would have written. */
function growBy(table: typeof calibrationTotals | typeof calibrationKindTotals): Record<keyof ReturnType<typeof totalsColumns>, SQL> {
  const plus = (column: SQLiteColumn) => sql`${column} + excluded.${sql.identifier(column.name)}`;
  return {
    jobs: plus(table.jobs),
    cuttingObservations: plus(table.cuttingObservations),
    cuttingLogRatioSum: plus(table.cuttingLogRatioSum),
    prepObservations: plus(table.prepObservations),
    prepLogRatioSum: plus(table.prepLogRatioSum),
    cleanupObservations: plus(table.cleanupObservations),
    cleanupLogRatioSum: plus(table.cleanupLogRatioSum),
  };
}

/**
 * Adds `change` to the user's stored totals, and to those of the analysis's kind of job when it
 * has a method; the caller holds the write transaction.
 */
export function addToCalibrationTotals(db: Db, userId: number, change: FeedbackTotals, method: string | null = null): void {
  if (isNoChange(change)) return;
  db.insert(calibrationTotals)
    .values({ userId, ...totalsColumns(change) })
    .onConflictDoUpdate({ target: calibrationTotals.userId, set: growBy(calibrationTotals) })
    .run();
  if (method === null) return;
  db.insert(calibrationKindTotals)
    .values({ userId, method, ...totalsColumns(change) })
    .onConflictDoUpdate({ target: [calibrationKindTotals.userId, calibrationKindTotals.method], set: growBy(calibrationKindTotals) })
    .run();
}

/** Built and prepared once per database: the reads made before every estimate. */
const totalsRead = perDatabase((db) => calibrationTotalsQuery(db).prepare());
const kindTotalsRead = perDatabase((db) => kindTotalsQuery(db).prepare());
const pooledRead = perDatabase((db) => pooledTotalsQuery(db).prepare());

type TotalsRow = ReturnType<typeof totalsColumns>;
const fromRow = (row: TotalsRow): FeedbackTotals => ({
  jobs: row.jobs,
  cutting: { observations: row.cuttingObservations, logRatioSum: row.cuttingLogRatioSum },
  prep: { observations: row.prepObservations, logRatioSum: row.prepLogRatioSum },
  cleanup: { observations: row.cleanupObservations, logRatioSum: row.cleanupLogRatioSum },
});

/** The read, unprepared: exported so a test can read its query plan. */
export function calibrationTotalsQuery(db: Db) {
  return db.select().from(calibrationTotals).where(eq(calibrationTotals.userId, sql.placeholder('userId')));
}

/** The user's stored totals (all zero before any feedback). */
export function storedCalibrationTotals(db: Db, userId: number): FeedbackTotals {
  const row = totalsRead(db).get({ userId });
  return row ? fromRow(row) : NO_FEEDBACK;
}

/** The user's totals per kind of job: a primary-key range read (user_id is the key's first column). */
export function kindTotalsQuery(db: Db) {
  return db.select().from(calibrationKindTotals).where(eq(calibrationKindTotals.userId, sql.placeholder('userId')));
}

/** The user's stored totals per method, for every method they have totals of. */
export function storedKindTotals(db: Db, userId: number): Record<string, FeedbackTotals> {
  return Object.fromEntries(kindTotalsRead(db).all({ userId }).map((row) => [row.method, fromRow(row)]));
}

/**
 * The install's experience, one aggregate over calibration_totals: the totals of every account
 * that shares its job times and has reported a job, except the account being estimated for (a
 * starting point is a prior, and an account's own jobs already count in its own factors; leaving
 * them out also means no account ever sees a figure with its own jobs folded in). Per component,
 * `accounts` counts only the accounts with an observation of it, so no component's figure rests
 * on fewer accounts than it says.
 */
export function pooledTotalsQuery(db: Db) {
  const t = calibrationTotals;
  const total = (column: SQLiteColumn) => sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);
  const accountsWith = (column: SQLiteColumn) => sql<number>`count(nullif(${column}, 0))`.mapWith(Number);
  return db
    .select({
      cuttingAccounts: accountsWith(t.cuttingObservations),
      cuttingObservations: total(t.cuttingObservations),
      cuttingLogRatioSum: total(t.cuttingLogRatioSum),
      prepAccounts: accountsWith(t.prepObservations),
      prepObservations: total(t.prepObservations),
      prepLogRatioSum: total(t.prepLogRatioSum),
      cleanupAccounts: accountsWith(t.cleanupObservations),
      cleanupObservations: total(t.cleanupObservations),
      cleanupLogRatioSum: total(t.cleanupLogRatioSum),
    })
    .from(t)
    .innerJoin(users, eq(users.id, t.userId))
    .where(and(eq(users.shareJobTimes, true), sql`${t.jobs} > 0`, ne(t.userId, sql.placeholder('userId'))));
}

/** Per component, the install's pooled totals, or null where fewer than MIN_POOLED_ACCOUNTS accounts are behind them. */
export type InstallTotals = Record<Component, PooledTotals | null>;

export const NO_INSTALL: InstallTotals = { cutting: null, prep: null, cleanup: null };

/** The install's starting point for `userId`'s estimates; a figure behind too few accounts never leaves here. */
export function pooledCalibration(db: Db, userId: number): InstallTotals {
  const row = pooledRead(db).get({ userId });
  if (!row) return NO_INSTALL;
  const part = (accounts: number, observations: number, logRatioSum: number): PooledTotals | null =>
    accounts >= MIN_POOLED_ACCOUNTS ? { accounts, totals: { observations, logRatioSum } } : null;
  return {
    cutting: part(row.cuttingAccounts, row.cuttingObservations, row.cuttingLogRatioSum),
    prep: part(row.prepAccounts, row.prepObservations, row.prepLogRatioSum),
    cleanup: part(row.cleanupAccounts, row.cleanupObservations, row.cleanupLogRatioSum),
  };
}

export const JOB_KINDS = Object.keys(JOB_KIND_PLURALS) as JobKind[];
const isJobKind = (method: string): method is JobKind => method in JOB_KIND_PLURALS;

/** What an estimate is calibrated with before the time model has chosen its method. */
export interface Calibration {
  /** The account's feedback over all its jobs. */
  account: FeedbackTotals;
  /** The account's feedback per kind of job (NO_FEEDBACK for a kind it has not reported). */
  kinds: Record<JobKind, FeedbackTotals>;
  /** The install's starting point (NO_INSTALL when too few accounts share). */
  install: InstallTotals;
}

/** What one estimate was scaled by, and what it says it was calibrated from. */
export interface AppliedCalibration {
  factors: ComponentFactors;
  /** The account's jobs with feedback, all kinds. */
  accountJobs: number;
  /** Of those, the jobs of the estimate's kind. */
  kindJobs: number;
  /** Accounts behind the install's starting point where it was used, else null. */
  installAccounts: number | null;
}

/**
 * The chain kind -> account -> install -> 1 (core/calibration.ts chainedFactor) for an estimate
 * whose method is `method`: pure, so anything that has the totals (the accuracy page replaying
 * the jobs reported before one, a benchmark) scales an estimate exactly as an analysis does. A
 * method that is not a kind of job (none today) is calibrated by the account alone.
 */
export function applyCalibration(calibration: Calibration, method: string): AppliedCalibration {
  const kind = isJobKind(method) ? calibration.kinds[method] : NO_FEEDBACK;
  const { account, install } = calibration;
  const pooled = COMPONENTS.flatMap((part) => (install[part] ? [install[part].accounts] : []));
  return {
    factors: {
      cutting: chainedFactor(kind.cutting, account.cutting, install.cutting),
      prep: chainedFactor(kind.prep, account.prep, install.prep),
      cleanup: chainedFactor(kind.cleanup, account.cleanup, install.cleanup),
    },
    accountJobs: account.jobs,
    kindJobs: kind.jobs,
    installAccounts: pooled.length > 0 ? Math.max(...pooled) : null,
  };
}

/**
 * Everything an estimate for `userId` is calibrated with (its embeds' too: they are the owner's
 * estimates): three reads, two by primary key and one aggregate. Null when there is nothing
 * to calibrate with: no feedback of the account's and no install starting point.
 */
export function loadCalibration(db: Db, userId: number): Calibration | null {
  const account = storedCalibrationTotals(db, userId);
  const install = pooledCalibration(db, userId);
  if (account.jobs <= 0 && COMPONENTS.every((part) => install[part] === null)) return null;
  const stored = account.jobs > 0 ? storedKindTotals(db, userId) : {};
  const kinds = Object.fromEntries(JOB_KINDS.map((kind) => [kind, stored[kind] ?? NO_FEEDBACK])) as Record<JobKind, FeedbackTotals>;
  return { account, kinds, install };
}

/**
 * The totals counted from scratch over every analysis of the user's with feedback: what the
 * stored totals must always equal (the tests hold them to it; an operator could rebuild
 * from it). Not on any request's path.
 */
export function recountCalibrationTotals(db: Db, userId: number): FeedbackTotals {
  const rows = db
    .select(FEEDBACK_COLUMNS)
    .from(treeAnalyses)
    .where(
      and(
        eq(treeAnalyses.userId, userId),
        isNotNull(treeAnalyses.baseTimes),
        or(isNotNull(treeAnalyses.actualCuttingTime), isNotNull(treeAnalyses.actualPrepTime), isNotNull(treeAnalyses.actualCleanupTime)),
      ),
    )
    .all();
  return rows.reduce((sum, row) => combineFeedback(sum, feedbackTotals(row)), NO_FEEDBACK);
}

/** The per-kind totals counted from scratch, keyed by method: what storedKindTotals must equal. */
export function recountKindTotals(db: Db, userId: number): Record<string, FeedbackTotals> {
  const rows = db
    .select({ ...FEEDBACK_COLUMNS, method: treeAnalyses.method })
    .from(treeAnalyses)
    .where(
      and(
        eq(treeAnalyses.userId, userId),
        isNotNull(treeAnalyses.baseTimes),
        isNotNull(treeAnalyses.method),
        or(isNotNull(treeAnalyses.actualCuttingTime), isNotNull(treeAnalyses.actualPrepTime), isNotNull(treeAnalyses.actualCleanupTime)),
      ),
    )
    .all();
  const kinds: Record<string, FeedbackTotals> = {};
  for (const row of rows) kinds[row.method!] = combineFeedback(kinds[row.method!] ?? NO_FEEDBACK, feedbackTotals(row));
  return kinds;
}
