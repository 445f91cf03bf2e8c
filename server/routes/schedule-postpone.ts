import { Hono } from 'hono';
import { postponeSchema } from '../../core/schedule';
import type { AppEnv } from '../http/context';
import { currentActor, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { postponeDay } from '../schedule/postpone';

/**
 * A rained-off day (docs/product.md, Schedule: postponing a day): POST /api/schedule/postpone
 * moves the day's bookings to each crew's next working day with room and e-mails the customers
 * (schedule/postpone.ts). Who may: core/permissions.ts, the schedule area (the owner and the office).
 */
export const schedulePostponeRoutes = new Hono<AppEnv>().use(requireUser).post('/postpone', async (c) => {
  const request = await readJson(c, postponeSchema);
  return c.json(postponeDay(c.var.deps, currentActor(c), request));
});
