/**
 * A phone opening My days (the crew's home, the installed app's start page) starts the crew's code
 * and its days as the page starts, beside the question of who is signed in rather than after it:
 * on a slow signal each round trip is over half a second (docs/performance.md, The crew's phone).
 */
const started = new Map<string, Promise<Response>>();

/** True when the page is My days for someone signed in: the entry then starts the crew's code too (main.tsx). */
export function startCrewReads(): boolean {
  if (window.location.pathname !== '/my-days' || !document.cookie.split('; ').includes('ta_signed_in=1')) return false;
  // Fetched as the app page's <link rel="preload" as="fetch" crossorigin> asks for them (server/http/dashboard.ts,
  // crewPages): same URL, mode and credentials and no headers of its own, so the browser gives
  // these the answers it is already fetching.
  for (const path of ['/api/auth/me', '/api/my-days']) started.set(path, fetch(path, { credentials: 'same-origin' }));
  return true;
}

/** The answer started early for this path, once; later reads fetch as usual. */
export function takeEarlyRead(path: string): Promise<Response> | undefined {
  const early = started.get(path);
  started.delete(path);
  return early;
}
