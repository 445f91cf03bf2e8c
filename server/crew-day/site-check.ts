import type { Db } from '../../db/client';

/** What the site check still lacks, in words (first version: the check is not kept yet, so everything). */
export function siteCheckMissing(_db: Db, _jobId: number, _date: string): string[] {
  return ['The hazards are not answered yet.', 'The emergency plan is not given yet.', 'No one has signed the check yet (at least two people on site sign).'];
}
