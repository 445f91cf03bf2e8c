import { useQuery } from '@tanstack/react-query';
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
