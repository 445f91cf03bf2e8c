import { eq } from 'drizzle-orm';
import type { SiteNotesInput } from '../../core/crew-day';
import { what3wordsOf } from '../../core/site-check';
import { immediate, type Db } from '../../db/client';
import { jobs } from '../../db/schema';
import type { Clock } from '../clock';
import type { JobRow } from '../jobs/jobs';

/**
 * The office's notes for the crew's job sheet (PATCH /api/jobs/{id}/site-notes): what3words for
 * the site and how to get in. Each is kept when sent; null or "" clears it. They are for the crew,
 * not the customer, so they change nothing the customer agreed to and may be set at any status.
 */
export function saveSiteNotes(db: Db, clock: Clock, job: Pick<JobRow, 'id'>, input: { what3words?: string | null; accessNotes?: string | null } & SiteNotesInput) {
  const set: Partial<Pick<JobRow, 'what3words' | 'accessNotes' | 'updatedAt'>> = {};
  if (input.what3words !== undefined) set.what3words = input.what3words ? what3wordsOf(input.what3words) : null;
  if (input.accessNotes !== undefined) set.accessNotes = input.accessNotes ? input.accessNotes : null;
  return immediate(db, (tx) => {
    const row = tx.update(jobs).set({ ...set, updatedAt: clock.now() }).where(eq(jobs.id, job.id)).returning({ what3words: jobs.what3words, accessNotes: jobs.accessNotes }).get()!;
    return { what3words: row.what3words, accessNotes: row.accessNotes };
  });
}
