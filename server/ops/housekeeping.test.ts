import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens, processedPaymentEvents, sessions } from '../../db/schema';
import { findUserByUsername } from '../accounts/users';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { EVENT_IDS_KEPT_DAYS, runHousekeeping } from './housekeeping';

const DAY = 24 * 60 * 60 * 1000;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('housekeeping (at start and hourly)', () => {
  it('deletes expired sessions, old reset tokens and old webhook event ids, and keeps the rest', async () => {
    const { client, account } = await registerClient(server);
    const userId = findUserByUsername(server.db, account.username)!.id;
    const now = server.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms);
    server.db.insert(sessions).values([
      { id: 'expired-session', userId, expiresAt: at(-DAY), createdAt: at(-31 * DAY) },
      { id: 'live-session', userId, expiresAt: at(DAY), createdAt: at(-DAY) },
    ]).run();
    server.db.insert(passwordResetTokens).values([
      { userId, token: 'expired-2-days', expiresAt: at(-2 * DAY), createdAt: at(-2 * DAY - 3_600_000) },
      { userId, token: 'used-3-days-ago', used: true, expiresAt: at(-3 * DAY + 3_600_000), createdAt: at(-3 * DAY) },
      { userId, token: 'fresh', expiresAt: at(3_600_000), createdAt: at(0) },
    ]).run();
    const old = at(-(EVENT_IDS_KEPT_DAYS + 1) * DAY);
    server.db.insert(processedPaymentEvents).values([
      { id: 'evt:old', kind: 'invoice.paid', userId, createdAt: old },
      { id: 'evt:recent', kind: 'invoice.paid', userId, createdAt: at(-DAY) },
      // A PaymentIntent's key guards its effect for good, however old.
      { id: 'pi:old', kind: 'pass', userId, createdAt: old },
    ]).run();

    expect(runHousekeeping(server.db, server.clock)).toMatchObject({ sessions: 1, resetTokens: 2, eventIds: 1 });
    const ids = (table: string, column: string) => server.db.$client.prepare(`select ${column} from ${table}`).pluck().all();
    expect(ids('sessions', 'id')).toEqual(expect.arrayContaining(['live-session']));
    expect(ids('sessions', 'id')).not.toContain('expired-session');
    expect(ids('password_reset_tokens', 'token')).toEqual(['fresh']);
    expect(ids('processed_payment_events', 'id').sort()).toEqual(['evt:recent', 'pi:old']);
    // The user's own session is untouched.
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('finds what it deletes by an index, not by reading every row', () => {
    const plan = (sql: string) => (server.db.$client.prepare(`explain query plan ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan('delete from sessions where expires_at < 0')).toMatch(/USING (COVERING )?INDEX sessions_expires_idx/);
    expect(plan('delete from password_reset_tokens where expires_at < 0')).toMatch(/USING (COVERING )?INDEX password_reset_tokens_expires_idx/);
    expect(plan("delete from processed_payment_events where created_at < 0 and id like 'evt:%'")).toMatch(/USING (COVERING )?INDEX processed_payment_events_created_idx/);
  });
});
