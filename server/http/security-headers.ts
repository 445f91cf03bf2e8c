import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Security headers per path (CONVENTIONS 7). Hono's secureHeaders() defaults suit the
 * dashboard; the embed page and widget.js (a later issue) get their own, since
 * X-Frame-Options and CORP same-origin would break embedding.
 */

/**
 * Stripe.js needs its own origins when Stripe is the payment provider (Stripe's CSP
 * guide: script and frames from js.stripe.com, 3-D Secure frames from hooks.stripe.com,
 * API calls to api.stripe.com). With the demo provider nothing outside is allowed.
 */
const STRIPE_SOURCES = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

/** The dashboard SPA: own scripts only (plus Stripe.js when used), and it may never be framed (DECISIONS, Embed). */
export function dashboardHeaders(options: { stripe: boolean }): MiddlewareHandler {
  const extra = (kind: keyof typeof STRIPE_SOURCES) => (options.stripe ? STRIPE_SOURCES[kind] : []);
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...extra('script')],
      // React and the toast library set inline style attributes.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      connectSrc: ["'self'", ...extra('connect')],
      frameSrc: options.stripe ? extra('frame') : ["'none'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: false,
  });
}

/** JSON answers: nothing to render, nothing to frame, never cached by shared caches. */
const API_HEADERS: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Referrer-Policy', 'no-referrer'],
];

/**
 * Set before the handler runs, so c.json() builds the response with them: setting a header
 * on a finished response makes Hono copy the whole response, a third of a signed-in read's
 * time (issue 10). A route's own Cache-Control still wins, as headers passed to c.json() or
 * c.body() override these; a Response built by hand gets them afterwards.
 */
export const apiHeaders: MiddlewareHandler = async (c, next) => {
  for (const [name, value] of API_HEADERS) c.header(name, value);
  c.header('Cache-Control', 'no-store');
  await next();
  if (!c.res.headers.has('X-Content-Type-Options')) {
    for (const [name, value] of API_HEADERS) c.header(name, value);
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  }
};
