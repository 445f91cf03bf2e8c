import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Analysis } from '../../core/analysis';
import { signedInApi } from './signed-in';
import { queryKeys } from './query-client';

/** The signed-in user's analyses, newest first. */
export function useAnalyses() {
  return useQuery({ queryKey: queryKeys.analyses, queryFn: async () => (await signedInApi.analysis.list()).analyses });
}

export function useAnalysis(id: number) {
  return useQuery({
    queryKey: queryKeys.analysis(id),
    queryFn: async () => (await signedInApi.analysis.get(id)).analysis,
  });
}

/** A new or changed analysis: its cached copy is replaced and the history list is read again. */
export function rememberAnalysis(queryClient: QueryClient, analysis: Analysis): void {
  queryClient.setQueryData(queryKeys.analysis(analysis.id), analysis);
  void queryClient.invalidateQueries({ queryKey: queryKeys.analyses });
}
