import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { protectionResponseSchema, type Protection, type ProtectionRecordInput } from '../../core/protection';
import { request } from './client';
import { jobKeys } from './jobs';

/**
 * A job's protected trees (docs/product.md, Protected trees): the lookup of its postcode, the
 * surgeon's record, the earliest start and the nesting line. Reading it may ask the public data
 * (a few seconds at most); "Check again" asks now.
 */
export const protectionKey = (jobId: number) => [...jobKeys.job(jobId), 'protection'] as const;

const read = async (path: string, method: 'GET' | 'POST' | 'PUT' = 'GET', body?: ProtectionRecordInput): Promise<Protection> =>
  (await request(method, path, { ...(body ? { body: { ...body } } : {}), schema: protectionResponseSchema })).protection;

export const protectionApi = {
  get: (jobId: number) => read(`/api/jobs/${jobId}/protection`),
  lookUp: (jobId: number) => read(`/api/jobs/${jobId}/protection/lookup`, 'POST'),
  record: (jobId: number, body: ProtectionRecordInput) => read(`/api/jobs/${jobId}/protection/record`, 'PUT', body),
};

export const useProtection = (jobId: number) => useQuery({ queryKey: protectionKey(jobId), queryFn: () => protectionApi.get(jobId) });

export function useProtectionChange(jobId: number) {
  const queryClient = useQueryClient();
  const remember = (protection: Protection) => {
    queryClient.setQueryData(protectionKey(jobId), protection);
    // The Jobs page's "Waiting on the council" follows the record.
    void queryClient.invalidateQueries({ queryKey: jobKeys.list, exact: true });
    void queryClient.invalidateQueries({ queryKey: [...jobKeys.list, 'search'] });
    void queryClient.invalidateQueries({ queryKey: jobKeys.summary });
  };
  return {
    lookUp: useMutation({ mutationFn: () => protectionApi.lookUp(jobId), onSuccess: remember }),
    record: useMutation({ mutationFn: (body: ProtectionRecordInput) => protectionApi.record(jobId, body), onSuccess: remember }),
  };
}
