import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAccountPageSchema, adminLogResponseSchema, type AdminAccount } from '../../core/admin';
import { grantTo } from '../../testing/analysis';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';

/**
 * The admin log (docs/product.md, Help assistant and admin log) and the accounts table, as the first
 * account (the admin) uses them over HTTP on a real database.
 */
let server: TestServer;
let admin: TestClient;
const usernames: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const first = await registerClient(server, { firstName: 'Ada', lastName: 'Admin' });
  admin = first.client;
  usernames.push(first.account.username);
  // Names an admin might search for, including LIKE's own wildcard and escape characters.
  const others = [
    { firstName: 'Rowan', lastName: 'Birch' },
    { firstName: 'Holly', lastName: '100%_Oak' },
    { firstName: 'Hazel', lastName: 'Back\\Slash' },
    { firstName: 'Elder', lastName: 'Berry', username: `under_score${process.pid}` },
    { firstName: 'Yew', lastName: 'Tree' },
  ];
  for (const names of others) usernames.push((await registerClient(server, names)).account.username);
  // One subscriber, so the plan, status, balance and refill dates have values to show.
  const rowan = usernames[1]!;
  grantTo(server, rowan, 600);
  server.db.$client
    .prepare(
      `update user_tokens set subscription_type = 'standard', subscription_status = 'active', last_refill_date = ?, next_refill_date = ?
       where user_id = (select id from users where username = ?)`,
    )
    .run(Date.parse('2026-06-01T09:00:00Z'), Date.parse('2026-07-01T09:00:00Z'), rowan);
});
afterAll(() => server.close());

async function accounts(query: Record<string, string> = {}) {
  const res = await admin.get(`/api/admin/accounts?${new URLSearchParams(query)}`);
  expect(res.status).toBe(200);
  return adminAccountPageSchema.parse(await res.json());
}

const namesOf = (list: AdminAccount[]) => list.map((a) => a.username);

describe('GET /api/admin/log-accounts', () => {
  it('answers the message and the number of accounts, and logs one line per account with its fields', async () => {
    const res = await admin.get('/api/admin/log-accounts');
    expect(res.status).toBe(200);
    const body = adminLogResponseSchema.parse(await res.json());
    expect(body).toEqual({ message: 'Logged 6 accounts to the server console', totalUsers: 6 });

    const requestId = res.headers.get('x-request-id');
    const lines = server.logs.filter((line) => line.requestId === requestId && line.event === 'admin.account');
    expect(lines.map((line) => line.username)).toEqual(usernames);
    const rowan = lines[1]!;
    expect(rowan).toMatchObject({
      level: 'info',
      msg: 'account',
      userId: expect.any(Number),
      username: usernames[1],
      email: `${usernames[1]}@example.com`,
      fullName: 'Rowan Birch',
      firstName: 'Rowan',
      lastName: 'Birch',
      role: 'user',
      createdAt: '2026-06-01T09:00:00.000Z',
      updatedAt: '2026-06-01T09:00:00.000Z',
      subscriptionType: 'standard',
      subscriptionStatus: 'active',
      tokensRemaining: 600,
      tokensTotal: expect.any(Number),
      lastRefillDate: '2026-06-01T09:00:00.000Z',
      nextRefillDate: '2026-07-01T09:00:00.000Z',
    });
    expect(lines[0]).toMatchObject({ role: 'admin', fullName: 'Ada Admin', subscriptionType: null, tokensRemaining: 0, nextRefillDate: null });
    const summary = server.logs.filter((line) => line.requestId === requestId && line.event === 'admin.accounts_logged');
    expect(summary).toEqual([expect.objectContaining({ msg: 'accounts logged', totalUsers: 6, adminId: lines[0]!.userId })]);
  });
});

describe('GET /api/admin/accounts', () => {
  it('lists every account newest first with what the table shows', async () => {
    const page = await accounts();
    expect(page).toMatchObject({ query: '', page: 1, limit: 20, total: 6, totalPages: 1 });
    expect(namesOf(page.accounts)).toEqual([...usernames].reverse());
    expect(page.accounts.find((a) => a.username === usernames[1])).toMatchObject({
      email: `${usernames[1]}@example.com`,
      firstName: 'Rowan',
      lastName: 'Birch',
      role: 'user',
      subscriptionType: 'standard',
      subscriptionStatus: 'active',
      tokensRemaining: 600,
      nextRefillDate: '2026-07-01T09:00:00.000Z',
    });
  });

  it('pages without repeating or skipping an account', async () => {
    const seen: string[] = [];
    for (let n = 1; n <= 3; n += 1) {
      const page = await accounts({ limit: '2', page: String(n) });
      expect(page).toMatchObject({ page: n, limit: 2, total: 6, totalPages: 3 });
      expect(page.accounts).toHaveLength(2);
      seen.push(...namesOf(page.accounts));
    }
    expect(seen).toEqual([...usernames].reverse());
    const past = await accounts({ limit: '2', page: '4' });
    expect(past).toMatchObject({ accounts: [], total: 6, totalPages: 3 });
  });

  it('searches username, e-mail and full name, ignoring case', async () => {
    expect(namesOf((await accounts({ query: usernames[5]!.toUpperCase() })).accounts)).toEqual([usernames[5]]);
    expect(namesOf((await accounts({ query: `${usernames[2]}@EXAMPLE` })).accounts)).toEqual([usernames[2]]);
    expect(namesOf((await accounts({ query: 'rowan birch' })).accounts)).toEqual([usernames[1]]);
    expect(namesOf((await accounts({ query: 'berry' })).accounts)).toEqual([usernames[4]]);
    const page = await accounts({ query: '  nobody-here  ' });
    expect(page).toMatchObject({ accounts: [], query: 'nobody-here', total: 0, totalPages: 0 });
  });

  it("takes %, _ and \\ as the admin typed them, not as LIKE's wildcards", async () => {
    expect(namesOf((await accounts({ query: '%' })).accounts)).toEqual([usernames[2]]);
    expect(namesOf((await accounts({ query: '100%_' })).accounts)).toEqual([usernames[2]]);
    // "_" matches the username and the last name that hold one, not every character.
    expect(namesOf((await accounts({ query: '_' })).accounts)).toEqual([usernames[4], usernames[2]]);
    expect(namesOf((await accounts({ query: '\\' })).accounts)).toEqual([usernames[3]]);
    expect(namesOf((await accounts({ query: 'k\\s' })).accounts)).toEqual([usernames[3]]);
  });

  it('combines search and pages, counting only the matches', async () => {
    const page = await accounts({ query: 'example.com', limit: '4', page: '2' });
    expect(page).toMatchObject({ total: 6, totalPages: 2 });
    expect(namesOf(page.accounts)).toEqual([usernames[1], usernames[0]]);
  });

  it('refuses a page, limit or query it cannot use, with the field named', async () => {
    for (const [query, field] of [
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ page: '0' }, 'page'],
      [{ page: 'two' }, 'page'],
      [{ query: 'x'.repeat(101) }, 'query'],
    ] as const) {
      const res = await admin.get(`/api/admin/accounts?${new URLSearchParams(query)}`);
      expect(res.status, JSON.stringify(query)).toBe(400);
      const body = (await res.json()) as { code: string; details: Record<string, string[]> };
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.details)).toEqual([field]);
    }
  });
});

describe('the log of a large install', () => {
  it('logs each of 1,201 accounts exactly once across its batches of 500', async () => {
    const big = await startTestServer();
    try {
      const { client } = await registerClient(big);
      const insert = big.db.$client.prepare(
        "insert into users (username, email, password, created_at, updated_at) values (?, ?, 'x', 0, 0)",
      );
      big.db.$client.transaction(() => {
        for (let n = 0; n < 1200; n += 1) insert.run(`bulk${n}`, `bulk${n}@example.com`);
      })();
      const res = await client.get('/api/admin/log-accounts');
      expect(adminLogResponseSchema.parse(await res.json()).totalUsers).toBe(1201);
      const requestId = res.headers.get('x-request-id');
      const ids = big.logs.filter((line) => line.requestId === requestId && line.event === 'admin.account').map((line) => line.userId);
      expect(ids).toHaveLength(1201);
      expect(new Set(ids).size).toBe(1201);
      // An account with no credit row (inserted bare above) still shows, with a balance of 0.
      expect(big.logs.find((line) => line.username === 'bulk0')).toMatchObject({ tokensRemaining: 0, subscriptionType: null });
    } finally {
      await big.close();
    }
  });
});
