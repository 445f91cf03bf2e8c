import { jobPhotosResponseSchema, jobSheetResponseSchema, siteCheckResponseSchema, type JobPhoto, type JobSheet, type SiteCheck } from '../../core/crew-day';
import { crewKeys, crewPaths, useCrewRead, type Parser } from './api';

/*
 * A job sheet's reads, checked with core's schemas: loaded with the sheet (dashboard/crew/crew-app.tsx)
 * and by My days once it is on screen, to keep the week's sheets on the phone.
 */

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
