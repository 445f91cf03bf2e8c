import { Hono } from 'hono';
import { ukToday } from '../../core/job-booking';
import { myDaysQuerySchema } from '../../core/schedule';
import type { AppEnv } from '../http/context';
import { validationError } from '../http/errors';
import { currentPerson, currentUser, requireUser } from '../http/session';
import { myDaysOf } from '../schedule/my-days';

/**
 * My days (docs/product.md, Team; Schedule): the jobs booked to the crews the signed-in person is
 * in, by day, from today for a week unless asked (`?from=YYYY-MM-DD&days=N`, N 1 to 42), for every
 * role. Someone in no crew (an office member, an owner who does not go out) gets the days empty.
 * Nothing about money: crews never see it.
 */
export const myDaysRoutes = new Hono<AppEnv>().get('/', requireUser, (c) => {
  const parsed = myDaysQuerySchema.safeParse({ from: c.req.query('from'), days: c.req.query('days') });
  if (!parsed.success) throw validationError(parsed.error);
  const { db, clock } = c.var.deps;
  const now = clock.now();
  const from = parsed.data.from ?? ukToday(now);
  return c.json(myDaysOf(db, now, currentUser(c).id, currentPerson(c).memberId, { from, days: parsed.data.days }));
});
