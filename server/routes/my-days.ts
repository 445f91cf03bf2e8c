import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { requireUser } from '../http/session';

/**
 * My days (docs/product.md, Team): the jobs booked to the crews the signed-in person is in, for
 * every role. Crews come with the next issue (the crews' week); until then nobody is in one, so
 * the list is empty and the page says "No work booked for you yet".
 */
export const myDaysRoutes = new Hono<AppEnv>().get('/', requireUser, (c) => c.json({ days: [] }));
