import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * `column IN (the ids)` with the ids as one JSON parameter (SQLite's json_each), so the statement
 * reads the same whatever the number of ids: one plan for 10 bookings or 300, and no limit on
 * how many a statement may bind. SQLite looks each id up by the column's index as it would for a
 * list of `?`.
 */
export const inIds = (column: SQLWrapper, ids: readonly number[]): SQL => sql`${column} in (select value from json_each(${JSON.stringify(ids)}))`;
