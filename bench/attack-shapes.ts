import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

/**
 * The attacker's tools for bench/attacks.bench.ts: the tall PNG, a request over node:http that
 * may name any Host and gives up after a timeout (a server that never answers is a result, not
 * a hang), and a JSON body trickled over a raw socket.
 */

/** One PNG chunk: length, type, data, and the CRC of type and data (PNG spec, 5.3). */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/**
 * A greyscale PNG of `width` x `height` black pixels, written by hand: a pixel bomb is small
 * because its rows (a filter byte 0 and the zero pixels) are all zeros, which deflate to almost
 * nothing. 1 x 39,000,000 is 78 MB of rows in about 76 KB of file, under 40 megapixels.
 */
export function blackPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type 0: greyscale
  // compression 0 (deflate), filter method 0, no interlace: bytes 10-12 stay 0
  const rows = Buffer.alloc((width + 1) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface Reply {
  /** null when no answer came: timed out or the connection failed. */
  status: number | null;
  body: string;
  headers: IncomingHttpHeaders;
  /** Milliseconds from the request's start to its end (answer read, error or timeout). */
  ms: number;
  error?: string;
}

/**
 * One request on a connection of its own, over node:http so the Host header is ours to write
 * (fetch writes its own). Resolves, never rejects: a network error or the timeout is in `error`.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | number>; body?: Buffer | string; timeoutMs?: number } = {},
): Promise<Reply> {
  return new Promise((resolve) => {
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? 120_000;
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const req = httpRequest(url, {
      agent: false,
      method: options.method ?? 'GET',
      headers: { ...(body && { 'content-length': body.length }), ...options.headers },
    });
    let done = false;
    const finish = (reply: Omit<Reply, 'ms'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...reply, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish({ status: null, body: '', headers: {}, error: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (piece: string) => (text += piece));
      res.on('end', () => finish({ status: res.statusCode ?? null, body: text, headers: res.headers }));
      res.on('error', (error) => finish({ status: res.statusCode ?? null, body: text, headers: res.headers, error: error.message }));
    });
    req.on('error', (error) => finish({ status: null, body: '', headers: {}, error: error.message }));
    req.end(body);
  });
}

export interface Trickle {
  /** The status line's code, or null when the server closed without one or never answered. */
  status: number | null;
  /** Until the server answered or closed, or the cap when it did neither. */
  ms: number;
  outcome: 'answered' | 'closed' | 'still open';
}

/**
 * A JSON POST that declares `declaredBytes` but sends only its first `sentBytes` and then goes
 * quiet, over a raw socket: how long until the server answers or closes, up to `capMs`.
 */
export function trickleJson(url: string, path: string, headers: Record<string, string>, body: string, sentBytes: number, capMs: number): Promise<Trickle> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname);
    let received = '';
    let settled = false;
    const settle = (outcome: Trickle['outcome']) => {
      if (settled) return;
      settled = true;
      clearTimeout(cap);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
      resolve({ status: status === undefined ? null : Number(status), ms: performance.now() - started, outcome });
    };
    const cap = setTimeout(() => settle('still open'), capMs);
    socket.on('connect', () => {
      const head = [
        `POST ${path} HTTP/1.1`,
        `Host: ${new URL(url).host}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        '',
        '',
      ].join('\r\n');
      socket.write(head + body.slice(0, sentBytes));
    });
    socket.setEncoding('latin1');
    socket.on('data', (piece: string) => {
      received += piece;
      if (/\r\n\r\n/.test(received)) settle('answered');
    });
    socket.on('end', () => settle(received ? 'answered' : 'closed'));
    socket.on('close', () => settle(received ? 'answered' : 'closed'));
    socket.on('error', () => settle(received ? 'answered' : 'closed'));
  });
}

export interface Paced {
  status: number | null;
  body: string;
  /** Bytes written before the server answered or the connection failed. */
  sent: number;
  error?: string;
}

/**
 * A request written at `bytesPerSecond` over a raw socket by a client that reads only once it has
 * sent everything (as many simple clients do): a server that closes while the body still comes
 * resets the connection, and the answer waiting unread in the socket is lost with it (EPIPE or
 * ECONNRESET), where a server that reads and discards the rest gets its answer read.
 */
export function sendPaced(url: string, head: string, body: Buffer, bytesPerSecond: number, timeoutMs = 60_000): Promise<Paced> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.pause();
    let sent = 0;
    let failure: string | undefined;
    let received = '';
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
      const text = received.slice(received.indexOf('\r\n\r\n') + 4);
      resolve({ status: status === undefined ? null : Number(status), body: status === undefined ? '' : text, sent, ...(failure && status === undefined && { error: failure }) });
    };
    const timer = setTimeout(() => {
      failure ??= `no answer within ${timeoutMs / 1000} s`;
      settle();
    }, timeoutMs);
    socket.setEncoding('latin1');
    socket.on('data', (piece: string) => (received += piece));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      failure ??= error.code ?? error.message;
      settle();
    });
    socket.on('end', settle);
    socket.on('connect', async () => {
      socket.write(`${head}\r\n\r\n`);
      const piece = 64 * 1024;
      const started = performance.now();
      while (sent < body.length && !settled) {
        socket.write(body.subarray(sent, sent + piece));
        sent = Math.min(body.length, sent + piece);
        const due = started + (sent / bytesPerSecond) * 1000;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      }
      // Everything sent: only now is the answer read (an answer whose response ends the connection settles on 'end').
      socket.resume();
      socket.once('data', () => setTimeout(settle, 200));
    });
  });
}
