import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { listLeads } from '../server/businesses/leads';
import { migrateDatabase, openDatabase } from './client';

/*
 * Migration 0016 (several trees, one request; docs/product.md, Embed widget): a database with
 * leads from before it keeps every one of them as a request of one tree, its analysis, and
 * each past day of the funnel counts as many trees as leads.
 */
const migrations = fileURLToPath(new URL('./migrations', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'treeanalyzer-0016-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The migrations folder as it was before `tag`: the same files, the journal cut before it. */
function migrationsBefore(tag: string): string {
  const folder = join(dir, 'before');
  cpSync(migrations, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(at).toBeGreaterThan(0);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return folder;
}

/** Inserts a row, any NOT NULL column without a default and not given filled with 1. */
function insert(sqlite: Database.Database, table: string, values: Record<string, unknown>): number {
  const columns = sqlite.prepare(`pragma table_info(${table})`).all() as { name: string; notnull: number; dflt_value: unknown; pk: number }[];
  const row: Record<string, unknown> = { ...values };
  for (const column of columns) if (column.notnull && column.dflt_value === null && !column.pk && !(column.name in row)) row[column.name] = 1;
  const names = Object.keys(row);
  const sql = `insert into ${table} (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`;
  return Number(sqlite.prepare(sql).run(...names.map((name) => row[name] as string | number | null)).lastInsertRowid);
}

describe('migration 0016', () => {
  it('gives every lead from before it one tree, its analysis, and each past funnel day as many trees as leads', () => {
    const db = openDatabase(join(dir, 'data.db'));
    migrateDatabase(db, migrationsBefore('0016_lead_trees'));
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
