import { useQuery } from '@tanstack/react-query';
import { myDaysResponseSchema } from '../../core/schedule';
import { request } from './client';

/**
 * GET /api/my-days (docs/product.md, The schedule): the bookings of the crews the person is in,
 * by day from today for a week; no money in them.
 */
export const myDaysKey = ['/api/my-days'] as const;

export function useMyDays() {
  return useQuery({ queryKey: myDaysKey, queryFn: () => request('GET', '/api/my-days', { schema: myDaysResponseSchema }) });
}
