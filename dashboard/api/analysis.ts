import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Analysis } from '../../core/analysis';
import { signedInApi } from './signed-in';
import { queryKeys } from './query-client';

/**
 * The signed-in user's analyses, newest first, a page at a time (GET /api/analyses answers
 * 20 and a cursor for the rest); `fetchNextPage` reads the next page.
 */
export function useAnalyses() {
  return useInfiniteQuery({
    queryKey: queryKeys.analyses,
    queryFn: ({ pageParam }) => signedInApi.analysis.list(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
    select: (data) => data.pages.flatMap((page) => page.analyses),
  });
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
