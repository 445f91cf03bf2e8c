import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { siteCheckResponseSchema, siteNotesResponseSchema, type SiteNotesInput } from '../../core/crew-day';
import type { JobDoneInput } from '../../core/job-booking';
import { jobResponseSchema, type Job } from '../../core/jobs';
import { fullSettingsResponseSchema } from '../../core/settings';
import { request } from './client';
import { jobKeys } from './jobs';
import { queryKeys } from './query-client';

/*
 * The office's side of the crew's day (docs/product.md, The crew's day, On the office's job
 * page): each day's site check as the job page shows it, the site notes for the crew's sheet, the
 * correction of a done job's times, and the team's hospitals in Settings.
 */

const hospitalsAnswer = fullSettingsResponseSchema.pick({ hospitals: true });
export type Hospital = { name: string; postcode: string };

export const jobSiteApi = {
  siteCheck: (id: number, date: string) => request('GET', `/api/jobs/${id}/site-check?date=${encodeURIComponent(date)}`, { schema: siteCheckResponseSchema }),
  siteNotes: (id: number, body: SiteNotesInput) => request('PATCH', `/api/jobs/${id}/site-notes`, { body: { ...body }, schema: siteNotesResponseSchema }),
  /** A done job's times, replaced tree by tree and named (400 for a typed line, 409 for a job not done). */
  correctActuals: (id: number, body: JobDoneInput) => request('PATCH', `/api/jobs/${id}/actuals`, { body: { ...body }, schema: jobResponseSchema }),
  hospitals: () => request('GET', '/api/system-settings', { schema: hospitalsAnswer }),
  /** Replaces the team's list; 400 naming a postcode the postcode service could not locate, and nothing saved. */
  saveHospitals: (hospitals: Hospital[]) => request('PATCH', '/api/system-settings', { body: { hospitals }, schema: hospitalsAnswer }),
};

export const jobSiteKeys = {
  siteCheck: (id: number, date: string) => ['/api/jobs', id, 'site-check', date] as const,
  /** Not queryKeys.settings: this reader keeps the hospitals only. */
  hospitals: ['/api/system-settings', 'hospitals'] as const,
};

/** The site check of each of the days, in the order given. */
export function useSiteChecks(id: number, dates: readonly string[]) {
  return useQueries({
    queries: dates.map((date) => ({ queryKey: jobSiteKeys.siteCheck(id, date), queryFn: async () => (await jobSiteApi.siteCheck(id, date)).siteCheck })),
  });
}

export function useSaveSiteNotes(job: Job) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SiteNotesInput) => jobSiteApi.siteNotes(job.id, body),
    onSuccess: ({ siteNotes }) => {
      queryClient.setQueryData<Job>(jobKeys.job(job.id), (cached) => (cached ? { ...cached, siteNotes } : cached));
    },
  });
}

export function useCorrectActuals(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: JobDoneInput) => (await jobSiteApi.correctActuals(id, body)).job,
    onSuccess: (job) => {
      queryClient.setQueryData(jobKeys.job(job.id), job);
      void queryClient.invalidateQueries({ queryKey: jobKeys.list, exact: true });
      // The trees' actual times changed: their analyses, History and Accuracy are read again when shown.
      for (const item of job.items) {
        if (item.analysisId !== null) void queryClient.invalidateQueries({ queryKey: queryKeys.analysis(item.analysisId) });
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.analyses });
    },
  });
}

export function useHospitals() {
  return useQuery({ queryKey: jobSiteKeys.hospitals, queryFn: async () => (await jobSiteApi.hospitals()).hospitals });
}

export function useSaveHospitals() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (hospitals: Hospital[]) => (await jobSiteApi.saveHospitals(hospitals)).hospitals,
    onSuccess: (hospitals) => {
      queryClient.setQueryData(jobSiteKeys.hospitals, hospitals);
    },
  });
}
