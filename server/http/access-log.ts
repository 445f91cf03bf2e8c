import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../log';
import type { AppEnv } from './context';

/** A request id from the proxy is kept when it looks like one; anything else is replaced. */
const GOOD_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * The access line is built from named scalar fields only (never a header, cookie, query or
 * body), so it needs no redaction. pino's redact guard, which every other line keeps, costs
 * 15-40 µs a line (it copies the object to censor it): a tenth of a signed-in read's time.
 * One child logger without it per app logger, so the line's shape is unchanged.
 */
const accessLoggers = new WeakMap<Logger, Logger>();
function accessLoggerOf(logger: Logger): Logger {
  let plain = accessLoggers.get(logger);
  if (!plain) accessLoggers.set(logger, (plain = logger.child({}, { redact: [] })));
  return plain;
}

/**
 * A quote link's token is the customer's credential (CONVENTIONS 13): the line keeps where it
 * led (/quote/, /api/quotes/) but not the token, so reading the logs opens no one's quote.
 */
const QUOTE_TOKEN_IN_PATH = /^(\/quote\/|\/api\/quotes\/)[^/]+/;
/** A team invitation's token, as the join page (/join/) and its API carry it; an invitation's numeric id stays. */
const INVITATION_TOKEN_IN_PATH = /^(\/join\/|\/api\/team\/invitations\/)(?![0-9]+(?:\/|$))[^/]+/;
export const loggedPath = (path: string) => path.replace(QUOTE_TOKEN_IN_PATH, '$1[token]').replace(INVITATION_TOKEN_IN_PATH, '$1[token]');

/**
 * One access line per request (docs/operations.md, Logs) and its id, answered as `X-Request-Id` and carried
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
    accessLoggerOf(c.get('deps').logger).info(
      {
        requestId,
        method: c.req.method,
        path: loggedPath(c.req.path),
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        // Who asked (the person), and the team account they worked in when it is another's.
        userId: c.get('person')?.user.id ?? null,
        ...(c.get('user') && c.get('user')?.id !== c.get('person')?.user.id ? { accountId: c.get('user')?.id } : {}),
      },
      'request',
    );
  }
};
