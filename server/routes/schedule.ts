import { Hono } from 'hono';
import { scheduleQuerySchema } from '../../core/schedule';
import type { AppEnv } from '../http/context';
import { validationError } from '../http/errors';
import { currentUser, requireUser } from '../http/session';
import { scheduleOf } from '../schedule/schedule';
import { scheduleWeather } from '../schedule/schedule-weather';
import { getScheduleSettings } from '../settings/settings';

/**
 * The schedule (docs/product.md, Schedule): GET /api/schedule?from=YYYY-MM-DD&days=N, the team's
 * crews and days. Who may call it is core/permissions.ts (the schedule area: the owner and the
 * office); the team's own records only.
 */
export const scheduleRoutes = new Hono<AppEnv>().use(requireUser).get('/', async (c) => {
  const parsed = scheduleQuerySchema.safeParse({ from: c.req.query('from'), days: c.req.query('days') });
  if (!parsed.success) throw validationError(parsed.error);
  const { db, clock } = c.var.deps;
  const accountId = currentUser(c).id;
  const weather = scheduleWeather(c.var.deps, getScheduleSettings(db, accountId).climbingWindLimitMs);
  return c.json({ schedule: await scheduleOf(db, clock.now(), accountId, parsed.data, { weather }) });
});
