import { and, desc, eq, sql } from 'drizzle-orm';
import type Database from 'better-sqlite3';
import type { AnalysisList, AnalysisListItem } from '../../core/analysis';
import { penceToDecimal } from '../../core/money';
import { totalMinutes } from '../../core/format';
import { storedMinutes } from '../../core/normalise';
import { storedPrice } from './store';
import type { Db } from '../../db/client';
import { perDatabase } from '../../db/per-database';
import { businesses, leads, treeAnalyses } from '../../db/schema';
import { NOT_SURE } from '../../core/visitor-answers';

/**
 * The History list (GET /api/analyses): the user's analyses newest first, a page at a time,
 * with only the columns a card shows. Ties on created_at (analyses in the same millisecond)
 * are ordered by id, and the cursor carries both, so walking the pages never repeats or
 * skips one, even while new analyses arrive. The order and the cursor are what
 * tree_analyses_user_idx holds (db/schema.ts), so a page is an index range, never a sort.
 */
interface Position {
  createdAt: number;
  id: number;
}

/** Before every analysis: the first page starts here. */
const START: Position = { createdAt: Number.MAX_SAFE_INTEGER, id: Number.MAX_SAFE_INTEGER };

/** Opaque to clients: base64url of "createdAt:id". */
export function encodeHistoryCursor(position: Position): string {
  return Buffer.from(`${position.createdAt}:${position.id}`).toString('base64url');
}

/** The position a cursor names, or null when it is not one this server wrote. */
export function decodeHistoryCursor(cursor: string): Position | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return null;
  const match = /^(\d{1,16}):(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) return null;
  const position = { createdAt: Number(match[1]), id: Number(match[2]) };
  if (!Number.isSafeInteger(position.createdAt) || !Number.isSafeInteger(position.id)) return null;
  // Node's decoder skips what it cannot read; only the exact encoding of a position passes.
  return encodeHistoryCursor(position) === cursor ? position : null;
}

/**
 * Read on every visit to History: prepared once per database and page size. The
 * row count is written into the SQL rather than bound: SQLite (3.53) compiles a statement
 * whose LIMIT is a bound parameter again on every run, which cost more than reading the
 * page itself. Sizes are 2 to HISTORY_PAGE_SIZE.max + 1 (one more than asked, see below),
 * so at most a hundred statements, each made on first use.
 */
const historyPages = perDatabase(() => new Map<number, Database.Statement>());

function historyPage(db: Db, rows: number): Database.Statement {
  const bySize = historyPages(db);
  let statement = bySize.get(rows);
  if (!statement) {
    if (!Number.isSafeInteger(rows) || rows < 1) throw new Error(`History page of ${rows} rows`);
    const { sql } = historyPageQuery(db).toSQL();
    if (!sql.endsWith(' limit ?')) throw new Error('The History query no longer ends with its LIMIT');
    statement = db.$client.prepare(`${sql.slice(0, -'?'.length)}${rows}`).raw(true);
    bySize.set(rows, statement);
  }
  return statement;
}

/** The page's statement, unprepared (its LIMIT a placeholder): exported so a test can read its query plan. */
export function historyPageQuery(db: Db) {
  const a = treeAnalyses;
  return db
    .select({
      id: a.id,
      imageUrl: a.imageUrl,
      species: a.species,
      cuttingTimeMin: a.cuttingTimeMin,
      cuttingTimeMax: a.cuttingTimeMax,
      prepTimeMin: a.prepTimeMin,
      prepTimeMax: a.prepTimeMax,
      cleanupTimeMin: a.cleanupTimeMin,
      cleanupTimeMax: a.cleanupTimeMax,
      costMinPence: a.costMinPence,
      costMaxPence: a.costMaxPence,
      hourlyRatePence: a.hourlyRatePence,
      price: a.price,
      source: a.source,
      createdAt: a.createdAt,
      hasFeedback: sql<0 | 1>`(${a.actualCuttingTime} IS NOT NULL OR ${a.actualPrepTime} IS NOT NULL OR ${a.actualCleanupTime} IS NOT NULL OR coalesce(${a.feedback}, '') <> '')`,
      businessName: businesses.name,
      // A web estimate's visitor: their species answer's source and their name once they asked for a quote.
      speciesSource: sql<string | null>`json_extract(${a.valueSources}, '$.species')`,
      hasSources: sql<0 | 1>`(${a.valueSources} IS NOT NULL)`,
      leadName: leads.name,
    })
    .from(a)
    .leftJoin(businesses, eq(businesses.id, a.businessId))
    // At most one lead an analysis (leads_analysis_unique), found by that index: no N+1, no scan.
    .leftJoin(leads, eq(leads.analysisId, a.id))
    .where(
      and(
        eq(a.userId, sql.placeholder('userId')),
        sql`(${a.createdAt}, ${a.id}) < (${sql.placeholder('createdAt')}, ${sql.placeholder('id')})`,
      ),
    )
    .orderBy(desc(a.createdAt), desc(a.id))
    .limit(sql.placeholder('limit'));
}

/**
 * A page's rows as the statement's plain value arrays, in the select's order above: drizzle's
 * per-row objects cost more than the query itself (45 of 150 µs a page, when measured).
 */
type HistoryValues = [
  id: number,
  imageUrl: string,
  species: string | null,
  cuttingTimeMin: unknown,
  cuttingTimeMax: unknown,
  prepTimeMin: unknown,
  prepTimeMax: unknown,
  cleanupTimeMin: unknown,
  cleanupTimeMax: unknown,
  costMinPence: number | null,
  costMaxPence: number | null,
  hourlyRatePence: number,
  /** JSON text: the statement is raw. */
  price: string | null,
  source: AnalysisListItem['source'],
  createdAt: number,
  hasFeedback: 0 | 1,
  businessName: string | null,
  speciesSource: string | null,
  hasSources: 0 | 1,
  leadName: string | null,
];

/** Stored values read as toAnalysisView reads them (store.ts), so a card and its page agree. */
function toListItem(row: HistoryValues): AnalysisListItem {
  const [id, imageUrl, species, cutMin, cutMax, prepMin, prepMax, cleanMin, cleanMax, costMin, costMax, ratePence, price, source, createdAt, hasFeedback, businessName, speciesSource, hasSources, leadName] = row;
  const times = {
    cuttingTimeMin: storedMinutes(cutMin),
    cuttingTimeMax: storedMinutes(cutMax),
    prepTimeMin: storedMinutes(prepMin),
    prepTimeMax: storedMinutes(prepMax),
    cleanupTimeMin: storedMinutes(cleanMin),
    cleanupTimeMax: storedMinutes(cleanMax),
  };
  return {
    id,
    imageUrl,
    species,
    ...times,
    cost: costMin !== null && costMax !== null ? { min: penceToDecimal(costMin), max: penceToDecimal(costMax) } : null,
    price: storedPrice({ price, costMinPence: costMin, costMaxPence: costMax, hourlyRatePence: ratePence }, totalMinutes(times)),
    businessName,
    source,
    createdAt: new Date(createdAt).toISOString(),
    hasFeedback: hasFeedback === 1,
    web: source === 'embed' ? { businessName, leadName, speciesAnswer: speciesAnswer(species, speciesSource, hasSources === 1) } : null,
  };
}

/**
 * The species as the visitor answered it (core/visitor-answers.ts treeAnswers reads it the same
 * way): the name they chose, "Not sure" when they named none (a name read from the photo is not
 * their answer), or null on an analysis stored before sources were kept.
 */
function speciesAnswer(species: string | null, source: string | null, recorded: boolean): string | null {
  if (source === 'user' && species) return species;
  return recorded ? NOT_SURE : null;
}

/** One page of the user's History after `after` (the start when null): up to `limit` items. */
export function listHistoryPage(db: Db, userId: number, limit: number, after: Position | null): AnalysisList {
  const from = after ?? START;
  // One more than asked says whether there is a next page without a count.
  const rows = historyPage(db, limit + 1).all(userId, from.createdAt, from.id) as HistoryValues[];
  const analyses = rows.slice(0, limit).map(toListItem);
  const last = analyses.at(-1);
  // createdAt is ISO text to the millisecond, so it parses back to the stored value exactly.
  const nextCursor = rows.length > limit && last ? encodeHistoryCursor({ createdAt: Date.parse(last.createdAt), id: last.id }) : null;
  return { analyses, nextCursor };
}
