import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../http/context';

/**
 * How the customer's server-rendered pages answer (the quote page, /quote/<token>, and the
 * invoice page, /invoice/<token>): headers that keep a page whose address holds the link's token
 * out of search engines, caches and referrers, a policy that lets in nothing but the page's own
 * images, its one inline style and script (by this answer's nonce) and forms to us, and the page
 * gzipped when the browser takes it.
 */
export type PageContext = Context<AppEnv>;

/** Nothing from anywhere but the page's own photos, its one inline style and script (by this answer's nonce), and forms to us. */
function pagePolicy(nonce?: string): string {
  const inline = nonce ? [`style-src 'nonce-${nonce}'`, `script-src 'nonce-${nonce}'`] : [];
  return ["default-src 'none'", "img-src 'self'", ...inline, "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"].join('; ');
}

/** Every answer under /quote/ and /invoice/: never indexed, cached or followed by a referrer; a page adds its nonce (html()). */
export const pageHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.header('Content-Security-Policy', pagePolicy());
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
  c.header('Content-Security-Policy', pagePolicy(nonce));
  c.header('Vary', 'Accept-Encoding');
  if (!acceptsGzip(c.req.header('accept-encoding'))) return c.html(body, status);
  c.header('Content-Type', 'text/html; charset=UTF-8');
  c.header('Content-Encoding', 'gzip');
  return c.body(new Uint8Array(gzipSync(body)), status);
}

