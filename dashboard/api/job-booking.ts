import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { jobBookResponseSchema, type JobBookInput, type JobDoneInput } from '../../core/job-booking';
import { jobResponseSchema, type Job } from '../../core/jobs';
import { request } from './client';
import { jobKeys } from './jobs';
import { queryKeys } from './query-client';

/**
 * Booking a job and marking it done (docs/product.md, Jobs and quotes, Booking and done), as the
 * other job calls in jobs.ts: the answer replaces the job's cached copy and the list is read again.
 */
export const jobBookingApi = {
  /** Books an accepted job or changes the date; `emailed` is false when the customer has no address. */
  book: (id: number, body: JobBookInput) => request('POST', `/api/jobs/${id}/book`, { body: { ...body }, schema: jobBookResponseSchema }),
  /** Each tree's actual times go into its analysis's feedback. */
  done: (id: number, body: JobDoneInput) => request('POST', `/api/jobs/${id}/done`, { body: { ...body }, schema: jobResponseSchema }),
};

function rememberJob(queryClient: QueryClient, job: Job): void {
  queryClient.setQueryData(jobKeys.job(job.id), job);
  void queryClient.invalidateQueries({ queryKey: jobKeys.list, exact: true });
  // Done, a job no longer waits for its deposit (docs/product.md, Getting paid, Each job's money).
  void queryClient.invalidateQueries({ queryKey: queryKeys.jobMoney });
}

export function useBookJob(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (booking: JobBookInput) => jobBookingApi.book(id, booking),
    onSuccess: ({ job }) => rememberJob(queryClient, job),
  });
}

export function useMarkJobDone(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: JobDoneInput) => (await jobBookingApi.done(id, body)).job,
    onSuccess: (job) => {
      rememberJob(queryClient, job);
      // The trees' actual times changed: their analyses, History and Accuracy are read again when shown.
      for (const item of job.items) {
        if (item.analysisId !== null) void queryClient.invalidateQueries({ queryKey: queryKeys.analysis(item.analysisId) });
      }
      void queryClient.invalidateQueries({ queryKey: queryKeys.analyses });
    },
  });
}
