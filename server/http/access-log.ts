import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';

/** A request id from the proxy is kept when it looks like one; anything else is replaced. */
const GOOD_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * One access line per request (issue 11) and its id, answered as `X-Request-Id` and carried
 * by every other line the request logs, so a user's "it failed at 10:42" finds its cause.
 * The path is logged without its query (a reset link's token travels there); no header,
 * cookie or body is logged.
 */
export const accessLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  const incoming = c.req.header('x-request-id');
  const requestId = incoming && GOOD_ID.test(incoming) ? incoming : randomUUID();
  c.set('requestId', requestId);
  try {
    await next();
  } finally {
    const status = c.res.status;
    // Set on the finished answer's own headers: no copy of the response is made.
    try {
      c.res.headers.set('X-Request-Id', requestId);
    } catch {
      // A response with immutable headers (none of ours) keeps its own.
    }
    c.get('deps').logger.info(
      {
        requestId,
        method: c.req.method,
        path: c.req.path,
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        userId: c.get('user')?.id ?? null,
      },
      'request',
    );
  }
};
