import type { Context } from 'hono';
import { jobForPerson } from '../crew-day/access';
import type { AppEnv } from '../http/context';
import { currentPerson, currentUser } from '../http/session';
import type { JobRow } from '../jobs/jobs';

/**
 * The job of the route's `:id` (or `jobId`) when the signed-in person may work on it: the owner
 * and the office any of the team's jobs, a crew member only one booked on a crew they are in;
 * anything else 404 as another team's job (server/crew-day/access.ts).
 */
export function crewJobOf(c: Context<AppEnv>, jobId: number = Number(c.req.param('id'))): JobRow {
  const person = currentPerson(c);
  return jobForPerson(c.var.deps.db, currentUser(c).id, { role: person.role, memberId: person.memberId }, jobId);
}
