import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './client';
import { perDatabase } from './per-database';

const opened: { db: Db; dir: string }[] = [];
function database(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'per-database-'));
  const db = openDatabase(join(dir, 'test.db'));
  opened.push({ db, dir });
  return db;
}

afterEach(() => {
  for (const { db, dir } of opened.splice(0)) {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('perDatabase', () => {
  it('makes the value once per database, on first use', () => {
    let made = 0;
    const statement = perDatabase((db) => {
      made += 1;
      return db.$client.prepare('select 1 as one');
    });
    const [a, b] = [database(), database()];
    expect(made).toBe(0);
    expect(statement(a)).toBe(statement(a));
    expect(made).toBe(1);
    expect(statement(b)).not.toBe(statement(a));
    expect(made).toBe(2);
    expect(statement(a).get()).toEqual({ one: 1 });
  });
});
