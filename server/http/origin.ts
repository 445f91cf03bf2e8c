import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { ApiError } from './errors';
import { fromOwnPage, isPublicCrossOrigin } from './public-access';

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
