/**
 * One bounded GET of JSON from an outside service: within the lookup's deadline (the signal, one
 * for the two or three calls of a lookup: LOOKUP_TIMEOUT_MS in all, so a GET of the job's
 * protection waits a few seconds at most), at most MAX_BYTES read (a planning answer without
 * geometry is a few kilobytes; anything far larger is not what we asked for), and a status the
 * caller can tell apart (404 from the rest). Redirects are followed within the same deadline: the
 * planning data answers a replaced entity with a 301 to the one that replaced it
 * (digital-land.info application/routers/entity.py).
 */
export const LOOKUP_TIMEOUT_MS = 5_000;
export const MAX_BYTES = 512 * 1024;

export class ServiceAnswer extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export async function getJson(url: string, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { headers: { accept: 'application/json' }, signal });
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_BYTES) {
    await res.body?.cancel();
    throw new ServiceAnswer(res.status, `answer too large: ${declared} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (let read = await reader?.read(); reader && read && !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new ServiceAnswer(res.status, 'answer too large');
    }
    chunks.push(read.value);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ServiceAnswer(res.status, `not JSON (status ${res.status})`);
  }
}
