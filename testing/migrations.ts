import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

/*
 * For tests that upgrade a database made by an earlier release (db/*-migration.test.ts): the
 * migrations folder as it stood before a migration, and rows written the way that release wrote them.
 */
/** The migrations folder as it is now: every migration. */
export const migrations = fileURLToPath(new URL('../db/migrations', import.meta.url));

/** A copy of the migrations folder in `dir` as it was before `tag`: the same files, the journal cut before it. */
export function migrationsBefore(dir: string, tag: string): string {
  const folder = join(dir, 'before');
  cpSync(migrations, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  if (at <= 0) throw new Error(`no migration ${tag} after the first in the journal`);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return folder;
}

/** Inserts a row, any NOT NULL column without a default and not given filled with 1. */
export function insertRow(sqlite: Database.Database, table: string, values: Record<string, unknown>): number {
  const columns = sqlite.prepare(`pragma table_info(${table})`).all() as { name: string; notnull: number; dflt_value: unknown; pk: number }[];
  const row: Record<string, unknown> = { ...values };
  for (const column of columns) if (column.notnull && column.dflt_value === null && !column.pk && !(column.name in row)) row[column.name] = 1;
  const names = Object.keys(row);
  const sql = `insert into ${table} (${names.join(', ')}) values (${names.map(() => '?').join(', ')})`;
  return Number(sqlite.prepare(sql).run(...names.map((name) => row[name] as string | number | null)).lastInsertRowid);
}
