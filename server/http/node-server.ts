import type { ServerOptions } from 'node:http';

/**
 * How long an idle keep-alive connection stays open: 65 s, not Node's 5 s. A client that
 * reuses a connection (a reverse proxy's upstream pool, an HTTP library's agent) can send its
 * next request in the same instant Node closes the idle socket, and that request dies with
 * ECONNRESET, which nobody retries for a POST. Keeping the server's timeout above the usual
 * client and proxy idle times (60 s for nginx's keepalive_timeout and most load balancers) makes
 * the client the side that closes. Headers still have to arrive within headersTimeout (60 s),
 * and bodies have their own idle bounds (server/http/body.ts).
 */
export const KEEP_ALIVE_MS = 65_000;

/** Options for @hono/node-server's serve(), shared by main.ts and the test harness. */
export const nodeServerOptions: ServerOptions = { keepAliveTimeout: KEEP_ALIVE_MS };
