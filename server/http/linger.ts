import type { HttpBindings } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';

/**
 * The lingering close (docs/security.md, Uploads and hostile input), as nginx does it
 * (lingering_close, lingering_time, lingering_timeout): after a request is refused before its
 * body was read to the end (413 for a 9 MB description, 415, 403, 429...), the answer goes out
 * at once and the rest of the body is read and thrown away, within bounds, before the
 * connection is left. Closing a socket with unread data makes the kernel send a reset, and a
 * client still sending (one that reads the answer only when it has sent everything, as many
 * do, or whose link is slower than the server's half-second drain in @hono/node-server) got
 * EPIPE or ECONNRESET instead of its 4xx.
 */
export interface LingerBounds {
  /** The most bytes read and thrown away after the answer; a body declared larger is not lingered on. */
  maxBytes: number;
  /** Given up when the client sends nothing for this long. */
  idleMs: number;
  /** Given up after this long in all. */
  totalMs: number;
}

/**
 * 20 MB: twice the photo upload's 10 MB cap, so a photo up to twice too large still hears why.
 * 5 s idle and 30 s in all are nginx's lingering_timeout and lingering_time defaults
 * (nginx.org/en/docs/http/ngx_http_core_module.html#lingering_time): at 5.5 Mbit/s, a slow
 * phone uplink, 20 MB takes 30 s.
 */
export const LINGER_BOUNDS: LingerBounds = { maxBytes: 20 * 1024 * 1024, idleMs: 5_000, totalMs: 30_000 };

/** The node adapter's request, when the app runs under @hono/node-server (not under app.request in a unit test). */
function nodeRequest(env: unknown): HttpBindings['incoming'] | undefined {
  const incoming = (env as Partial<HttpBindings> | undefined)?.incoming;
  return incoming && typeof incoming.destroy === 'function' ? incoming : undefined;
}

/**
 * App middleware: when the answer is a refusal (4xx or 5xx) and the request's body was not read
 * to its end, the answer is sent whole (with its length, so the client can read it at once)
 * while the response stays open until the rest of the body is discarded; then the connection
 * carries on (keep-alive) or, past a bound, is closed. Not after a 408: that client stopped
 * sending, and waiting on it is what the 408 ended. A body that declares more than the bound
 * would be cut off anyway: it is left to the adapter, which answers and closes.
 */
export function lingerAfterRefusal(bounds: LingerBounds = LINGER_BOUNDS): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const request = c.req.raw;
    await next();
    const { status } = c.res;
    if (status < 400 || status === 408 || c.req.method === 'GET' || c.req.method === 'HEAD') return;
    const incoming = nodeRequest(c.env);
    if (!incoming || incoming.readableEnded || incoming.destroyed) return;
    const declared = Number(request.headers.get('content-length') ?? Number.NaN);
    if (declared > bounds.maxBytes) return;
    const body = request.body;
    // A reader that still holds the body (none of ours keeps one) leaves it to the adapter.
    if (!body || body.locked) return;

    const answer = new Uint8Array(await c.res.arrayBuffer());
    const discarded = discardRest(body, bounds, () => incoming.destroy());
    const headers = new Headers(c.res.headers);
    headers.set('content-length', String(answer.byteLength));
    c.res = new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(answer);
        },
        // The answer's bytes are out; the response ends (and the adapter finishes it) once the body is.
        async pull(controller) {
          await discarded;
          try {
            controller.close();
          } catch {
            // The connection was closed first (cut off, or the client went away).
          }
        },
      }),
      { status, headers },
    );
  };
}

/** Reads the body to its end and throws it away, or calls `cut` at the first bound it passes (or a failed read). */
async function discardRest(body: ReadableStream<Uint8Array>, bounds: LingerBounds, cut: () => void): Promise<void> {
  const reader = body.getReader();
  let timers: NodeJS.Timeout[] = [];
  const givenUp = new Promise<'given up'>((resolve) => {
    timers = [setTimeout(() => resolve('given up'), bounds.idleMs), setTimeout(() => resolve('given up'), bounds.totalMs)];
  });
  let discarded = 0;
  try {
    for (;;) {
      const step = await Promise.race([reader.read(), givenUp]);
      if (step === 'given up') return cut();
      if (step.done) return;
      discarded += step.value.byteLength;
      if (discarded > bounds.maxBytes) return cut();
      timers[0]?.refresh();
    }
  } catch {
    cut();
  } finally {
    for (const timer of timers) clearTimeout(timer);
    void reader.cancel().catch(() => undefined);
  }
}
