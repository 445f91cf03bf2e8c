import { Hono } from 'hono';
import { scheduleQuerySchema } from '../../core/schedule';
import type { AppEnv } from '../http/context';
import { validationError } from '../http/errors';
import { currentUser, requireUser } from '../http/session';
import { scheduleOf } from '../schedule/schedule';

/**
 * The schedule (docs/product.md, Schedule): GET /api/schedule?from=YYYY-MM-DD&days=N, the team's
 * crews and days. Who may call it is core/permissions.ts (the schedule area: the owner and the
 * office); the team's own records only.
 */
export const scheduleRoutes = new Hono<AppEnv>().use(requireUser).get('/', async (c) => {
  const parsed = scheduleQuerySchema.safeParse({ from: c.req.query('from'), days: c.req.query('days') });
  if (!parsed.success) throw validationError(parsed.error);
  const { db, clock } = c.var.deps;
  return c.json({ schedule: await scheduleOf(db, clock.now(), currentUser(c).id, parsed.data) });
});
