import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * A crew's past pace (docs/product.md, Schedule: the overrun chance): for each of its done jobs
 * with actual times, the actual minutes over the estimate's midpoint, the parts with an actual
 * only (a tree whose cleanup nobody timed compares its cutting and prep). Actual times are kept on
 * the trees' analyses when the job is marked done (server/jobs/booking.ts markJobDone), and the job
 * keeps the crew it was booked on (jobs.crew_id), so a deleted crew's past still counts for nobody
 * else. The newest RECENT_JOBS jobs of each crew, in one statement for every crew.
 */
export const RECENT_JOBS = 30;

const part = (actual: string, min: string, max: string) =>
  `case when a.${actual} is not null and a.${min} is not null then (a.${min} + coalesce(a.${max}, a.${min})) / 2.0 else 0 end`;

export function crewPaces(db: Db, accountId: number, crewIds: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (crewIds.length === 0) return out;
  const estimated = [part('actual_cutting_time', 'cutting_time_min', 'cutting_time_max'), part('actual_prep_time', 'prep_time_min', 'prep_time_max'), part('actual_cleanup_time', 'cleanup_time_min', 'cleanup_time_max')].join(' + ');
  const actual = `case when a.cutting_time_min is not null then coalesce(a.actual_cutting_time, 0) else 0 end + case when a.prep_time_min is not null then coalesce(a.actual_prep_time, 0) else 0 end + case when a.cleanup_time_min is not null then coalesce(a.actual_cleanup_time, 0) else 0 end`;
  const rows = db.all<{ crewId: number; actual: number; estimated: number }>(sql`
    select crew_id as crewId, actual, estimated from (
      select j.crew_id, sum(${sql.raw(actual)}) as actual, sum(${sql.raw(estimated)}) as estimated,
        row_number() over (partition by j.crew_id order by j.done_at desc, j.id desc) as rn
      from jobs j
      join job_items i on i.job_id = j.id and i.kind = 'tree'
      join tree_analyses a on a.id = i.analysis_id
      where j.user_id = ${accountId} and j.status = 'done' and j.crew_id in (select value from json_each(${JSON.stringify(crewIds)}))
        and (a.actual_cutting_time is not null or a.actual_prep_time is not null or a.actual_cleanup_time is not null)
      group by j.id
    ) where rn <= ${RECENT_JOBS} and actual > 0 and estimated > 0`);
  for (const row of rows) out.set(row.crewId, [...(out.get(row.crewId) ?? []), row.actual / row.estimated]);
  return out;
}
