import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Business, BusinessCreateInput, BusinessUpdateInput, Lead } from '../../core/business';
import { signedInApi } from './signed-in';
import { queryKeys } from './query-client';

/** The signed-in user's businesses, newest first (the server's order). */
export function useBusinesses() {
  return useQuery({ queryKey: queryKeys.businesses, queryFn: async () => (await signedInApi.businesses.list()).businesses });
}

/** One business's quote requests, newest first. */
export function useLeads(businessId: number) {
  return useQuery({
    queryKey: queryKeys.businessLeads(businessId),
    queryFn: async () => (await signedInApi.businesses.leads(businessId)).leads,
  });
}

/** One business's estimator funnel over the last 30 UTC days, and its leads' quotes over them. */
export function useFunnel(businessId: number) {
  return useQuery({
    queryKey: queryKeys.businessFunnel(businessId),
    queryFn: () => signedInApi.businesses.funnel(businessId),
  });
}

/*
 * The caches are refreshed after create and delete. The answer already holds the
 * changed business, so the cached list is patched at once (no flash of the old list)
 * and then read again from the server.
 */

export function useCreateBusiness() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: BusinessCreateInput) => (await signedInApi.businesses.create(input)).business,
    onSuccess: (business) => {
      queryClient.setQueryData<Business[]>(queryKeys.businesses, (list) => [business, ...(list ?? [])]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.businesses });
    },
  });
}

export function useUpdateBusiness(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: BusinessUpdateInput) => (await signedInApi.businesses.update(id, input)).business,
    onSuccess: (business) => {
      queryClient.setQueryData<Business[]>(queryKeys.businesses, (list) =>
        list?.map((b) => (b.id === business.id ? business : b)),
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.businesses });
    },
  });
}

export function useDeleteBusiness() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (business: Business) => {
      await signedInApi.businesses.remove(business.id);
      return business;
    },
    onSuccess: (business) => {
      queryClient.setQueryData<Business[]>(queryKeys.businesses, (list) => list?.filter((b) => b.id !== business.id));
      queryClient.removeQueries({ queryKey: queryKeys.businessLeads(business.id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.businesses });
    },
  });
}

export function useSetLeadContacted(businessId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ leadId, contacted }: { leadId: number; contacted: boolean }) =>
      (await signedInApi.businesses.setLeadContacted(businessId, leadId, contacted)).lead,
    onSuccess: (lead) => {
      queryClient.setQueryData<Lead[]>(queryKeys.businessLeads(businessId), (list) =>
        list?.map((l) => (l.id === lead.id ? lead : l)),
      );
    },
  });
}
