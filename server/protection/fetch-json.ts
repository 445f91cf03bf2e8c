/**
 * One bounded GET of JSON from an outside service: within the lookup's deadline (the signal, one
 * for the two or three calls of a lookup: LOOKUP_TIMEOUT_MS in all, so a GET of the job's
 * protection waits a few seconds at most), at most MAX_BYTES read (a planning answer without
 * geometry is a few kilobytes; anything far larger is not what we asked for), and a status the
 * caller can tell apart (404 from the rest). Redirects are followed within the same deadline, at
 * most MAX_REDIRECTS, and only to the same host over https: the planning data answers a replaced
 * entity with a 301 to the one that replaced it (digital-land.info application/routers/entity.py),
 * on its own host. A redirect anywhere else (another host, a loopback or private address, plain
 * http) is not fetched: the lookup fails as the service being down does, so an answer from a
 * host we never chose is never believed (docs/security.md, The lookups' redirects).
 */
export const LOOKUP_TIMEOUT_MS = 5_000;
export const MAX_BYTES = 512 * 1024;
export const MAX_REDIRECTS = 3;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class ServiceAnswer extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Where a redirect from `from` may be followed to: the same host (and port), over https; null for anywhere else. */
export function followableRedirect(from: URL, location: string | null): URL | null {
  if (!location) return null;
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    return null;
  }
  return to.protocol === 'https:' && from.protocol === 'https:' && to.host === from.host ? to : null;
}

/** The GET, following only the redirects followableRedirect allows; `headers` go with every hop. */
async function fetchFollowingSameHost(url: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<Response> {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { headers: { accept: 'application/json', ...headers }, signal, redirect: 'manual' });
    if (!REDIRECTS.has(res.status)) return res;
    await res.body?.cancel();
    const next = followableRedirect(current, res.headers.get('location'));
    if (!next) throw new ServiceAnswer(res.status, `redirect refused: only the same host over https is followed (status ${res.status})`);
    if (hop >= MAX_REDIRECTS) throw new ServiceAnswer(res.status, `more than ${MAX_REDIRECTS} redirects`);
    current = next;
  }
}

export async function getJson(url: string, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
  const { status, body } = await getJsonAnswer(url, signal);
  return { status, body };
}

export interface GetJsonOptions {
  /** Sent with the request (and each same-host redirect): a User-Agent, an If-Modified-Since. */
  headers?: Record<string, string>;
  /** At most this many bytes read (default MAX_BYTES). */
  maxBytes?: number;
}

/**
 * getJson with the request's headers and the answer's: for a service whose terms ask for an
 * identifying User-Agent and caching by its Expires and Last-Modified (server/weather/). A 304
 * (the copy kept is still current) has no body to read: `body` is null.
 */
export async function getJsonAnswer(url: string, signal: AbortSignal, { headers, maxBytes = MAX_BYTES }: GetJsonOptions = {}): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetchFollowingSameHost(url, signal, headers);
  if (res.status === 304) {
    await res.body?.cancel();
    return { status: 304, body: null, headers: res.headers };
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new ServiceAnswer(res.status, `answer too large: ${declared} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (let read = await reader?.read(); reader && read && !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ServiceAnswer(res.status, 'answer too large');
    }
    chunks.push(read.value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { status: res.status, body: JSON.parse(text) as unknown, headers: res.headers };
  } catch {
    throw new ServiceAnswer(res.status, `not JSON (status ${res.status})`);
  }
}
