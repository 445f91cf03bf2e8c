import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { TestServer } from './harness';

/**
 * A JSON request whose body stops half way, for race tests: the head and the first half of the
 * body are written, then nothing until `finish()` writes the rest, as a slow phone's upload would.
 * `arrived` settles once the server has the request (its 'request' event) and has had a moment to
 * run the route up to the body's read; the test then lands another request (an acceptance)
 * before the body is complete. The verdict never depends on that moment: on a box too busy for
 * the route to get that far, the other request simply lands first, which must give the same answer.
 */
export interface PausedRequest {
  arrived: Promise<void>;
  finish(): Promise<{ status: number; body: string }>;
}

export function pausedJsonRequest(server: Pick<TestServer, 'url' | 'origin' | 'http'>, method: string, path: string, body: unknown, cookie: string): PausedRequest {
  const url = new URL(server.url);
  const bytes = Buffer.from(JSON.stringify(body ?? {}), 'utf8');
  const half = Math.max(1, Math.floor(bytes.length / 2));
  const head = [
    `${method} ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    `Origin: ${server.origin}`,
    'Sec-Fetch-Site: same-origin',
    'Content-Type: application/json',
    `Content-Length: ${bytes.length}`,
    `Cookie: ${cookie}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  const arrived = new Promise<void>((resolve) => {
    const onRequest = (req: IncomingMessage) => {
      if (req.url !== path || req.method !== method) return;
      server.http.off('request', onRequest);
      // Let the route's synchronous start (session, ownership, the old lock check) run.
      setTimeout(resolve, 100);
    };
    server.http.on('request', onRequest);
  });
  const socket = connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  const ended = new Promise<string>((resolve, reject) => {
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
  socket.write(head);
  socket.write(bytes.subarray(0, half));
  return {
    arrived,
    async finish() {
      // The rest of the body; the server closes the connection after its answer (Connection: close).
      socket.write(bytes.subarray(half));
      const raw = await ended;
      const statusLine = raw.slice(0, raw.indexOf('\r\n'));
      const at = raw.indexOf('\r\n\r\n');
      return { status: Number(statusLine.split(' ')[1]), body: at >= 0 ? raw.slice(at + 4) : '' };
    },
  };
}
