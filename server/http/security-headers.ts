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

/** The dashboard SPA: own scripts only (plus Stripe.js when used), and it may never be framed (docs/security.md, Headers per path). */
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
    // Both set for every answer by transportHeaders (app.ts).
    strictTransportSecurity: false,
    permissionsPolicy: {},
  });
}

/**
 * Browser features no page of ours uses, switched off for our pages and anything they embed
 * (docs/security.md, Headers per path). Payment is left at its default (self) for Stripe's card fields, and features
 * browsers do not know are left out, since they log a console warning.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'serial=()',
  'usb=()',
].join(', ');

/** One year, and every subdomain: the product is served over https once PUBLIC_URL says so. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * On every answer: Permissions-Policy, and Strict-Transport-Security when PUBLIC_URL is https
 * (over plain http a browser ignores it, and a local first run must not pin localhost to
 * https). Set before the handler, so the answer is built with them (see apiHeaders).
 */
export function transportHeaders(options: { https: boolean }): MiddlewareHandler {
  return async (c, next) => {
    c.header('Permissions-Policy', PERMISSIONS_POLICY);
    if (options.https) c.header('Strict-Transport-Security', HSTS);
    await next();
  };
}

/** JSON answers: nothing to render, nothing to frame, never cached by shared caches. */
export const API_HEADERS: [string, string][] = [
  ['X-Content-Type-Options', 'nosniff'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Referrer-Policy', 'no-referrer'],
];

/**
 * Set before the handler runs, so c.json() builds the response with them: setting a header
 * on a finished response makes Hono copy the whole response, a third of a signed-in read's
 * time. A route's own Cache-Control still wins, as headers passed to c.json() or
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
