import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { jobListSchema, jobResponseSchema, type Job, type JobCancelInput, type JobCreateInput } from '../../core/jobs';
import { request } from './client';
import { queryKeys } from './query-client';

/**
 * The Jobs pages' calls (docs/product.md, Jobs and quotes). In a module of their own, so core/jobs'
 * schemas load with the pages that make or show a job and stay out of every other page's code.
 */

export interface JobChanges {
  customer?: { name: string; email?: string | null; phone?: string | null; siteAddress?: string | null };
  items?: { id: number; price?: string; description?: string; optional?: boolean }[];
  removeItemIds?: number[];
  roundPrices?: true;
  /** The deposit the quote asks on acceptance: a percentage, 0 for none, null to follow the Settings rule. */
  depositPercent?: number | null;
}

export interface NewLine {
  description: string;
  price: string;
  optional: boolean;
}

export const jobsApi = {
  list: () => request('GET', '/api/jobs', { schema: jobListSchema }),
  get: (id: number) => request('GET', `/api/jobs/${id}`, { schema: jobResponseSchema }),
  /** From analyses ticked in History, from a lead (its tree and customer), or empty with a customer. */
  create: (body: JobCreateInput) => request('POST', '/api/jobs', { body: { ...body }, schema: jobResponseSchema }),
  /** A 409 once the customer has accepted: the quote is then a record. */
  update: (id: number, body: JobChanges) => request('PATCH', `/api/jobs/${id}`, { body: { ...body }, schema: jobResponseSchema }),
  /** More trees from History; one already in the job is not added twice. */
  addTrees: (id: number, analysisIds: readonly number[]) => request('POST', `/api/jobs/${id}/trees`, { body: { analysisIds: [...analysisIds] }, schema: jobResponseSchema }),
  addLine: (id: number, body: NewLine) => request('POST', `/api/jobs/${id}/lines`, { body: { ...body }, schema: jobResponseSchema }),
  /** A new version with a new link, e-mailed; the link before stops working. */
  send: (id: number, email: string) => request('POST', `/api/jobs/${id}/send`, { body: { email }, schema: jobResponseSchema }),
  revoke: (id: number) => request('POST', `/api/jobs/${id}/revoke`, { body: {}, schema: jobResponseSchema }),
  /** Records a cancellation the customer sent by e-mail, letter, phone or in person; both sides are e-mailed. */
  cancel: (id: number, body: JobCancelInput) => request('POST', `/api/jobs/${id}/cancel`, { body: { ...body }, schema: jobResponseSchema }),
  /** E-mails the customer a link to their quote page, where they may ask for the work to start within their 14 days. */
  askEarlyStart: (id: number) => request('POST', `/api/jobs/${id}/ask-early-start`, { body: {}, schema: jobResponseSchema }),
};

export const jobKeys = {
  list: ['/api/jobs'] as const,
  /** The Jobs page's list, searched and filtered by status (job-list.ts). */
  search: (q: string, status: string) => ['/api/jobs', 'search', q, status] as const,
  /** The Jobs page's counts and month's values (job-list.ts). */
  summary: ['/api/jobs', 'summary'] as const,
  job: (id: number) => ['/api/jobs', id] as const,
};

/** The account's jobs, newest first (the server's order). */
export function useJobs() {
  return useQuery({ queryKey: jobKeys.list, queryFn: async () => (await jobsApi.list()).jobs });
}

export function useJob(id: number) {
  return useQuery({ queryKey: jobKeys.job(id), queryFn: async () => (await jobsApi.get(id)).job });
}

/**
 * A job as the server answered it: its page shows it at once, and the lists, the Jobs page's
 * figures and its lead's business (the lead's "Open job", the funnel's quotes) are read again.
 */
function rememberJob(queryClient: QueryClient, job: Job): void {
  queryClient.setQueryData(jobKeys.job(job.id), job);
  void queryClient.invalidateQueries({ predicate: ({ queryKey }) => queryKey[0] === jobKeys.list[0] && typeof queryKey[1] !== 'number' });
  // A job cancelled leaves the jobs with money; one accepted meanwhile joins them.
  void queryClient.invalidateQueries({ queryKey: queryKeys.jobMoney });
  if (job.businessId !== null) {
    void queryClient.invalidateQueries({ queryKey: queryKeys.businessLeads(job.businessId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.businessFunnel(job.businessId) });
  }
}

export function useCreateJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: JobCreateInput) => (await jobsApi.create(input)).job,
    onSuccess: (job) => rememberJob(queryClient, job),
  });
}

export function useUpdateJob(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: JobChanges) => (await jobsApi.update(id, changes)).job,
    onSuccess: (job) => rememberJob(queryClient, job),
  });
}

export function useAddJobTrees() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ jobId, analysisIds }: { jobId: number; analysisIds: readonly number[] }) => (await jobsApi.addTrees(jobId, analysisIds)).job,
    onSuccess: (job) => rememberJob(queryClient, job),
  });
}

export function useAddJobLine(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (line: NewLine) => (await jobsApi.addLine(id, line)).job,
    onSuccess: (job) => rememberJob(queryClient, job),
  });
}

export function useSendJob(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (email: string) => (await jobsApi.send(id, email)).job,
    onSuccess: (job) => rememberJob(queryClient, job),
  });
}

export function useRevokeJob(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await jobsApi.revoke(id)).job,
    onSuccess: (job) => rememberJob(queryClient, job),
  });
}


export function useAskEarlyStart(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await jobsApi.askEarlyStart(id)).job,
    onSuccess: (job) => rememberJob(queryClient, job),
  });
}

export function useCancelJob(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: JobCancelInput) => (await jobsApi.cancel(id, body)).job,
    onSuccess: (job) => rememberJob(queryClient, job),
  });
}
