import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * Opens the SQLite file with the pragmas the product relies on: WAL so readers never
 * block the writer, foreign keys on (SQLite's default is off), and a busy timeout so a
 * second writer waits instead of failing with SQLITE_BUSY.
 */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  dropValueSamples(sqlite);
  return drizzle(sqlite, { schema }) as Db;
}

/**
 * better-sqlite3 builds SQLite with STAT4. Once ANALYZE (or `PRAGMA optimize`) has written
 * value samples to sqlite_stat4, SQLite compiles every statement that compares a bound value
 * with an indexed column again on each run, to fit its plan to the value: the signed-in
 * session read went from 4 to 40 µs. Every hot read here is an index lookup whose
 * plan does not depend on the value, so the samples are dropped when the database is opened;
 * sqlite_stat1's row counts, which need no recompiling, are kept. Nothing in the product runs
 * ANALYZE; this undoes an operator's.
 */
function dropValueSamples(sqlite: Database.Database): void {
  const samples = sqlite.prepare("select 1 from sqlite_schema where type = 'table' and name = 'sqlite_stat4'").get();
  if (!samples) return;
  sqlite.exec('delete from sqlite_stat4');
  // Reloads the planner's statistics without the samples.
  sqlite.exec('analyze sqlite_schema');
}

/**
 * Applies the committed SQL migrations in `folder` (config.migrationsDir, MIGRATIONS_DIR).
 * The caller names the folder: resolved from this module's own URL it would point inside
 * dist/server/ once the server is bundled, where there are no migrations.
 */
export function migrateDatabase(db: Db, folder: string): void {
  if (!existsSync(join(folder, 'meta', '_journal.json'))) {
    throw new Error(`No database migrations in ${folder} (meta/_journal.json is missing). Set MIGRATIONS_DIR to the project's db/migrations folder.`);
  }
  migrate(db, { migrationsFolder: folder });
}

/**
 * Runs `fn` in a BEGIN IMMEDIATE transaction: the write lock is taken up front, so a
 * read-then-write (a balance check, a single-use token) cannot interleave with another
 * writer. better-sqlite3 is synchronous, so `fn` must not await.
 */
export function immediate<T>(db: Db, fn: (tx: Db) => T): T {
  return db.$client.transaction(() => fn(db)).immediate();
}
