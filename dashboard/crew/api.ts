import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { jobPhotosResponseSchema, jobSheetResponseSchema, siteCheckResponseSchema, type JobPhoto, type JobSheet, type SiteCheck } from '../../core/crew-day';
import { apiErrorFromAnswer } from '../../core/error-body';
import { myDaysResponseSchema, type MyDays } from '../../core/schedule';
import { ApiError } from '../api/client';
import { takeEarlyRead } from '../api/early-reads';
import { CREW_API_CACHE } from '../api/saved-answers';

/*
 * The crew's reads. Each answer comes with when the server gave it (its Date header), since
 * without signal the service worker answers with the copy it kept (vite.dashboard.config.ts),
 * and the screen says how old that copy is. A copy kept on the phone is also shown at once
 * while the network answers, so My days opens in well under a second after the first visit.
 */

export interface Read<T> {
  data: T;
  /** When the server gave this answer (ms). */
  asOf: number;
}

interface Parser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

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
function useCrewRead<T>(key: readonly unknown[], path: string, schema: Parser<T>, enabled = true) {
  const query = useQuery({ queryKey: key, queryFn: () => readJson(path, schema), enabled });
  const [saved, setSaved] = useState<Read<T> | null>(null);
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

export function useCrewMyDays() {
  return useCrewRead<MyDays>(crewKeys.myDays, crewPaths.myDays, myDaysResponseSchema);
}

/** The sheet out of its answer, `{ sheet }`. */
const sheetOfAnswer: Parser<JobSheet> = {
  safeParse(value) {
    const parsed = jobSheetResponseSchema.safeParse(value);
    return parsed.success ? { success: true, data: parsed.data.sheet } : { success: false };
  },
};

export function useJobSheet(jobId: number) {
  return useCrewRead<JobSheet>(crewKeys.sheet(jobId), crewPaths.sheet(jobId), sheetOfAnswer);
}

export function useSiteCheck(jobId: number) {
  return useCrewRead<{ siteCheck: SiteCheck }>(crewKeys.siteCheck(jobId), crewPaths.siteCheck(jobId), siteCheckResponseSchema);
}

export function useJobPhotos(jobId: number) {
  return useCrewRead<{ photos: JobPhoto[] }>(crewKeys.photos(jobId), crewPaths.photos(jobId), jobPhotosResponseSchema);
}

/**
 * With signal, My days fetches each booked job's sheet, site check and photos (and the pictures in
 * them) once, so the service worker keeps them and each sheet opens on site without signal.
 * Low priority and one job at a time: the screen the person is looking at comes first.
 */
export async function keepJobsForOffline(jobIds: number[]): Promise<void> {
  const get = (path: string) => fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' }, priority: 'low' } as RequestInit);
  // On the first visit the service worker takes the page over only once installed: what is read
  // before that is read again through it, so it keeps who is signed in and My days too.
  if (!(await serviceWorkerInCharge())) return;
  await Promise.all([get('/api/auth/me'), get(crewPaths.myDays)]).catch(() => undefined);
  for (const jobId of jobIds) {
    try {
      const [sheet, , photos] = await Promise.all([get(crewPaths.sheet(jobId)), get(crewPaths.siteCheck(jobId)), get(crewPaths.photos(jobId))]);
      const pictures: string[] = [];
      if (sheet.ok) {
        const parsed = sheetOfAnswer.safeParse(await sheet.json());
        if (parsed.success) for (const tree of parsed.data.trees) if (tree.photoUrl) pictures.push(tree.photoUrl);
      }
      if (photos.ok) {
        const parsed = jobPhotosResponseSchema.safeParse(await photos.json());
        if (parsed.success) for (const photo of parsed.data.photos) pictures.push(photo.url);
      }
      await Promise.all(pictures.map((url) => fetch(url, { credentials: 'same-origin', headers: { Accept: 'image/*' }, priority: 'low' } as RequestInit).catch(() => undefined)));
    } catch {
      return; // No signal: the next visit with signal tries again.
    }
  }
}

/** Whether a service worker answers this page's requests, waiting up to a minute for one being installed. */
function serviceWorkerInCharge(): Promise<boolean> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return Promise.resolve(false);
  if (navigator.serviceWorker.controller) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 60_000);
    navigator.serviceWorker.addEventListener(
      'controllerchange',
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      { once: true },
    );
  });
}
