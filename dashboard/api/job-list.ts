import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { jobSummaryResponseSchema } from '../../core/job-summary';
import { jobListSchema } from '../../core/jobs';
import type { StatusFilter } from '../components/jobs/job-list-summary';
import { request } from './client';
import { jobKeys } from './jobs';

/** The Jobs page's reads (docs/product.md, The Jobs pages): its list, searched on the server, and its figures. */

export const jobListApi = {
  /** `q`: every word in the customer's name, e-mail or quote number; `status`: one status or all. */
  search: (q: string, status: StatusFilter) => {
    const params = new URLSearchParams();
    if (q) params.set('q', q);
    if (status === 'council') params.set('waiting', 'council');
    else if (status !== 'all') params.set('status', status);
    const query = params.toString();
    return request('GET', `/api/jobs${query ? `?${query}` : ''}`, { schema: jobListSchema });
  },
  summary: () => request('GET', '/api/jobs/summary', { schema: jobSummaryResponseSchema }),
};

/** The jobs a search and a status leave, newest first; the rows before stay shown while the next ones load. */
export function useJobSearch(q: string, status: StatusFilter) {
  return useQuery({
    queryKey: jobKeys.search(q, status),
    queryFn: async () => (await jobListApi.search(q, status)).jobs,
    placeholderData: keepPreviousData,
  });
}

/** Jobs by status, and what was quoted, accepted and done this month. */
export function useJobSummary() {
  return useQuery({ queryKey: jobKeys.summary, queryFn: async () => (await jobListApi.summary()).summary });
}
