import { useQueryClient } from '@tanstack/react-query';
import { CloudOff, RefreshCw, Send, X } from 'lucide-react';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { sessionLost, useSession } from '../api/session';
import { tallButtonStyles } from '../components/ui';
import { crewKeys } from './api';
import { newClientId, waitingWords, type NewOutboxItem, type OutboxItem, type OutboxStatus } from './outbox';
import { crewOutbox } from './outbox-store';

const RETRY_AFTER_ONLINE_MS = 2000;
const RETRY_EVERY_MS = 8000;

/** What the outbox holds for the signed-in person, kept current. */
export function useOutboxStatus(): OutboxStatus {
  return useSyncExternalStore(
    (listener) => crewOutbox.subscribe(listener),
    () => crewOutbox.current(),
    // The server's first view of My days (first-view.tsx) has no outbox: nothing waiting.
    () => crewOutbox.current(),
  );
}

function useUserId(): number | null {
  return useSession().data?.user.id ?? null;
}

/** Sends what waits now, then reads the crew's screens again from the server. */
function useSendNow() {
  const queryClient = useQueryClient();
  const userId = useUserId();
  return useCallback(async () => {
    if (userId === null) return;
    const result = await crewOutbox.flush(userId);
    if (result.stoppedBy === 'signed_out') sessionLost(queryClient);
    if (result.sent > 0 || result.refused > 0) await queryClient.invalidateQueries({ queryKey: crewKeys.all });
  }, [queryClient, userId]);
}

/**
 * Sending without Background Sync (Safari has none): when the crew's screens open, when the
 * browser says the network is back, when the phone comes back to the page, and on "Send now".
 * A session that ended keeps the changes; the next sign-in opens these screens again and sends.
 */
export function useOutboxSending(): () => Promise<void> {
  const userId = useUserId();
  const sendNow = useSendNow();
  useEffect(() => {
    if (userId === null) return;
    void crewOutbox.refresh(userId).then(() => sendNow());
    // The "online" event can come a moment before requests get through, so it is tried again
    // shortly after; and while changes wait, every few seconds, since a phone can say it is
    // online with no requests getting through (and say nothing when they do again).
    let again: ReturnType<typeof setTimeout> | undefined;
    const onOnline = () => {
      void sendNow();
      clearTimeout(again);
      again = setTimeout(() => void sendNow(), RETRY_AFTER_ONLINE_MS);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void sendNow();
    };
    const retry = setInterval(() => {
      const status = crewOutbox.current();
      if (navigator.onLine && status.waiting.length > 0 && status.last !== 'signed_out') void sendNow();
    }, RETRY_EVERY_MS);
    window.addEventListener('online', onOnline);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(again);
      clearInterval(retry);
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [userId, sendNow]);
  return sendNow;
}

/** Keeps a change on the phone and tries to send it at once. */
export function useQueueChange() {
  const userId = useUserId();
  const sendNow = useSendNow();
  return useCallback(
    async (change: Omit<NewOutboxItem, 'userId' | 'queuedAt' | 'key'> & { key?: string }) => {
      if (userId === null) return;
      await crewOutbox.add({ ...change, key: change.key ?? newClientId(), userId, queuedAt: new Date().toISOString() });
      void sendNow();
    },
    [userId, sendNow],
  );
}

/** Gives a waiting change a new body where it stands (a held start its reason), then sends. */
export function useReviseChange() {
  const userId = useUserId();
  const sendNow = useSendNow();
  return useCallback(
    async (id: number, body: Record<string, unknown>) => {
      if (userId === null) return;
      await crewOutbox.revise(id, userId, body);
      void sendNow();
    },
    [userId, sendNow],
  );
}

export function useDismissChange() {
  const userId = useUserId();
  return useCallback((id: number) => (userId === null ? Promise.resolve() : crewOutbox.dismiss(id, userId)), [userId]);
}

/** The changes of one job still waiting, oldest first. */
export function useWaitingFor(jobId: number): OutboxItem[] {
  return useOutboxStatus().waiting.filter((item) => item.jobId === jobId);
}

function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
    () => navigator.onLine,
    // The server's first view (first-view.tsx) was drawn with signal.
    () => true,
  );
}

const subscribeToNothing = () => () => {};

/** False in the server's first view of a screen (first-view.tsx), which cannot know what this phone keeps. */
function useOnThePhone(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

function statusWords(status: OutboxStatus, online: boolean): string {
  const count = status.waiting.length;
  if (status.sending && count > 0) return `Sending ${count === 1 ? '1 change' : `${count} changes`}\u2026`;
  if (count > 0) {
    const held = status.waiting.some((i) => i.problem);
    const why =
      status.last === 'signed_out'
        ? ': sign in again to send them'
        : !online || status.last === 'offline'
          ? ': no signal, they are kept on this phone'
          : held
            ? ': the start waits until the site check is complete and signed'
            : '';
    return `${waitingWords(count)}${why}`;
  }
  if (status.last === 'sent') return status.notSent.length > 0 ? `Sent, but ${status.notSent.length === 1 ? '1 change was' : `${status.notSent.length} changes were`} not accepted: see Not sent.` : 'Sent: every change is with the office.';
  return online ? 'Everything is sent.' : 'No signal: changes you make are kept on this phone.';
}

/**
 * The persistent status line of the crew's screens (aria-live), "Send now" while changes wait,
 * and the changes the server refused, each with its sentence until dismissed.
 */
export function OutboxStatusLine() {
  const status = useOutboxStatus();
  const online = useOnline();
  const onThePhone = useOnThePhone();
  const sendNow = useOutboxSending();
  const dismiss = useDismissChange();
  const count = status.waiting.length;
  return (
    <>
      <div className="sticky top-0 z-20 -mx-4 mb-4 flex min-h-14 items-center justify-between gap-3 border-b border-stone-200 bg-stone-50/95 px-4 py-2 backdrop-blur sm:mx-0 sm:rounded-xl sm:border">
        <p role="status" aria-live="polite" data-testid="outbox-status" className="flex items-center gap-2 text-sm font-medium text-stone-800">
          {!online ? <CloudOff aria-hidden="true" className="size-4 shrink-0 text-amber-700" /> : null}
          {onThePhone ? statusWords(status, online) : 'Looking for changes kept on this phone\u2026'}
        </p>
        {count > 0 ? (
          <button type="button" className={`${tallButtonStyles.secondary} shrink-0`} onClick={() => void sendNow()} disabled={status.sending}>
            {status.sending ? <RefreshCw aria-hidden="true" className="size-4 animate-spin" /> : <Send aria-hidden="true" className="size-4" />}
            Send now
          </button>
        ) : null}
      </div>
      {status.notSent.length > 0 ? (
        <section aria-labelledby="not-sent-title" className="mb-4 rounded-lg border border-red-200 bg-red-50 p-3" data-testid="not-sent">
          <h2 id="not-sent-title" className="text-sm font-semibold text-red-900">
            Not sent
          </h2>
          <ul className="mt-2 flex flex-col gap-2">
            {status.notSent.map((item) => (
              <li key={item.id} className="flex items-start justify-between gap-2 text-sm text-red-900">
                <span>
                  <span className="font-medium">{item.label}</span>: {item.problem?.message ?? 'The server refused it.'}
                </span>
                <button type="button" className={`${tallButtonStyles.quiet} shrink-0`} onClick={() => void dismiss(item.id)} aria-label={`Dismiss: ${item.label}`}>
                  <X aria-hidden="true" className="size-4" />
                  Dismiss
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
