import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { userTokensResponseSchema, type UserTokensResponse } from '../../core/credits';
import { request } from './client';
import { queryKeys } from './query-client';

/**
 * The credits every signed-in screen shows (GET /api/user-tokens). Apart from session.ts,
 * which the sign-in screens load, so this zod schema stays out of their first load.
 */
function fetchUserTokens(): Promise<UserTokensResponse> {
  return request('GET', '/api/user-tokens', { schema: userTokensResponseSchema });
}

export function useUserTokens(enabled = true) {
  return useQuery({
    queryKey: queryKeys.userTokens,
    queryFn: fetchUserTokens,
    enabled,
  });
}

/** Nothing polls (docs/product.md, Screens); a payment that is settling is the one exception: every second, for 15 s at most. */
export const SETTLE_POLL_MS = 1000;
export const SETTLE_LIMIT_MS = 15_000;

/**
 * The balance as the server has it now (re-read on arrival, never the cached one), polled while
 * `settling` says a payment is on its way and the 15 s have not run out. Success pages use it
 * to say what really happened.
 */
export function useSettlingTokens(settling: (tokens: UserTokensResponse) => boolean) {
  const [since, setSince] = useState(() => Date.now());
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), SETTLE_LIMIT_MS);
    return () => clearTimeout(timer);
  }, [since]);
  const tokens = useQuery({
    queryKey: queryKeys.userTokens,
    queryFn: fetchUserTokens,
    refetchOnMount: 'always',
    refetchInterval: (query) => (!timedOut && query.state.data && settling(query.state.data) ? SETTLE_POLL_MS : false),
  });
  // Fresh data only: until the re-read on arrival is in, the cached balance may be another page's.
  const fresh = tokens.data !== undefined && (tokens.dataUpdatedAt >= since || !tokens.isFetching);
  const pending = fresh && settling(tokens.data);
  return {
    tokens,
    fresh,
    /** A payment is on its way and still being waited for. */
    waiting: pending && !timedOut,
    /** Still on its way after 15 s. */
    gaveUp: pending && timedOut,
    checkAgain: () => {
      setTimedOut(false);
      setSince(Date.now());
      void tokens.refetch();
    },
  };
}

