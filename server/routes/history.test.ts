import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisListItemSchema, analysisListSchema, analyzeResponseSchema, HISTORY_PAGE_SIZE, type AnalysisList } from '../../core/analysis';
import { errorBodySchema } from '../../core/errors';
import { treeAnalyses } from '../../db/schema';
import { findUserByUsername } from '../accounts/users';
import { calibrationTotalsQuery, kindTotalsQuery, pooledTotalsQuery } from '../analysis/calibration';
import { encodeHistoryCursor, historyPageQuery } from '../analysis/history';
import { analyze, grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/*
 * History list: GET /api/analyses answers only what a card shows, newest first, a
 * page at a time with an opaque cursor; bad paging parameters are a 400; the list and the
 * calibration read are index lookups, never a scan of tree_analyses.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function signedIn(): Promise<{ client: TestClient; userId: number; username: string }> {
  const { client, account } = await registerClient(server);
  return { client, userId: findUserByUsername(server.db, account.username)!.id, username: account.username };
}

/**
 * Analyses written straight to the database (an analysis over HTTP takes a photo decode), at
 * the given times; several share a millisecond, as a burst of embed analyses can.
 */
function seed(userId: number, times: number[]): number[] {
  return times.map(
    (ms, i) =>
      server.db
        .insert(treeAnalyses)
        .values({
          userId,
          imageUrl: `/api/analysis/0/image`,
          species: i % 2 ? 'Oak' : null,
          cuttingTimeMin: 30,
          cuttingTimeMax: 45,
          prepTimeMin: 10,
          prepTimeMax: 15,
          cleanupTimeMin: 20,
          cleanupTimeMax: 30,
          costMinPence: 4500,
          costMaxPence: 6750,
          feedback: i % 3 === 0 ? 'fine' : null,
          createdAt: new Date(ms),
        })
        .returning({ id: treeAnalyses.id })
        .get().id,
  );
}

/** Newest first, ties by id: the order the list promises. */
function expectedOrder(rows: { id: number; createdAt: number }[]): number[] {
  return [...rows].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id).map((r) => r.id);
}

async function page(client: TestClient, query = ''): Promise<AnalysisList> {
  const res = await client.get(`/api/analyses${query}`);
  expect(res.status, query).toBe(200);
  return analysisListSchema.parse(await res.json());
}

async function walk(client: TestClient, limit: number): Promise<{ ids: number[]; pages: number }> {
  const ids: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const answer: AnalysisList = await page(client, `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(answer.analyses.length).toBeLessThanOrEqual(limit);
    ids.push(...answer.analyses.map((a) => a.id));
    cursor = answer.nextCursor;
    pages += 1;
  } while (cursor !== null && pages < 100);
  return { ids, pages };
}

describe('GET /api/analyses pages', () => {
  const base = Date.parse('2026-05-01T08:00:00Z');
  let owner: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;
  let expected: number[];

  beforeAll(async () => {
    owner = await signedIn();
    other = await signedIn();
    // 45 for the owner over 15 distinct milliseconds (3 in each), with another user's
    // analyses interleaved at the same times.
    const times = Array.from({ length: 45 }, (_, i) => base + Math.floor(i / 3) * 60_000);
    const mine = seed(owner.userId, times.slice(0, 20));
    seed(other.userId, times.slice(0, 30));
    mine.push(...seed(owner.userId, times.slice(20)));
    expected = expectedOrder(mine.map((id, i) => ({ id, createdAt: times[i]! })));
  });

  it('answers the first 20, newest first, with only the fields a card shows', async () => {
    const first = await page(owner.client);
    expect(first.analyses).toHaveLength(HISTORY_PAGE_SIZE.default);
    expect(first.analyses.map((a) => a.id)).toEqual(expected.slice(0, 20));
    expect(first.nextCursor).toEqual(expect.any(String));
    const card = first.analyses[0]!;
    expect(Object.keys(card).sort()).toEqual(Object.keys(analysisListItemSchema.shape).sort());
    expect(card).toMatchObject({ cost: { min: '45.00', max: '67.50' }, source: 'dashboard', businessName: null });
    const withComment = first.analyses.filter((a) => a.hasFeedback).length;
    expect(withComment).toBeGreaterThan(0);
    expect(withComment).toBeLessThan(first.analyses.length);
  });

  it('walks every analysis once, in order, whatever the page size, and never another user\'s', async () => {
    for (const limit of [1, 7, 20, 44, 45, 100]) {
      const { ids, pages } = await walk(owner.client, limit);
      expect(ids, `limit ${limit}`).toEqual(expected);
      expect(pages, `limit ${limit}`).toBe(Math.max(1, Math.ceil(45 / limit)));
    }
    const theirs = await walk(other.client, 8);
    expect(theirs.ids).toHaveLength(30);
    expect(theirs.ids.filter((id) => expected.includes(id))).toEqual([]);
  });

  it("reads another user's cursor as a position in one's own list only", async () => {
    const mine = await page(owner.client, '?limit=5');
    const theirs = await page(other.client, `?limit=100&cursor=${mine.nextCursor}`);
    expect(theirs.analyses.length).toBeGreaterThan(0);
    expect(theirs.analyses.filter((a) => expected.includes(a.id))).toEqual([]);
  });

  it('neither repeats nor skips while new analyses arrive between pages', async () => {
    const { client, userId } = await signedIn();
    const old = seed(userId, [base, base, base + 1, base + 2, base + 2]);
    const first = await page(client, '?limit=2');
    seed(userId, [base + 5, base + 5]);
    const rest = await page(client, `?limit=10&cursor=${first.nextCursor}`);
    const order = expectedOrder(old.map((id, i) => ({ id, createdAt: [base, base, base + 1, base + 2, base + 2][i]! })));
    expect([...first.analyses, ...rest.analyses].map((a) => a.id)).toEqual(order);
    expect(rest.nextCursor).toBeNull();
  });

  it('answers an empty list with no cursor to a user with no analyses', async () => {
    const { client } = await signedIn();
    expect(await page(client)).toEqual({ analyses: [], nextCursor: null });
  });

  it('lists a real analysis as its own page shows it', async () => {
    const { client, username } = await signedIn();
    grantTo(server, username, 10);
    const res = await analyze(client, { description: 'oak, 16 inch trunk, 40 ft tall' });
    const { analysis } = analyzeResponseSchema.parse(await res.json());
    const { analyses } = await page(client);
    expect(analyses).toEqual([analysisListItemSchema.parse({ ...analysis, hasFeedback: false, web: null })]);
  });
});

describe('GET /api/analyses refuses bad paging', () => {
  let client: TestClient;
  beforeAll(async () => {
    ({ client } = await signedIn());
  });

  async function refused(query: string, field: 'limit' | 'cursor') {
    const res = await client.get(`/api/analyses${query}`);
    expect(res.status, query).toBe(400);
    const body = errorBodySchema.parse(await res.json());
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.details ?? {}), query).toEqual([field]);
  }

  it('a limit that is not a whole number from 1 to 100', async () => {
    for (const limit of ['0', '101', '-1', '1.5', 'abc', '', '1e2', '99999999999999999999']) await refused(`?limit=${limit}`, 'limit');
    for (const limit of ['1', '100']) expect((await client.get(`/api/analyses?limit=${limit}`)).status).toBe(200);
  });

  it('a cursor the list did not give', async () => {
    const forged = [
      'nope!',
      '',
      Buffer.from('abc').toString('base64url'),
      Buffer.from('1:2:3').toString('base64url'),
      Buffer.from('-1:2').toString('base64url'),
      Buffer.from('99999999999999999:2').toString('base64url'),
      `${encodeHistoryCursor({ createdAt: 1, id: 2 })}=`,
      'A'.repeat(500),
    ];
    for (const cursor of forged) await refused(`?cursor=${encodeURIComponent(cursor)}`, 'cursor');
    expect((await client.get(`/api/analyses?cursor=${encodeHistoryCursor({ createdAt: 1, id: 2 })}`)).status).toBe(200);
  });
});

describe('hot-path reads use an index', () => {
  function plan(query: { toSQL(): { sql: string; params: unknown[] } }): string {
    const { sql, params } = query.toSQL();
    const rows = server.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params.map(() => 1)) as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  }

  it('reads a History page as a range of tree_analyses_user_idx, with no sort', () => {
    const detail = plan(historyPageQuery(server.db));
    expect(detail).toMatch(/SEARCH tree_analyses USING INDEX tree_analyses_user_idx \(user_id=\? AND/);
    expect(detail).not.toMatch(/SCAN|TEMP B-TREE/);
  });

  it("reads a user's calibration by primary key, not from their analyses", () => {
    const detail = plan(calibrationTotalsQuery(server.db));
    expect(detail).toMatch(/SEARCH calibration_totals USING INTEGER PRIMARY KEY/);
    expect(detail).not.toMatch(/SCAN|tree_analyses/);
    // Its totals per kind of job are a range of their primary key.
    const kinds = plan(kindTotalsQuery(server.db));
    expect(kinds).toMatch(/SEARCH calibration_kind_totals USING INDEX sqlite_autoindex_calibration_kind_totals_1 \(user_id=\?\)/);
    expect(kinds).not.toMatch(/SCAN|tree_analyses/);
  });

  it("sums the install's starting point over one row per account, never over analyses", () => {
    // One pass over the accounts (users or calibration_totals, as SQLite prefers), the other
    // table joined by primary key.
    const detail = plan(pooledTotalsQuery(server.db));
    expect(detail).toMatch(/SEARCH (users|calibration_totals) USING INTEGER PRIMARY KEY/);
    expect(detail).not.toMatch(/tree_analyses|TEMP B-TREE/);
  });
});
