import { useEffect, useState, type ReactNode } from 'react';
import { PageTitle } from '../components/page-title';
import { OutboxStatusLine } from './use-outbox';

let registered = false;

/**
 * The service worker (built by vite-plugin-pwa, build/dashboard-plugins.ts) keeps the app and the
 * crew's answers on the phone. Registered from the crew's screens, after the page has loaded, so
 * its downloads never compete with the first My days; browsers allow it on https and on localhost.
 */
function useServiceWorker() {
  useEffect(() => {
    if (registered || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    registered = true;
    const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
  }, []);
}

/**
 * A crew screen: its title, the outbox's status line always in view, then the content. The frame
 * around it is the crew's app's (crew-shell.tsx) or, reached inside the office's app, its shell.
 */
export function CrewPage({ title, subtitle, back, children }: { title: string; subtitle?: string; back?: ReactNode; children: ReactNode }) {
  useServiceWorker();
  return (
    <div className="mx-auto w-full max-w-2xl">
      {back}
      <OutboxStatusLine />
      <PageTitle title={title} subtitle={subtitle} />
      {children}
    </div>
  );
}

/** "Saved at 08:12" when the screen shows the copy kept on the phone rather than the server's answer of now. */
export function SavedCopyNote({ asOf, fromSaved }: { asOf: number; fromSaved: boolean }) {
  const [shownAt] = useState(() => Date.now());
  const minutes = (shownAt - asOf) / 60_000;
  if (!fromSaved && minutes < 5) return null;
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'short', timeZone: 'Europe/London' }).format(asOf);
  return <p className="mb-3 text-sm text-stone-600">Kept on this phone: as it was at {time}.</p>;
}
