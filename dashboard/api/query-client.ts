import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './client';

export const queryKeys = {
  currentUser: ['/api/auth/me'] as const,
  userTokens: ['/api/user-tokens'] as const,
  analyses: ['/api/analyses'] as const,
  analysis: (id: number) => ['/api/analysis', id] as const,
  quoteRecipient: (id: number) => ['/api/analysis', id, 'quote-recipient'] as const,
  settings: ['/api/system-settings'] as const,
  billingConfig: ['/api/billing/config'] as const,
  businesses: ['/api/businesses'] as const,
  businessFunnel: (businessId: number) => ['/api/business-funnel', businessId] as const,
  // Not under ['/api/businesses']: refreshing the list after an edit need not reload every lead list.
  businessLeads: (businessId: number) => ['/api/business-leads', businessId] as const,
  /**
   * Each accepted job's money (GET /api/invoices/jobs). Here, not only beside the other invoice keys
   * (api/invoices.ts), so a job booked or done and a deposit rule saved can mark it stale without
   * loading the invoice calls; under the invoices' root, so every invoice change marks it too.
   */
  jobMoney: ['/api/invoices', 'jobs'] as const,
};

/**
 * docs/product.md, Screens: data is never stale by itself, nothing refetches on focus or
 * polls, and neither queries nor mutations retry. Screens refresh what they
 * change by invalidating it.
 */
export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      // A 401 from any read means the session has ended (expired, or reset elsewhere):
      // the visitor is signed out, so the signed-in screens give way to the login screen.
      onError: (error, query) => {
        if (isApiError(error, 'UNAUTHORIZED') && query.queryKey[0] !== queryKeys.currentUser[0]) {
          queryClient.setQueryData(queryKeys.currentUser, null);
        }
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}
