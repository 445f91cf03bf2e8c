import type { Db } from './client';

/**
 * One value per open database, made on first use: a statement built and prepared once for a
 * read made on every request (drizzle rebuilding a query costs 0.3-0.5 ms, a prepared one about
 * 10 µs), or state that belongs to one database. Kept by the database, not the module, so each
 * test's own temp database gets its own, and none outlives its connection.
 */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) made.set(db, (value = make(db)));
    return value;
  };
}
