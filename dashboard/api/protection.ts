import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { protectionResponseSchema, type Protection, type ProtectionRecordInput } from '../../core/protection';
import { section211ResponseSchema, type Section211, type Section211Input } from '../../core/section-211';
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

/**
 * The section 211 notice's trees as drafted and corrected (core/section-211.ts); saving keeps the
 * corrections, which the PDF at `section211PdfUrl` prints.
 */
export const section211Key = (jobId: number) => [...jobKeys.job(jobId), 'section-211'] as const;
export const section211PdfUrl = (jobId: number) => `/api/jobs/${jobId}/section-211.pdf`;

const readNotice = async (jobId: number, body?: Section211Input): Promise<Section211> =>
  (await request(body ? 'PUT' : 'GET', `/api/jobs/${jobId}/section-211`, { ...(body ? { body: { ...body } } : {}), schema: section211ResponseSchema })).notice;

export const useSection211 = (jobId: number) => useQuery({ queryKey: section211Key(jobId), queryFn: () => readNotice(jobId) });

export function useSaveSection211(jobId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Section211Input) => readNotice(jobId, body),
    onSuccess: (notice) => queryClient.setQueryData(section211Key(jobId), notice),
  });
}
