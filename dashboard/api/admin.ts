import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminAccountPageSchema, adminLogResponseSchema, adminSignInListSchema } from '../../core/admin';
import { isApiError, request } from './client';
import { queryKeys } from './query-client';

/**
 * The admin log page's calls (GET /api/admin/log-accounts, the accounts table and the recent sign-ins).
 * Loaded with that page only, so core/admin's schemas stay out of every other page's code.
 */
export const adminApi = {
  logAccounts: () => request('GET', '/api/admin/log-accounts', { schema: adminLogResponseSchema }),
  accounts: ({ query, page }: { query: string; page: number }) => {
    const params = new URLSearchParams({ page: String(page) });
    if (query !== '') params.set('query', query);
    return request('GET', `/api/admin/accounts?${params}`, { schema: adminAccountPageSchema });
  },
  signIns: () => request('GET', '/api/admin/sign-ins', { schema: adminSignInListSchema }),
};

/** The install's newest sign-ins, per person (GET /api/admin/sign-ins). */
export function useAdminSignIns() {
  return useQuery({ queryKey: ['/api/admin/sign-ins'] as const, queryFn: adminApi.signIns });
}

const ACCOUNTS_KEY = '/api/admin/accounts';

/** A page of the accounts table; the page before stays on screen while the next loads, so the table never blanks. */
export function useAdminAccounts(query: string, page: number) {
  return useQuery({
    queryKey: [ACCOUNTS_KEY, query, page] as const,
    queryFn: () => adminApi.accounts({ query, page }),
    placeholderData: keepPreviousData,
  });
}

/**
 * "Trigger Console Log". The table is read again afterwards, as the count may show accounts
 * registered since it loaded. A 403 means this user is no longer an admin (the role is the
 * server's, read on every request): the current user is read again, so the page says so.
 */
export function useLogAccounts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adminApi.logAccounts,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [ACCOUNTS_KEY] }),
    onError: (error) => {
      if (isApiError(error, 'FORBIDDEN')) void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    },
  });
}
