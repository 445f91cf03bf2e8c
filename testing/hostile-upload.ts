import { request as httpRequest } from 'node:http';

/**
 * Hostile multipart uploads as an attacker sends them (docs/security.md, Uploads and hostile input): bodies built byte by byte,
 * sent over node:http at full speed, the answer timed from the first byte sent to the status
 * line. Shared by the fuzz suite (server/routes/analysis.fuzz.test.ts) and the attack bench.
 */
export const BOUNDARY = 'HostileBoundary7MA4YWxkTrZu0gW';

/** One part: its name, optional filename, extra header lines and content. */
export interface RawPart {
  name?: string;
  filename?: string;
  headers?: string[];
  content: Buffer | string;
}

/** A multipart body from parts, closed with `--boundary--` unless `close` is false. */
export function multipartBody(parts: RawPart[], options: { boundary?: string; close?: boolean } = {}): Buffer {
  const boundary = options.boundary ?? BOUNDARY;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.name === undefined
        ? []
        : [`Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`];
    const head = [`--${boundary}`, ...disposition, ...(part.headers ?? []), '', ''].join('\r\n');
    chunks.push(Buffer.from(head), typeof part.content === 'string' ? Buffer.from(part.content) : part.content, Buffer.from('\r\n'));
  }
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** `count` copies of one part's bytes, then the close delimiter: cheap to build at any count. */
export function repeatedParts(part: RawPart, count: number, options: { first?: RawPart[] } = {}): Buffer {
  const one = multipartBody([part], { close: false });
  const first = multipartBody(options.first ?? [], { close: false });
  return Buffer.concat([first, Buffer.alloc(one.length * count).fill(one), Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

export interface Answer {
  status: number;
  body: string;
  /** Milliseconds from the request's start to the status line. */
  ms: number;
  /** Whether the whole body had been sent when the answer came. */
  sentAll: boolean;
}

/**
 * POSTs `body` to `url` in 64 KB writes, stopping as soon as the server answers (it may refuse
 * long before the body ends, and an attacker's client would not wait to finish). With `hold`,
 * the body is sent but the request is never ended: a client that goes quiet. With `chunked`,
 * no Content-Length is declared (the server can only count).
 */
export function send(url: string, headers: Record<string, string | number>, body: Buffer, options: { hold?: boolean; chunked?: boolean } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // A connection of its own: one the server closes after refusing a body is never reused.
    const req = httpRequest(url, {
      agent: false,
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...(options.hold || options.chunked ? {} : { 'content-length': body.length }), ...headers },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const ms = performance.now() - started;
      const sentAll = sent >= body.length;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: text, ms, sentAll });
      });
    });
    // A server that answered and closed mid-body is the point, not a failure.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    let sent = 0;
    const pump = () => {
      while (sent < body.length && !answered && !req.destroyed) {
        const piece = body.subarray(sent, sent + 64 * 1024);
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (sent >= body.length && !options.hold && !req.destroyed) req.end();
    };
    req.flushHeaders();
    pump();
  });
}

/**
 * Runs `attack` while a second client reads `readUrl` (a signed-in GET) back to back, and
 * returns the attack's result with the slowest read. Reads that fail count as never answered.
 */
export async function whileReading<T>(readUrl: string, headers: Record<string, string>, attack: () => Promise<T>): Promise<{ result: T; reads: number; worstReadMs: number }> {
  let done = false;
  let worst = 0;
  let reads = 0;
  let failure: unknown;
  const reader = (async () => {
    while (!done) {
      const start = performance.now();
      const res = await fetch(readUrl, { headers, signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the signed-in read answered ${res.status}`);
      worst = Math.max(worst, performance.now() - start);
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })().catch((error: unknown) => {
    failure = error;
  });
  let result: T;
  try {
    result = await attack();
    // At least one read that started after the attack's answer: the server is still serving.
    const after = reads;
    while (reads === after && failure === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    done = true;
    await reader;
  }
  if (failure !== undefined) throw failure;
  return { result, reads, worstReadMs: worst };
}
