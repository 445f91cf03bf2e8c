import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/context';
import { ownOrigins } from '../http/public-access';

/**
 * How the customer's server-rendered pages answer (the quote page, /quote/<token>, and the
 * invoice page, /invoice/<token>): headers that keep a page whose address holds the link's token
 * out of search engines, caches and referrers, a policy that lets in nothing but the page's own
 * images, its one inline style and script (by this answer's nonce) and forms to us, and the page
 * gzipped when the browser takes it.
 */
export type PageContext = Context<AppEnv>;

/**
 * Where Stripe Checkout's pages are: a form that pays by card posts to us and is redirected there,
 * and browsers hold a form's redirects to form-action too.
 */
const STRIPE_CHECKOUT_ORIGIN = 'https://checkout.stripe.com';

/**
 * Nothing from anywhere but the page's own photos, its one inline style and script (by this
 * answer's nonce), and forms to us (and, where card payments go through Stripe, on to its Checkout).
 */
function pagePolicy(c: PageContext, nonce?: string): string {
  const inline = nonce ? [`style-src 'nonce-${nonce}'`, `script-src 'nonce-${nonce}'`] : [];
  const kind = c.var.deps.cardPayments?.kind;
  const forms = kind === 'own' || kind === 'connect' ? `form-action 'self' ${STRIPE_CHECKOUT_ORIGIN}` : "form-action 'self'";
  return ["default-src 'none'", "img-src 'self'", ...inline, forms, "frame-ancestors 'none'", "base-uri 'none'"].join('; ');
}

/** Every answer under /quote/ and /invoice/: never indexed, cached or followed by a referrer; a page adds its nonce (html()). */
export const pageHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.header('Content-Security-Policy', pagePolicy(c));
  c.header('X-Robots-Tag', 'noindex');
  c.header('Cache-Control', 'private, no-store');
  // The token is in the address: no page it links to may learn it.
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('X-Frame-Options', 'DENY');
  c.header('Cross-Origin-Resource-Policy', 'same-origin');
  await next();
};

/** Whether Accept-Encoding names gzip with a weight above 0. */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [name, weight] = part.split(';').map((s) => s.trim());
    return name?.toLowerCase() === 'gzip' && !(weight && /^q=0(\.0*)?$/.test(weight));
  });
}

/**
 * A page, made with a fresh nonce for its inline style and script and gzipped when the browser
 * takes it (the page is made per request, so it is compressed per request too).
 */
export function html(c: PageContext, render: (nonce: string) => string, status: ContentfulStatusCode = 200): Response {
  const nonce = randomBytes(16).toString('base64');
  const body = render(nonce);
  c.header('Content-Security-Policy', pagePolicy(c, nonce));
  c.header('Vary', 'Accept-Encoding');
  if (!acceptsGzip(c.req.header('accept-encoding'))) return c.html(body, status);
  c.header('Content-Type', 'text/html; charset=UTF-8');
  c.header('Content-Encoding', 'gzip');
  return c.body(new Uint8Array(gzipSync(body)), status);
}


/**
 * Whether a form post came from our own page. A browser names the page's origin, except that
 * under this page's no-referrer policy it sends `Origin: null` (Fetch, "serialize a request
 * origin"), which on its own could be any sandboxed page. So: another site by Sec-Fetch-Site, or
 * an Origin that is neither ours nor null, is refused; null passes. A page elsewhere that sends
 * null still needs the link's 256-bit token, which is the credential here, not a cookie.
 */
export function fromThisPage(c: PageContext): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = c.req.header('origin');
  return origin === undefined || origin === 'null' || ownOrigins(c).has(origin);
}
