import type { Context } from 'hono';
import { DomainError } from '../../core/errors';
import type { AppEnv } from './context';

/**
 * Reading request bodies with bounds: a cap on bytes, counted as they stream (and checked first
 * against a declared Content-Length), and an idle timeout, the same as uploads' (multipart.ts
 * UPLOAD_IDLE_MS, 15 s). Without the timeout a body trickled a byte at a time held its
 * connection until Node's own request timeout, 300 s.
 */

/**
 * An upload that sends nothing for this long is given up (408): a phone that lost its signal,
 * or a client that opens the request and trickles. 15 s is far longer than any pause of a
 * working connection, and nothing is reserved or held for an upload in progress meanwhile.
 */
export const UPLOAD_IDLE_MS = 15_000;

/** The idle timeout for this app's request bodies (createApp's analysisLoad; tests give a tiny one). */
export function bodyIdleMs(c: Context<AppEnv>): number {
  return c.get('analysisLoad')?.uploadIdleMs ?? UPLOAD_IDLE_MS;
}

/** True when the request declares a body larger than `bytes` (checked before reading). */
export function declaresMoreThan(request: Request, bytes: number): boolean {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  return declared > bytes;
}

export const bodyStalled = () => new DomainError('REQUEST_TIMEOUT', 'The request stalled. Please check your connection and try again.');

/**
 * One idle timer for a read loop: `race` loses to it once `idleMs` pass without `touch()`.
 * `stop()` must be called when the loop ends, however it ends.
 */
function idleTimer(idleMs: number, stalled: () => Error) {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(stalled()), idleMs);
  });
  // Nobody may be racing it when it fires between reads; the loop's own race reports it.
  expired.catch(() => undefined);
  return {
    race: <T>(read: Promise<T>) => Promise.race([read, expired]),
    touch: () => timer?.refresh(),
    stop: () => clearTimeout(timer),
  };
}

/**
 * Stops reading a request body without closing it: the lock is released, not the stream
 * cancelled, so what the client is still sending can be read and discarded after a refusal
 * (linger.ts), and the client hears its 4xx instead of a reset connection. A read still
 * waiting (an idle timeout) is abandoned with the lock.
 */
function stopReading(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  try {
    reader.releaseLock();
  } catch {
    void reader.cancel().catch(() => undefined);
  }
}

export interface BodyBounds {
  maxBytes: number;
  idleMs: number;
  /** The 413 to throw past `maxBytes`. */
  tooLarge: () => Error;
}

/**
 * A body's chunks as they arrive, within its bounds: `tooLarge` once more than `maxBytes` have
 * come, `stalled` (408) after `idleMs` without a byte. The caller may stop early (break or
 * throw): reading then stops without closing the body (stopReading), as it does at the end.
 */
export async function* boundedChunks(
  body: ReadableStream<Uint8Array>,
  bounds: BodyBounds & { stalled?: () => Error },
): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = body.getReader();
  const idle = idleTimer(bounds.idleMs, bounds.stalled ?? bodyStalled);
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await idle.race(reader.read());
      if (done) return;
      idle.touch();
      received += value.byteLength;
      if (received > bounds.maxBytes) throw bounds.tooLarge();
      yield value;
    }
  } finally {
    idle.stop();
    stopReading(reader);
  }
}

/** The whole body as bytes, within its bounds: 413 past the cap, 408 after `idleMs` without a byte. */
export async function readBodyBytes(request: Request, bounds: BodyBounds): Promise<Uint8Array> {
  if (declaresMoreThan(request, bounds.maxBytes)) throw bounds.tooLarge();
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  for await (const chunk of boundedChunks(request.body, bounds)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The whole body as UTF-8 text, within its bounds (readBodyBytes). */
export async function readBodyText(request: Request, bounds: BodyBounds): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, bounds));
}
