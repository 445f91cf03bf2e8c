import { Hono } from 'hono';
import { ADMIN_SIGN_INS_SHOWN, adminAccountsQuerySchema, type AdminAccountPage, type AdminLogResponse, type AdminSignInList } from '../../core/admin';
import { logAccounts } from '../admin/account-log';
import { listAccounts } from '../admin/accounts';
import { latestSignIns } from '../admin/people';
import type { AppEnv } from '../http/context';
import { validationError } from '../http/errors';
import { ownPagesOnly } from '../http/origin';
import { currentUser, requireAdmin } from '../http/session';

/**
 * Admin only (docs/product.md, Accounts): 401 signed out, 403 FORBIDDEN for a user. requireAdmin reads
 * the role of the user row loaded with the session on this very request, so a demotion counts
 * at once.
 */
export const adminRoutes = new Hono<AppEnv>();
adminRoutes.use('*', requireAdmin);

/**
 * "Trigger Console Log" writes every account to the server log and answers `{ message, totalUsers }`.
 * A GET that acts: only from our own pages or a typed address, never another site's link (ownPagesOnly).
 */
adminRoutes.get('/log-accounts', ownPagesOnly, async (c) => {
  const { db, logger } = c.get('deps');
  const requestLogger = logger.child({ requestId: c.get('requestId') });
  return c.json((await logAccounts(db, requestLogger, currentUser(c).id)) satisfies AdminLogResponse);
});

/** The accounts table: `?query=` (username, e-mail or name containing it), `?page=` from 1, `?limit=` 1-100. */
adminRoutes.get('/accounts', (c) => {
  const parsed = adminAccountsQuerySchema.safeParse({ query: c.req.query('query'), page: c.req.query('page'), limit: c.req.query('limit') });
  if (!parsed.success) throw validationError(parsed.error);
  return c.json(listAccounts(c.get('deps').db, parsed.data) satisfies AdminAccountPage);
});

/** The install's newest sign-ins, per person with their team and role (docs/product.md, Team: the admin log keeps sign-ins per person). */
adminRoutes.get('/sign-ins', (c) => c.json({ signIns: latestSignIns(c.get('deps').db, ADMIN_SIGN_INS_SHOWN) } satisfies AdminSignInList));
