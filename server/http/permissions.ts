import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { RouterRoute } from 'hono/types';
import { AREAS, mayUse, PUBLIC_WHEN_QUERY, ROUTE_AREAS, routeKey, type RouteAccess } from '../../core/permissions';
import type { AppEnv } from './context';
import { ApiError } from './errors';

/**
 * Roles on every route (CONVENTIONS 17; docs/security.md, Roles): before the handler, the route
 * Hono matched is looked up in core/permissions.ts ROUTE_AREAS, and a signed-in person whose role
 * may not use its area is refused with 403 ROLE_FORBIDDEN and the sentence naming who can.
 * Signed out, a route that is not public answers 401. Which records inside an area a person may
 * see (their team's, a crew's own jobs) is the route's own question, answered with 404.
 */
export const enforceRoles: MiddlewareHandler<AppEnv> = async (c, next) => {
  const route = handlerRoute(c.req.method, matchedRoutes(c));
  // No route of ours matched: the API's catch-all answers 404.
  if (!route) return next();
  const key = keyOf(route);
  const access: RouteAccess | undefined = ROUTE_AREAS[key];
  // createApp refuses to start with a route missing from the table (assertEveryRouteHasAnArea).
  if (access === undefined) throw new ApiError('INTERNAL_ERROR', 'Something went wrong on our side. Please try again.');
  if (access === 'public') return next();
  const person = c.get('person');
  // A visitor's analysis: named by the query, or from another site with the business in the form
  // (no session either way), the route's own checks decide (routes/analysis.ts embedGate).
  const publicWith = PUBLIC_WHEN_QUERY[key];
  if (publicWith && (c.req.query(publicWith) !== undefined || !person)) return next();
  if (!person) throw new ApiError('UNAUTHORIZED', 'Please sign in to continue');
  if (!mayUse(person.role, access)) throw new ApiError('ROLE_FORBIDDEN', AREAS[access].refusal);
  return next();
};

/** The table's key of each route, made once: the pattern-stripping regex stays off every request's path. */
const keys = new WeakMap<RouterRoute, string>();
function keyOf(route: RouterRoute): string {
  let key = keys.get(route);
  if (key === undefined) keys.set(route, (key = routeKey(route.method, route.path)));
  return key;
}

/** The route that answers: the first one matched for the method (HEAD is answered by GET), not a middleware or a catch-all. */
function handlerRoute(method: string, routes: RouterRoute[]): RouterRoute | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  return routes.find((r) => r.method === wanted);
}

/**
 * Every route the app serves has a place in the table, or the app does not start: a route added
 * without deciding who may use it fails every test that builds the app, not only the matrix.
 */
export function assertEveryRouteHasAnArea(routes: readonly { method: string; path: string }[]): void {
  const missing = [...new Set(routes.filter((r) => r.method !== 'ALL').map((r) => routeKey(r.method, r.path)))].filter((key) => !(key in ROUTE_AREAS));
  if (missing.length > 0) {
    throw new Error(`These routes have no area in core/permissions.ts ROUTE_AREAS; say who may use them: ${missing.join(', ')}`);
  }
}
