import { useQuery } from '@tanstack/react-query';
import type { UnitSystem } from '../../core/units';
import { queryKeys } from './query-client';
import { signedInApi } from './signed-in';

/**
 * The account's units (Settings), read with the settings the Settings page loads and keeps
 * (one query, one cache entry). Undefined until they arrive: callers show an analysis in its
 * own units and fall back to metric only for an old analysis stored without any.
 */
export function usePreferredUnits(): UnitSystem | undefined {
  const settings = useQuery({ queryKey: queryKeys.settings, queryFn: signedInApi.settings.get });
  return settings.data?.units;
}
