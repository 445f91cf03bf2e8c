import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { CREW_API_CACHE, CREW_PHOTO_CACHE } from '../dashboard/api/saved-answers';

/*
 * What both dashboard builds use (vite.dashboard.config.ts, the office's app; vite.crew.config.ts,
 * the crew's app), both into dist/dashboard.
 */

/** The dashboard's pages, scripts, stylesheets and pictures, each with a .gz and .br beside it. */
export const DASHBOARD_COMPRESSED = /\.(html|js|css|svg)$/;

/**
 * The service worker's answer to a phone opening My days (below): the page the server last drew
 * for this person, kept with the crew's answers, at once, while the server draws it again for next
 * time; with nothing kept, the server's; without signal either, the crew's app page from the
 * precache. Workbox writes this function into sw.js as it is, so it uses only the service worker's
 * own globals: CREW_API_CACHE and CREW_HOME_HEADER are written out (dashboard-plugins.test.ts
 * holds them to the constants), and the precache keeps crew.html under its revision
 * (?__WB_REVISION__=...).
 */
export async function myDaysFromThePhone({ request, event }: { request: Request; event: { waitUntil(promise: Promise<unknown>): void } }): Promise<Response> {
  const kept = await caches.open('crew-api-v1');
  const drawn = fetch(request).then(async (response) => {
    if (response.ok && response.headers.get('X-Crew-Home') === 'drawn') await kept.put('/my-days', response.clone());
    return response;
  });
  const copy = await kept.match('/my-days');
  if (copy) {
    event.waitUntil(drawn.catch(() => undefined));
    return copy;
  }
  try {
    return await drawn;
  } catch {
    return (await caches.match('/crew.html', { ignoreSearch: true })) ?? Response.error();
  }
}

/** A week and a day: the crew's answers kept for the next 7 days' jobs after one visit with signal. */
const KEEP_SECONDS = 8 * 24 * 60 * 60;

/** The crew's screens, which the crew's own app page answers (dashboard/crew.html). */
export const CREW_PAGES = /^\/my-days(\/|$)/;

/**
 * The crew's installable web app (docs/product.md, The crew's day, On a phone, with or without
 * signal): a manifest, and a Workbox service worker that precaches both apps (every built page,
 * script, stylesheet and icon in dist/dashboard, so each screen opens without signal; built with the
 * crew's app, the last into that folder) and keeps the crew's reads as they are fetched: who is
 * signed in, My days, and each job's sheet, site check, photos and pictures. The crew's screens
 * register it (dashboard/crew/crew-frame.tsx); the changes made without signal wait in IndexedDB,
 * not here (dashboard/crew/outbox.ts), since Safari has no Background Sync.
 */
export function crewServiceWorker(): Plugin[] {
  return VitePWA({
    injectRegister: false,
    registerType: 'autoUpdate',
    includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
    manifest: {
      name: 'TreeAnalyzer Pro: My days',
      short_name: 'My days',
      description: 'The crew\u2019s days, job sheets and site checks, with or without signal.',
      start_url: '/my-days',
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      background_color: '#fafaf9',
      theme_color: '#14532d',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      // The widget's files are the customer's, built apart (vite.widget.config.ts).
      globIgnores: ['**/node_modules/**', 'widget*', 'embed*'],
      // The office's pages from the office's app page; the crew's from theirs (below).
      navigateFallback: 'index.html',
      navigateFallbackDenylist: [/^\/api\//, /^\/embed\//, /^\/widget/, /\.(pdf|js|css|png|svg|map)$/, CREW_PAGES],
      cleanupOutdatedCaches: true,
      clientsClaim: true,
      skipWaiting: true,
      runtimeCaching: [
        {
          // My days opens at once, with or without signal, as the server last drew it for this
          // person (kept with the crew's answers, so a sign-in or sign-out drops it), while the
          // server draws it again for next time; the phone's script then reads the answers afresh
          // (dashboard/crew/main.tsx). With nothing kept yet, the server's page; without signal
          // either, the crew's app page from the precache, drawn from the answers kept.
          urlPattern: ({ request, url, sameOrigin }) => sameOrigin && request.mode === 'navigate' && url.pathname === '/my-days',
          handler: myDaysFromThePhone,
        },
        {
          // A job sheet: the crew's app page from the precache, at once (the sheet reads its answers).
          // Exactly the addresses the crew's app has (crew-app.tsx, and the server's choice in
          // server/http/dashboard.ts): any other under /my-days/ goes to the server and its office
          // app, so the crew's app never sends a page back to itself.
          urlPattern: ({ request, url, sameOrigin }) => sameOrigin && request.mode === 'navigate' && /^\/my-days\/jobs\/[^/]+$/.test(url.pathname),
          handler: async ({ request }) => (await caches.match('/crew.html', { ignoreSearch: true })) ?? fetch(request),
        },
        {
          // Who is signed in: the network when it answers within half a second, else the kept copy,
          // so a phone on a slow signal opens My days from the phone (a 401 on any call still signs out).
          urlPattern: ({ url, sameOrigin: same }) => same && url.pathname === '/api/auth/me',
          handler: 'NetworkFirst',
          options: { cacheName: CREW_API_CACHE, networkTimeoutSeconds: 0.5, expiration: { maxAgeSeconds: KEEP_SECONDS }, cacheableResponse: { statuses: [200] } },
        },
        {
          urlPattern: ({ url, sameOrigin: same }) => same && (url.pathname === '/api/my-days' || /^\/api\/jobs\/\d+\/(sheet|site-check|photos)$/.test(url.pathname)),
          handler: 'NetworkFirst',
          options: { cacheName: CREW_API_CACHE, networkTimeoutSeconds: 6, expiration: { maxEntries: 200, maxAgeSeconds: KEEP_SECONDS }, cacheableResponse: { statuses: [200] } },
        },
        {
          // The sheet's pictures (the trees' and the job's photos): fetched with Accept image/* when kept for offline.
          urlPattern: ({ url, request, sameOrigin: same }) => same && url.pathname.startsWith('/api/') && (request.destination === 'image' || (request.headers.get('Accept') ?? '').startsWith('image/')),
          handler: 'CacheFirst',
          options: { cacheName: CREW_PHOTO_CACHE, expiration: { maxEntries: 300, maxAgeSeconds: KEEP_SECONDS }, cacheableResponse: { statuses: [200] } },
        },
      ],
    },
  });
}
