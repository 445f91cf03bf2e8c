import type { Context, MiddlewareHandler } from 'hono';
import { findBusinessNamed, type BusinessRow } from '../businesses/businesses';
import type { Config } from '../config';
import type { AppEnv } from './context';
import { ApiError } from './errors';

/**
 * The public embed endpoints (docs/embedding.md, The public API): any site may call them with CORS,
 * never with credentials (the widget sends no cookie, and `*` forbids credentialed reads),
 * and a business that lists its site origins gets every other origin refused.
 */
export const publicCors: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === 'OPTIONS') {
    return c.body(null, 204, {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Max-Age': '600',
    });
  }
  await next();
  // Set after the handler, so error answers (404, 402, 429) are readable cross-origin too.
  c.header('Access-Control-Allow-Origin', '*');
  c.header('Access-Control-Expose-Headers', 'Retry-After');
};

/**
 * The unsafe requests other sites may send: a visitor's analysis, quote request and
 * funnel event from a business's embedded estimator, and Stripe's webhooks (billing's, and the customers'
 * card payments'). They need no session and get
 * none: the app neither reads nor refreshes a cookie on them.
 */
export function isPublicCrossOrigin(c: Context<AppEnv>): boolean {
  const path = c.req.path;
  if (c.req.method !== 'POST') return false;
  if (path === '/api/stripe/webhook' || path === '/api/card-payments/webhook') return true;
  // A visitor's analysis names its business in the address, or (as the original API had it) in the form
  // only: then any call that is not from our own pages is a visitor's, and never a session's.
  if (path === '/api/analyze-tree') return c.req.query('businessSlug') !== undefined || !fromOwnPage(c);
  return /^\/api\/businesses\/[a-z0-9-]+\/(?:leads|events)$/.test(path);
}

/**
 * Whether an unsafe request comes from our own pages: browsers send `Origin` on every POST,
 * PATCH and DELETE, and `Sec-Fetch-Site` beside it; a request with neither is not from a page
 * of ours (sameOriginOnly refuses it).
 */
export function fromOwnPage(c: Context<AppEnv>): boolean {
  const origin = c.req.header('origin');
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  if (origin !== undefined) return ownOrigins(c).has(origin);
  return fetchSite === 'same-origin';
}

/** The origins that are ours (ownOriginsOf), for this app's config. */
export function ownOrigins(c: Context<AppEnv>): ReadonlySet<string> {
  return ownOriginsOf(c.var.deps.config);
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
let known: { publicUrl: string; publicUrlSet: boolean; origins: ReadonlySet<string> } | undefined;

/**
 * The origins that are ours (docs/security.md, Cross-site requests): PUBLIC_URL's, and only it.
 * Never the address the request names: that comes from its Host header, which the client
 * writes, so a page on a rebinding name (Host: evil.example, Origin: http://evil.example) would
 * pass as our own. Without PUBLIC_URL (a first run, or development; production requires it),
 * publicUrl is http://localhost:PORT and the other loopback forms of that port are ours too:
 * 127.0.0.1 and [::1] reach the same server on the same machine, and no other site's page can
 * send them as its Origin (a rebinding page keeps its own name there).
 */
export function ownOriginsOf(config: Pick<Config, 'publicUrl' | 'publicUrlSet'>): ReadonlySet<string> {
  const { publicUrl, publicUrlSet } = config;
  if (known?.publicUrl === publicUrl && known.publicUrlSet === publicUrlSet) return known.origins;
  const url = new URL(publicUrl);
  const origins = new Set([url.origin]);
  if (!publicUrlSet) {
    const port = url.port === '' ? '' : `:${url.port}`;
    for (const host of LOOPBACK_HOSTS) origins.add(`${url.protocol}//${host}${port}`);
  }
  known = { publicUrl, publicUrlSet, origins };
  return origins;
}

/**
 * Refuses a browser on a site the business did not list. Our own origin (the /embed page,
 * whose framing is limited by frame-ancestors instead) is always allowed. A request with no
 * Origin is not from another site's page (browsers send one on every cross-origin fetch).
 */
export function requireAllowedOrigin(c: Context<AppEnv>, allowedOrigins: string[]): void {
  if (allowedOrigins.length === 0) return;
  const origin = c.req.header('origin');
  if (origin === undefined || ownOrigins(c).has(origin) || allowedOrigins.includes(origin)) return;
  throw new ApiError('FORBIDDEN', 'This estimator is not enabled on this website.');
}

/** The business a public request names, checked against its allowed site origins (else 404 / 403). */
export function publicBusiness(c: Context<AppEnv>, slug: string): BusinessRow {
  const business = findBusinessNamed(c.var.deps.db, slug);
  requireAllowedOrigin(c, business.allowedOrigins);
  return business;
}
