import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { UserTokensResponse } from '../../core/credits';
import { userTokens } from '../../db/schema';
import type { AppEnv } from '../http/context';
import { currentUser, requireUser } from '../http/session';

/** The signed-in user's credit balance and plan (SPEC 7, GET /api/user-tokens). */
export const creditRoutes = new Hono<AppEnv>().get('/user-tokens', requireUser, (c) => {
  const user = currentUser(c);
  const row = c.var.deps.db.select().from(userTokens).where(eq(userTokens.userId, user.id)).get();
  const body: UserTokensResponse = {
    tokensRemaining: row?.tokensRemaining ?? 0,
    tokensTotal: row?.tokensTotal ?? 0,
    subscriptionType: row?.subscriptionType ?? null,
    subscriptionStatus: row?.subscriptionStatus ?? null,
    lastRefillDate: row?.lastRefillDate?.toISOString() ?? null,
    nextRefillDate: row?.nextRefillDate?.toISOString() ?? null,
  };
  return c.json(body);
});
