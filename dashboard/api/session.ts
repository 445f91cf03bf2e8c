import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, isApiError, type PublicUser } from './client';
import { queryKeys } from './query-client';

/** The current user stays fresh for 5 minutes. */
const CURRENT_USER_FRESH_MS = 300_000;

/** docs/product.md, Messages: the one message for a current-user failure other than 401. */
export const CURRENT_USER_ERROR_MESSAGE = 'Failed to fetch user data';

/**
 * Set by the server beside the HttpOnly session cookie and cleared with it
 * (server/http/session.ts, SESSION_HINT_COOKIE). It says only that a session cookie exists.
 */
const SESSION_HINT = 'ta_signed_in=1';

function mayHaveSession(): boolean {
  return document.cookie.split('; ').includes(SESSION_HINT);
}

/**
 * A 401 means signed out (null); any other failure is an error. Without
 * the hint there is no session cookie to send, so the answer can only be 401: the visitor
 * is signed out at once, and a guest's console shows no failed request. With the
 * hint but a session that ended elsewhere, the server still answers 401 and clears the hint.
 */
async function fetchCurrentUser(): Promise<PublicUser | null> {
  if (!mayHaveSession()) return null;
  try {
    const { user } = await api.auth.me();
    return user;
  } catch (error) {
    if (isApiError(error, 'UNAUTHORIZED')) return null;
    throw new ApiError(CURRENT_USER_ERROR_MESSAGE, error instanceof ApiError ? error.status : 0);
  }
}

export function useCurrentUser() {
  return useQuery({
    queryKey: queryKeys.currentUser,
    queryFn: fetchCurrentUser,
    // Known at once without the hint: the login screen renders first, with no spinner before it.
    initialData: () => (mayHaveSession() ? undefined : null),
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
