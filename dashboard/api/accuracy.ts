import { useQuery } from '@tanstack/react-query';
import { accuracySchema } from '../../core/accuracy';
import { request } from './client';
import { queryKeys } from './query-client';

/**
 * GET /api/accuracy: the account's estimates against its reported jobs. The key sits under
 * History's, so sending feedback (which invalidates the History list, analysis.ts
 * rememberAnalysis) reads this again too.
 */
export const accuracyQueryKey = [...queryKeys.analyses, 'accuracy'] as const;

export function useAccuracy() {
  return useQuery({
    queryKey: accuracyQueryKey,
    queryFn: () => request('GET', '/api/accuracy', { schema: accuracySchema }),
  });
}
