import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listLeads } from '../server/businesses/leads';
import { insertRow, migrations, migrationsBefore } from '../testing/migrations';
import { migrateDatabase, openDatabase } from './client';

/*
 * Migration 0016 (several trees, one request; docs/product.md, Embed widget): a database with
 * leads from before it keeps every one of them as a request of one tree, its analysis, and
 * each past day of the funnel counts as many trees as leads.
 */
const dir = mkdtempSync(join(tmpdir(), 'treeanalyzer-0016-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const insert = insertRow;

describe('migration 0016', () => {
  it('gives every lead from before it one tree, its analysis, and each past funnel day as many trees as leads', () => {
    const db = openDatabase(join(dir, 'data.db'));
    migrateDatabase(db, migrationsBefore(dir, '0016_lead_trees'));
    const sqlite = db.$client;
    const userId = insert(sqlite, 'users', { username: 'ash', email: 'ash@example.com', password: 'x', created_at: 0 });
    const businessId = insert(sqlite, 'businesses', { owner_id: userId, name: 'Oak and Ash', slug: 'oak-and-ash', created_at: 0 });
    const analysis = (at: number) => insert(sqlite, 'tree_analyses', { user_id: userId, business_id: businessId, image_url: '/uploads/a.jpg', source: 'embed', created_at: at });
    const [first, second] = [analysis(1), analysis(2)];
    const lead = (analysisId: number | null, name: string, at: number) =>
      insert(sqlite, 'leads', { business_id: businessId, analysis_id: analysisId, name, phone: '07700 900123', created_at: at });
    lead(first, 'Rowan', 10);
    lead(second, 'Hazel', 20);
    // A lead whose analysis was deleted before the migration has no tree to keep.
    lead(null, 'Alder', 30);
    insert(sqlite, 'embed_funnel', { business_id: businessId, day: '2026-11-01', leads: 3 });

    migrateDatabase(db, migrations);
    const leads = listLeads(db, { id: businessId, ownerId: userId });
    expect(leads.map((l) => [l.name, l.trees.map((tree) => tree.analysisId)])).toEqual([
      ['Alder', [null]],
      ['Hazel', [second]],
      ['Rowan', [first]],
    ]);
    expect(sqlite.prepare('select lead_id, analysis_id, position from lead_trees order by analysis_id').all()).toHaveLength(2);
    expect(sqlite.prepare('select leads, trees from embed_funnel').get()).toEqual({ leads: 3, trees: 3 });
    sqlite.close();
  });
});
