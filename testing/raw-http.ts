import { connect, type Socket } from 'node:net';

/**
 * HTTP/1.1 by hand over node:net, for the clients fetch cannot play: one that sends its head and
 * a few bytes and goes quiet, one that reads the answer only once it has sent its whole body
 * (as Python's http.client and many simple clients do), one paced like a real uplink.
 */

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** From the first byte written to the whole answer read. */
  elapsedMs: number;
}

export interface RawOutcome {
  /** The whole answer, when one was read. */
  answer?: RawAnswer;
  /** The socket's error code (EPIPE, ECONNRESET) when the connection broke first. */
  error?: string;
  /** Body bytes written before the answer or the error. */
  sent: number;
  /** When the server closed the connection, if it did before `settleMs` after the answer. */
  closedAfterMs?: number;
}

/** Parses a whole answer from the bytes read so far, or null while it is still arriving (Content-Length bodies only). */
function parseAnswer(raw: Buffer, startedAt: number): RawAnswer | null {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (raw.length < end + 4 + length) return null;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: raw.subarray(end + 4, end + 4 + length).toString('utf8'),
    elapsedMs: Date.now() - startedAt,
  };
}

export interface RawRequest {
  url: string;
  /** The request line and headers, without the blank line that ends them. */
  head: string;
  body: Uint8Array;
  /** Paced to this many bytes a second; as fast as the socket takes them when absent. */
  bytesPerSecond?: number;
  /** Bytes per write (64 KB unless given). */
  stepBytes?: number;
  /** Stop writing after this many body bytes and stay quiet (the connection kept open). */
  quietAfter?: number;
  /** Read the answer only once the whole body is written (the default reads as it comes). */
  readAfterSending?: boolean;
  /** After the answer, how long to wait to see whether the server closes the connection. */
  settleMs?: number;
}

/** Sends one request as described and reports what the client saw. */
export function sendRaw(request: RawRequest): Promise<RawOutcome> {
  const url = new URL(request.url);
  const limit = Math.min(request.body.length, request.quietAfter ?? Number.POSITIVE_INFINITY);
  const step = request.stepBytes ?? 64 * 1024;
  const pauseMs = request.bytesPerSecond ? (step / request.bytesPerSecond) * 1000 : 0;
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(url.port), url.hostname);
    const startedAt = Date.now();
    let received = Buffer.alloc(0);
    let sent = 0;
    let answer: RawAnswer | undefined;
    let done = false;
    const finish = (outcome: Omit<RawOutcome, 'sent'>) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ ...outcome, sent });
    };
    const read = () => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        answer ??= parseAnswer(received, startedAt) ?? undefined;
        if (answer && request.settleMs === undefined) finish({ answer });
      });
      socket.resume();
    };
    socket.on('error', (error: NodeJS.ErrnoException) => finish({ answer, error: error.code ?? error.message }));
    socket.on('close', () => finish({ answer, ...(answer && { closedAfterMs: Date.now() - startedAt - answer.elapsedMs }) }));
    if (request.settleMs !== undefined) {
      const settleMs = request.settleMs;
      const timer = setInterval(() => {
        if (answer && Date.now() - startedAt - answer.elapsedMs >= settleMs) {
          clearInterval(timer);
          finish({ answer });
        }
      }, 20);
      socket.on('close', () => clearInterval(timer));
    }
    if (request.readAfterSending) socket.pause();
    else read();
    socket.write(`${request.head}\r\n\r\n`);
    const next = () => {
      if (done) return;
      if (sent >= limit) {
        if (request.readAfterSending) read();
        return;
      }
      const chunk = request.body.subarray(sent, Math.min(sent + step, limit));
      sent += chunk.length;
      socket.write(chunk, (error) => {
        if (!error) setTimeout(next, pauseMs);
      });
    };
    next();
  });
}

/** A multipart body and its Content-Type, as fetch would send the form. */
export async function encodeForm(form: FormData): Promise<{ type: string; bytes: Uint8Array }> {
  const response = new Response(form);
  const type = response.headers.get('content-type') ?? '';
  return { type, bytes: new Uint8Array(await response.arrayBuffer()) };
}
