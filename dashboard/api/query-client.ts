import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './client';
import { sessionLost } from './session';

export const queryKeys = {
  currentUser: ['/api/auth/me'] as const,
  /** Not a request: what the sign-in screen says after a session ended while a page was open (api/session.ts). */
  signedOutNotice: ['signed-out-notice'] as const,
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
 * polls (but who is signed in, api/session.ts), and neither queries nor mutations retry.
 * Screens refresh what they change by invalidating it.
 */
export function createQueryClient(): QueryClient {
  // A 401 from any request means the session has ended (expired, reset elsewhere, or the owner
  // took this person out of the team): the visitor is signed out and the sign-in screen says so.
  // A 403 ROLE_FORBIDDEN may mean the owner changed this person's role: who they are is read again.
  // A 401 from the current-user query is its own answer (signed out), handled in api/session.ts.
  function onError(error: Error, key?: readonly unknown[]) {
    if (isApiError(error, 'UNAUTHORIZED') && key?.[0] !== queryKeys.currentUser[0]) sessionLost(queryClient);
    else if (isApiError(error, 'ROLE_FORBIDDEN')) void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
  }
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onError(error, query.queryKey) }),
    mutationCache: new MutationCache({
      // A sign-in's own 401 (a wrong password) is not a session ending: nobody is signed in then.
      onError: (error) => onError(error),
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
