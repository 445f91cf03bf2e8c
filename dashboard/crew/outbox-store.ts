import { openDB, type IDBPDatabase } from 'idb';
import { apiErrorFromAnswer } from '../../core/error-body';
import { HELD_CODES, Outbox, outcomeOfStatus, type OutboxItem, type OutboxStore, type SendResult } from './outbox';

/*
 * The outbox's browser parts: the store in IndexedDB (kept when the page or the phone is closed),
 * the sender over HTTP, and one batch at a time across the phone's tabs.
 */

const DB_NAME = 'crew-outbox';
const STORE = 'changes';

/** IndexedDB through idb: one object store, keyed by a rising number, so reading it back is the order made. */
export function indexedDbStore(): OutboxStore {
  let db: Promise<IDBPDatabase> | null = null;
  const open = () =>
    (db ??= openDB(DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true });
      },
    }));
  return {
    add: async (item) => Number(await (await open()).add(STORE, item)),
    all: async () => (await (await open()).getAll(STORE)) as OutboxItem[],
    put: async (item) => {
      await (await open()).put(STORE, item);
    },
    remove: async (id) => {
      await (await open()).delete(STORE, id);
    },
  };
}

/** Everything a refusal said: its sentence, and what the details list (a start's missing parts of the check). */
function missingFrom(details: Record<string, string[]> | undefined): string[] | undefined {
  if (!details) return undefined;
  const all = Object.values(details).flat();
  return all.length > 0 ? all : undefined;
}

/** One change over HTTP, with its key as Idempotency-Key; a photo as multipart (image, kind). */
export async function sendOverHttp(item: OutboxItem): Promise<SendResult> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Idempotency-Key': item.key };
  let body: BodyInit | undefined;
  if (item.photo) {
    const form = new FormData();
    form.append('kind', item.photo.kind);
    form.append('photo', item.photo.blob, item.photo.name);
    body = form;
  } else if (item.body) {
    body = JSON.stringify(item.body);
    headers['Content-Type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(item.path, { method: item.method, credentials: 'same-origin', headers, body, cache: 'no-store' });
  } catch {
    return { outcome: 'retry' };
  }
  const outcome = outcomeOfStatus(response.status);
  if (outcome !== 'refused') return { outcome };
  const error = apiErrorFromAnswer(await response.text().catch(() => ''), response.status, response.statusText);
  const problem = { status: response.status, code: error.code, message: error.message, missing: missingFrom(error.details) };
  return error.code !== undefined && HELD_CODES.includes(error.code) ? { outcome: 'held', problem } : { outcome: 'refused', problem };
}

/** One batch at a time across tabs, where the browser has Web Locks (every current one does). */
function acrossTabs<T>(run: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && 'locks' in navigator) return navigator.locks.request('crew-outbox', run) as Promise<T>;
  return run();
}

/** The phone's one outbox. */
export const crewOutbox = new Outbox(indexedDbStore(), sendOverHttp, acrossTabs);
