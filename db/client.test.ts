import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'treeanalyzer-db-'));
  dirs.push(dir);
  return join(dir, 'data.db');
}

describe('openDatabase', () => {
  it("drops ANALYZE's value samples, which make SQLite recompile indexed reads on every run, and keeps its row counts", () => {
    const file = tempFile();
    const first = openDatabase(file).$client;
    first.exec('create table t (id integer primary key, k text); create index t_k on t (k)');
    const insert = first.prepare('insert into t (k) values (?)');
    for (let i = 0; i < 500; i += 1) insert.run(`key-${i % 50}`);
    first.exec('analyze');
    expect((first.prepare('select count(*) as n from sqlite_stat4').get() as { n: number }).n).toBeGreaterThan(0);
    first.close();

    const reopened = openDatabase(file).$client;
    expect((reopened.prepare('select count(*) as n from sqlite_stat4').get() as { n: number }).n).toBe(0);
    expect((reopened.prepare("select count(*) as n from sqlite_stat1 where idx = 't_k'").get() as { n: number }).n).toBe(1);
    expect(reopened.prepare('select id from t where k = ?').all('key-7')).toHaveLength(10);
    reopened.close();
  });

  it('opens a database that never saw ANALYZE without creating statistics', () => {
    const db = openDatabase(tempFile()).$client;
    expect(db.prepare("select name from sqlite_schema where name like 'sqlite_stat%'").all()).toEqual([]);
    db.close();
  });
});
