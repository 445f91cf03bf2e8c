import { useQuery } from '@tanstack/react-query';
import { api } from './client';

const capabilitiesKey = ['/api/capabilities'] as const;

/**
 * Whether this install has a vision model (GET /api/capabilities, public), so copy says
 * honestly where an estimate comes from. Read once and kept; until it answers, or if it
 * fails, the answer is "no vision model": never promise what may not be there.
 */
export function useVisionModel(): boolean {
  const capabilities = useQuery({ queryKey: capabilitiesKey, queryFn: api.capabilities.get });
  return capabilities.data?.visionModel ?? false;
}
