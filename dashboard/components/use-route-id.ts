import { useParams, useSearchParams } from 'wouter';

/** The id an address part names: a whole number from 1 up, or undefined for anything else ("", "abc", "0", "-3", "1.5"). */
export function positiveId(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * The positive whole-number id the current address names, or undefined when it names none:
 * `useRouteId()` reads the route's `:id` (/jobs/12), `useRouteId('job', 'search')` reads ?job=12.
 * Pages show their not-found state for undefined rather than asking the server about a bad id.
 */
export function useRouteId(name = 'id', from: 'path' | 'search' = 'path'): number | undefined {
  const params = useParams<Record<string, string | undefined>>();
  const [search] = useSearchParams();
  return positiveId(from === 'path' ? params[name] : search.get(name));
}
