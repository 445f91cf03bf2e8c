import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, type PublicUser } from './client';
import { queryKeys } from './query-client';

/** SPEC section 9: the current user stays fresh for 5 minutes. */
const CURRENT_USER_FRESH_MS = 300_000;

/** SPEC section 8: the one message for a current-user failure other than 401. */
export const CURRENT_USER_ERROR_MESSAGE = 'Failed to fetch user data';

/** SPEC section 4: a 401 means signed out (null); any other failure is an error. */
async function fetchCurrentUser(): Promise<PublicUser | null> {
  try {
    const { user } = await api.auth.me();
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw new ApiError(CURRENT_USER_ERROR_MESSAGE, error instanceof ApiError ? error.status : 0);
  }
}

export function useCurrentUser() {
  return useQuery({
    queryKey: queryKeys.currentUser,
    queryFn: fetchCurrentUser,
    staleTime: CURRENT_USER_FRESH_MS,
    retry: false,
  });
}

/**
 * After a sign-in or registration: anything cached belonged to whoever was here
 * before, so it goes, and the new user becomes the current user at once.
 */
export function startSession(queryClient: QueryClient, user: PublicUser): void {
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== queryKeys.currentUser[0],
  });
  queryClient.setQueryData(queryKeys.currentUser, user);
}

/**
 * After logout the cache is emptied and the visitor is signed out. The current-user
 * entry is set to null rather than removed, so the screens watching it learn at once.
 */
export function endSession(queryClient: QueryClient): void {
  queryClient.setQueryData(queryKeys.currentUser, null);
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== queryKeys.currentUser[0],
  });
}

export function useUserTokens(enabled = true) {
  return useQuery({
    queryKey: queryKeys.userTokens,
    queryFn: api.credits.get,
    enabled,
  });
}
