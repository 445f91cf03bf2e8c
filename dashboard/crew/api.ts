import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiErrorFromAnswer } from '../../core/error-body';
import { ApiError } from '../api/client';
import type { AnswerReader } from '../api/guest-answers';
import { takeEarlyRead } from '../api/early-reads';
import { CREW_API_CACHE } from '../api/saved-answers';
import { myDaysAnswer, type MyDaysShown } from './my-days-answer';

/*
 * The crew's reads (the job sheet's are in sheet-api.ts, loaded with the sheet, so My days needs no
 * schema library: docs/performance.md, The crew's phone). Each answer comes with when the server gave it (its Date header), since
 * without signal the service worker answers with the copy it kept (build/dashboard-plugins.ts),
 * and the screen says how old that copy is. A copy kept on the phone is also shown at once
 * while the network answers, so My days opens in well under a second after the first visit.
 */

export interface Read<T> {
  data: T;
  /** When the server gave this answer (ms). */
  asOf: number;
}

/** Checks an answer's shape: a zod schema or a hand-written reader (api/guest-answers.ts). */
export type Parser<T> = AnswerReader<T>;

async function readAnswer<T>(response: Response, schema: Parser<T>): Promise<Read<T>> {
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new ApiError('The server sent an unexpected answer.', response.status);
  const date = Date.parse(response.headers.get('Date') ?? '');
  return { data: parsed.data, asOf: Number.isNaN(date) ? Date.now() : date };
}

export async function readJson<T>(path: string, schema: Parser<T>): Promise<Read<T>> {
  let response: Response;
  try {
    response = await (takeEarlyRead(path) ?? fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } }));
  } catch {
    throw new ApiError('No signal, and this page was not kept on the phone: open it once with signal.', 0);
  }
  if (!response.ok) throw apiErrorFromAnswer(await response.text().catch(() => ''), response.status, response.statusText);
  return readAnswer(response, schema);
}

/** The copy the service worker kept, if any (none on a first visit or without a service worker). */
async function savedCopy<T>(path: string, schema: Parser<T>): Promise<Read<T> | null> {
  if (typeof caches === 'undefined') return null;
  try {
    const response = await (await caches.open(CREW_API_CACHE)).match(path);
    return response ? await readAnswer(response, schema) : null;
  } catch {
    return null;
  }
}

export const crewKeys = {
  all: ['crew'] as const,
  myDays: ['crew', 'my-days'] as const,
  sheet: (jobId: number) => ['crew', 'job', jobId, 'sheet'] as const,
  siteCheck: (jobId: number) => ['crew', 'job', jobId, 'site-check'] as const,
  photos: (jobId: number) => ['crew', 'job', jobId, 'photos'] as const,
};

export const crewPaths = {
  myDays: '/api/my-days',
  sheet: (jobId: number) => `/api/jobs/${jobId}/sheet`,
  siteCheck: (jobId: number) => `/api/jobs/${jobId}/site-check`,
  signCheck: (jobId: number) => `/api/jobs/${jobId}/site-check/sign`,
  work: (jobId: number) => `/api/jobs/${jobId}/work`,
  finish: (jobId: number) => `/api/jobs/${jobId}/finish`,
  photos: (jobId: number) => `/api/jobs/${jobId}/photos`,
};

/**
 * A crew read: the network's answer (or the service worker's kept copy without signal), with the
 * phone's own copy shown meanwhile. `data` is undefined only while neither has come.
 */
export function useCrewRead<T>(key: readonly unknown[], path: string, schema: Parser<T>, enabled = true) {
  const query = useQuery({ queryKey: key, queryFn: () => readJson(path, schema), enabled });
  const [saved, setSaved] = useState<Read<T> | null>(() => (enabled ? ((primed.get(path) as Read<T> | undefined) ?? null) : null));
  useEffect(() => {
    let live = true;
    if (enabled) void savedCopy(path, schema).then((copy) => live && setSaved(copy));
    return () => {
      live = false;
    };
  }, [path, schema, enabled]);
  const read = query.data ?? (query.isError ? null : saved);
  return { read, query, fromSaved: !query.data && read !== null };
}

/** Copies read from the phone before the first render (primeMyDays), for the screen's first draw. */
const primed = new Map<string, Read<unknown>>();

/**
 * Before My days is first drawn (crew/main.tsx): the copy kept on the phone, else the server's
 * answer (already on its way, dashboard/api/early-reads.ts), so the first render shows the days
 * rather than a spinner redrawn as each read arrives (a render is a tenth of a second on a phone
 * with a slow CPU: docs/performance.md, The crew's phone). With a copy the network is not waited
 * for; the screen's query replaces the copy when it answers.
 */
export async function primeMyDays(queryClient: QueryClient): Promise<void> {
  const saved = await savedCopy(crewPaths.myDays, myDaysAnswer);
  if (saved) primed.set(crewPaths.myDays, saved);
  else await queryClient.prefetchQuery({ queryKey: crewKeys.myDays, queryFn: () => readJson(crewPaths.myDays, myDaysAnswer) });
}

export function useCrewMyDays() {
  return useCrewRead<MyDaysShown>(crewKeys.myDays, crewPaths.myDays, myDaysAnswer);
}
