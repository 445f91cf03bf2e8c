import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { personOf } from '../server/team/membership';
import { teamView } from '../server/team/members';
import { insertRow, migrations, migrationsBefore } from '../testing/migrations';
import { migrateDatabase, openDatabase } from './client';
import { jobs, users } from './schema';

/*
 * Migration 0027 (a team per account; docs/product.md, Team): a database made by the release
 * before it, with an account and a job, upgrades; the account is then the owner of a team of one
 * and its job is as it was.
 */
const dir = mkdtempSync(join(tmpdir(), 'treeanalyzer-0027-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const insert = insertRow;

describe('migration 0027', () => {
  it('makes every account from before it the owner of a team of one, its job unchanged', () => {
    const db = openDatabase(join(dir, 'data.db'));
    migrateDatabase(db, migrationsBefore(dir, '0027_team'));
    const sqlite = db.$client;
    expect(sqlite.prepare("select name from sqlite_master where name = 'team_members'").get()).toBeUndefined();
    const userId = insert(sqlite, 'users', { username: 'ash', email: 'ash@example.com', password: 'x', first_name: 'Ash', last_name: 'Grove', created_at: 1_700_000_000_000, updated_at: 1_700_000_000_000 });
    insert(sqlite, 'system_settings', { user_id: userId, trading_name: 'Oak & Ash Tree Surgery', created_at: 0, updated_at: 0 });
    const jobId = insert(sqlite, 'jobs', { user_id: userId, customer_name: 'Rowan Hale', site_address: '1 Mill Lane', vat_mode: 'none', status: 'sent', created_at: 10, updated_at: 20 });
    const jobBefore = sqlite.prepare('select * from jobs where id = ?').get(jobId) as Record<string, unknown>;

    migrateDatabase(db, migrations);

    const user = db.select().from(users).where(eq(users.id, userId)).get()!;
    const { person, accountId, removed } = personOf(db, user);
    expect({ role: person.role, accountId, removed }).toEqual({ role: 'owner', accountId: userId, removed: false });
    const team = teamView(db, { accountId: userId, personId: userId });
    expect(team).toEqual({
      members: [{ id: person.memberId, name: 'Ash Grove', email: 'ash@example.com', role: 'owner', status: 'active', lastSeenAt: null, you: true }],
      invitations: [],
    });
    // The job is the account's as before: every column it had keeps its value, and 0027's 'by'
    // columns are empty (nobody was recorded then). Columns later migrations add are theirs to test.
    const jobAfter = sqlite.prepare('select * from jobs where id = ?').get(jobId) as Record<string, unknown>;
    expect(Object.fromEntries(Object.keys(jobBefore).map((column) => [column, jobAfter[column]]))).toEqual(jobBefore);
    expect({ created_by: jobAfter.created_by, booked_by: jobAfter.booked_by, done_by: jobAfter.done_by }).toEqual({ created_by: null, booked_by: null, done_by: null });
    expect(db.select().from(jobs).where(eq(jobs.userId, userId)).all().map((j) => j.customerName)).toEqual(['Rowan Hale']);
    sqlite.close();
  });
});
