import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userTokensResponseSchema } from '../../core/credits';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const totalChanges = () => (server.db.$client.prepare('select total_changes() as n').get() as { n: number }).n;

describe('GET /api/user-tokens', () => {
  it('only reads: the balance row exists from registration on and nothing is written', async () => {
    const { client } = await registerClient(server);
    const rows = () => (server.db.$client.prepare('select count(*) as n from user_tokens').get() as { n: number }).n;
    const before = { changes: totalChanges(), rows: rows() };
    const res = await client.get('/api/user-tokens');
    expect(res.status).toBe(200);
    expect(userTokensResponseSchema.parse(await res.json()).tokensRemaining).toBe(0);
    expect({ changes: totalChanges(), rows: rows() }).toEqual(before);
  });

  it('answers while another connection holds the write lock (an upsert would wait for it)', async () => {
    const { client } = await registerClient(server);
    const writer = new Database(server.config.databaseFile);
    writer.exec('BEGIN IMMEDIATE');
    try {
      const res = await client.get('/api/user-tokens');
      expect(res.status).toBe(200);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  });
});
