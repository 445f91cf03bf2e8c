import { afterEach, describe, expect, it } from 'vitest';
import { CREW_HOME_HEADER } from '../core/crew-home';
import { CREW_API_CACHE } from '../dashboard/api/saved-answers';
import { myDaysFromThePhone } from './dashboard-plugins';

/*
 * The service worker's answer to a phone opening My days, run as the service worker runs it: with
 * the Cache Storage and fetch it has (here a Map-backed CacheStorage and a stand-in network).
 */

class FakeCache {
  entries = new Map<string, Response>();
  match(key: string, options?: { ignoreSearch?: boolean }): Promise<Response | undefined> {
    for (const [k, v] of this.entries) if (k === key || (options?.ignoreSearch && k.split('?')[0] === key)) return Promise.resolve(v.clone());
    return Promise.resolve(undefined);
  }
  put(key: string, response: Response): Promise<void> {
    this.entries.set(key, response);
    return Promise.resolve();
  }
}

function phone(network: () => Promise<Response>) {
  const stores = new Map<string, FakeCache>([['workbox-precache-v2', new FakeCache()]]);
  const storage = {
    open: (name: string) => Promise.resolve(stores.get(name) ?? stores.set(name, new FakeCache()).get(name)!),
    match: async (key: string, options?: { ignoreSearch?: boolean }) => {
      for (const cache of stores.values()) {
        const hit = await cache.match(key, options);
        if (hit) return hit;
      }
      return undefined;
    },
  };
  Object.assign(globalThis, { caches: storage, fetch: network });
  const waited: Promise<unknown>[] = [];
  const open = () => myDaysFromThePhone({ request: new Request('http://phone.test/my-days'), event: { waitUntil: (p) => void waited.push(p) } });
  return { stores, open, settled: () => Promise.all(waited) };
}

const drawnPage = (text: string) => new Response(text, { headers: { [CREW_HOME_HEADER.name]: CREW_HOME_HEADER.value } });
const realFetch = globalThis.fetch;
afterEach(() => {
  Object.assign(globalThis, { fetch: realFetch });
  delete (globalThis as { caches?: unknown }).caches;
});

describe("the service worker's My days", () => {
  it('answers with the page last drawn at once, and keeps the one the server draws now for next time', async () => {
    let pages = 0;
    const p = phone(() => Promise.resolve(drawnPage(`drawn ${(pages += 1)}`)));
    expect(await (await p.open()).text()).toBe('drawn 1'); // nothing kept yet: the server's
    expect(await (await p.open()).text()).toBe('drawn 1'); // kept, while the server draws the next
    await p.settled();
    expect(await (await p.open()).text()).toBe('drawn 2');
    expect([...p.stores.keys()]).toContain(CREW_API_CACHE);
  });

  it("keeps only the server's drawn page (not the office's sign-in), and without signal opens the crew's page from the precache", async () => {
    const p = phone(() => Promise.resolve(new Response('the office app, signed out')));
    expect(await (await p.open()).text()).toBe('the office app, signed out');
    await p.settled();
    expect(p.stores.get(CREW_API_CACHE)?.entries.size ?? 0).toBe(0);
    const offline = phone(() => Promise.reject(new TypeError('Failed to fetch')));
    await offline.stores.get('workbox-precache-v2')!.put('/crew.html?__WB_REVISION__=abc', new Response('the crew app page'));
    expect(await (await offline.open()).text()).toBe('the crew app page');
  });
});
