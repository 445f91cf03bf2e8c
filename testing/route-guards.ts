import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../server/app';
import { requireAdmin, requireUser } from '../server/http/session';
import { TestClient, type TestServer } from './harness';

/*
 * The refusals every signed-in route owes, run over the app's own route list (Hono's
 * app.routes: every method and path, each middleware an entry of its own), as unkey's
 * runCommonRouteTests does for its routes: a route added behind requireUser or requireAdmin is
 * tested without anyone listing it, and one behind neither must be named public, with why.
 */

export type Guard = 'user' | 'admin';
export interface GuardedRoute {
  method: string;
  /** As Hono holds it, e.g. /api/businesses/:id{[0-9]+}/leads. */
  path: string;
  guard: Guard;
}

const GUARDS = new Map<unknown, Guard>([
  [requireUser, 'user'],
  [requireAdmin, 'admin'],
]);

/** A middleware mounted with use('/prefix/*') reaches /prefix and everything under it. */
function covers(prefix: string, path: string): boolean {
  if (!prefix.endsWith('/*')) return prefix === path;
  const base = prefix.slice(0, -2);
  return path === base || path.startsWith(`${base}/`);
}

/**
 * The app's API routes (OPTIONS preflights and catch-alls aside), each with the guard in front of
 * it, if any: requireUser or requireAdmin on the route itself or mounted over its path.
 */
export function apiRoutes(app: App): { method: string; path: string; guard: Guard | null }[] {
  const routes = new Map<string, { method: string; path: string; guard: Guard | null }>();
  const mounted = app.routes.filter((r) => r.method === 'ALL' && GUARDS.has(r.handler));
  for (const r of app.routes) {
    if (!r.path.startsWith('/api/') || r.method === 'ALL' || r.method === 'OPTIONS') continue;
    const key = `${r.method} ${r.path}`;
    const route = routes.get(key) ?? { method: r.method, path: r.path, guard: null };
    const guards = [GUARDS.get(r.handler), ...mounted.filter((m) => covers(m.path, r.path)).map((m) => GUARDS.get(m.handler))];
    // requireAdmin is the stronger of the two.
    for (const guard of guards) if (guard && route.guard !== 'admin') route.guard = guard;
    routes.set(key, route);
  }
  return [...routes.values()];
}

/** A path with its parameters filled in (`:id{[0-9]+}` from `values`, else 1). */
export function concretePath(path: string, values: Record<string, string> = {}): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => values[name] ?? '1');
}

const hasParameters = (path: string) => /:\w+/.test(path);
/** Which kind of thing an owner-only path names: the segment after /api/ (analysis, businesses). */
const resourceOf = (path: string) => path.split('/')[2] ?? '';

export interface CommonRouteTests {
  server: TestServer;
  /** Every API route that needs no session, as "METHOD /path" the way Hono holds it, with why. */
  publicRoutes: Record<string, string>;
  /**
   * Someone signed in who is not an admin and owns nothing, and another user's resources by the
   * segment after /api/ (`analysis`, `businesses`): the path parameters that name them.
   */
  seed(): Promise<{ stranger: TestClient; othersResources: Record<string, Record<string, string>> }>;
}

/**
 * For every signed-in route: no session is 401 UNAUTHORIZED; an admin route is 403 FORBIDDEN to
 * a user; a route that names a resource by id is 404 NOT_FOUND for another user's. And no API
 * route is left out: each is guarded, or named in publicRoutes (which must all still exist).
 */
export function runCommonRouteTests(setup: CommonRouteTests): void {
  const routes = apiRoutes(setup.server.app);
  const guarded = routes.filter((r): r is GuardedRoute => r.guard !== null);
  const named = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

  describe('every API route is guarded or public by name', () => {
    it('no route is neither', () => {
      const unaccounted = routes.filter((r) => r.guard === null && !(named(r) in setup.publicRoutes)).map(named);
      expect(unaccounted, 'add a guard, or name the route in publicRoutes with why').toEqual([]);
    });
    it('every public route named still exists, unguarded', () => {
      const open = new Set(routes.filter((r) => r.guard === null).map(named));
      expect(Object.keys(setup.publicRoutes).filter((r) => !open.has(r))).toEqual([]);
    });
  });

  let stranger: TestClient;
  let othersResources: Record<string, Record<string, string>>;
  beforeAll(async () => {
    ({ stranger, othersResources } = await setup.seed());
  });

  describe.each(guarded)('$method $path', (route) => {
    const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};

    it('is 401 without a session', async () => {
      const res = await new TestClient(setup.server).request(route.method, concretePath(route.path), body);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    });

    if (route.guard === 'admin') {
      it('is 403 for a signed-in user who is not an admin', async () => {
        const res = await stranger.request(route.method, concretePath(route.path), body);
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' });
      });
    }

    if (hasParameters(route.path)) {
      it("is 404 for another user's resource", async () => {
        const values = othersResources[resourceOf(route.path)];
        expect(values, `seed() gives no ${resourceOf(route.path)} owned by someone else`).toBeDefined();
        const res = await stranger.request(route.method, concretePath(route.path, values), body);
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
      });
    }
  });
}
