import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { request } from './client';

/**
 * GET /api/my-days (docs/product.md, Team): the days a person has work booked to their crews.
 * Crews and bookings to them come with the crews' week; until then the list is always empty,
 * so a day's own fields are not read yet.
 */
const myDaysSchema = z.object({ days: z.array(z.unknown()) });

export const myDaysKey = ['/api/my-days'] as const;

export function useMyDays() {
  return useQuery({ queryKey: myDaysKey, queryFn: () => request('GET', '/api/my-days', { schema: myDaysSchema }) });
}
