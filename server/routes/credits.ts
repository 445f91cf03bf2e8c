import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { currentUser, requireUser } from '../http/session';
import { tokensView } from '../credits/tokens-view';

/** The signed-in user's credit balance, plan and pass (GET /api/user-tokens). */
export const creditRoutes = new Hono<AppEnv>().get('/user-tokens', requireUser, (c) =>
  c.json(tokensView(c.get('deps').db, c.get('deps').clock, currentUser(c).id)),
);
