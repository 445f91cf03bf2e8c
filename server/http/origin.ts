import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { ApiError } from './errors';
import { fromOwnPage, isPublicCrossOrigin, ownOrigins } from './public-access';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const refused = () => new ApiError('FORBIDDEN', 'Cross-site request refused');

/**
 * Every unsafe /api request must come from our own pages (docs/security.md),
 * whether or not it carries a cookie: checking only requests with a cookie let a form on
 * another site sign a visitor into the attacker's account (login CSRF). Browsers send
 * `Origin` on every POST, PATCH and DELETE, and `Sec-Fetch-Site` beside it; a request with
 * neither is refused too, as no page of ours sends one. The public embed endpoints and the
 * Stripe webhook are the only exceptions (isPublicCrossOrigin), and they set no cookie.
 */
export const sameOriginOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method) || isPublicCrossOrigin(c)) return next();
  if (!fromOwnPage(c)) throw refused();
  return next();
};

/**
 * For a GET that acts (the admin's "Trigger Console Log", a GET as the product describes it):
 * the check above covers unsafe methods only, and the session cookie is SameSite=Lax, which a
 * link or redirect on another site carries on a top-level navigation. Refused when the browser
 * says the request came from another site (`Sec-Fetch-Site` other than same-origin or none) or
 * names another origin. `none` is a navigation the user started (the address bar, a bookmark):
 * no other site can make a browser send it, so an admin typing the address still may. A client
 * that sends neither header (curl, a browser from before 2023) is no other site's page either.
 */
export const ownPagesOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const fetchSite = c.req.header('sec-fetch-site');
  const origin = c.req.header('origin');
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') throw refused();
  if (origin !== undefined && !ownOrigins(c).has(origin)) throw refused();
  return next();
};
