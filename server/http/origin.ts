import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { ApiError } from './errors';
import { ownOrigins } from './public-access';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Same-origin check for unsafe requests that carry cookies (DECISIONS, Sessions):
 * SameSite=Lax already stops most cross-site posts; this refuses the rest. Browsers
 * send Sec-Fetch-Site and Origin on such requests, so a request from another site is
 * recognisable; clients without cookies (public embed endpoints, webhooks) pass.
 */
export const sameOriginForCookies: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method) || !c.req.header('cookie')) return next();

  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    throw new ApiError('FORBIDDEN', 'Cross-site request refused');
  }
  const origin = c.req.header('origin');
  if (origin) {
    if (!ownOrigins(c).has(origin)) throw new ApiError('FORBIDDEN', 'Cross-site request refused');
  }
  return next();
};
