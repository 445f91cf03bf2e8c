import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { crewListResponseSchema, crewResponseSchema, type CrewCreateInput, type CrewPatchInput } from '../../core/crews';
import { jobBookResponseSchema, type JobBookInput } from '../../core/job-booking';
import { postponeResponseSchema, scheduleResponseSchema, type BookingMoveInput, type PostponeInput } from '../../core/schedule';
import { BANK_HOLIDAY_REGIONS, scheduleSettingsResponseSchema, type BankHolidayRegion } from '../../core/settings';
import { request } from './client';
import { jobKeys } from './jobs';
import { queryKeys } from './query-client';

/*
 * The crews' week (docs/product.md, Schedule): the board's calls, the crews' and the schedule's
 * settings. Their schemas load with the Schedule page and Settings only.
 */

export { BANK_HOLIDAY_REGIONS, type BankHolidayRegion };
export const BANK_HOLIDAY_REGION_LABELS: Record<BankHolidayRegion, string> = {
  'england-and-wales': 'England and Wales',
  scotland: 'Scotland',
  'northern-ireland': 'Northern Ireland',
};

/** The schedule's part of GET /api/system-settings. */
const scheduleSettingsSchema = scheduleSettingsResponseSchema;
export type ScheduleSettings = z.infer<typeof scheduleSettingsSchema>;
export interface ScheduleSettingsPatch {
  workingDays?: number[];
  daysOff?: string[];
  bankHolidayRegion?: BankHolidayRegion;
  climbingWindLimitMs?: number;
}

/** A booking of a job with the crew it goes to (POST /api/jobs/{id}/book's `crewId`). */
export type CrewBookingInput = JobBookInput;

export const scheduleApi = {
  get: (from: string, days: number) => request('GET', `/api/schedule?from=${encodeURIComponent(from)}&days=${days}`, { schema: scheduleResponseSchema }),
  /** Moves a booked job as one block; 409 CANCELLATION_PERIOD or PROTECTION_NOTICE with the sentence when it may not go there. */
  move: (jobId: number, body: BookingMoveInput) => request('PATCH', `/api/jobs/${jobId}/booking`, { body: { ...body }, schema: jobBookResponseSchema }),
  book: (jobId: number, body: CrewBookingInput) => request('POST', `/api/jobs/${jobId}/book`, { body: { ...body }, schema: jobBookResponseSchema }),
  postpone: (body: PostponeInput) => request('POST', '/api/schedule/postpone', { body: { ...body }, schema: postponeResponseSchema }),
  settings: () => request('GET', '/api/system-settings', { schema: scheduleSettingsSchema }),
  updateSettings: (body: ScheduleSettingsPatch) => request('PATCH', '/api/system-settings', { body: { ...body }, schema: scheduleSettingsSchema }),
};

export const crewsApi = {
  list: () => request('GET', '/api/crews', { schema: crewListResponseSchema }),
  create: (body: CrewCreateInput) => request('POST', '/api/crews', { body: { ...body }, schema: crewResponseSchema }),
  update: (id: number, body: CrewPatchInput) => request('PATCH', `/api/crews/${id}`, { body: { ...body }, schema: crewResponseSchema }),
  /** 204; 409 CONFLICT with the sentence while the crew has bookings to come. */
  remove: (id: number) => request('DELETE', `/api/crews/${id}`),
};

export const scheduleKeys = {
  all: ['/api/schedule'] as const,
  week: (from: string, days: number) => ['/api/schedule', from, days] as const,
  crews: ['/api/crews'] as const,
  /** Not queryKeys.settings: this reader keeps the schedule's fields only. */
  settings: ['/api/system-settings', 'schedule'] as const,
};

export function useSchedule(from: string, days: number) {
  return useQuery({ queryKey: scheduleKeys.week(from, days), queryFn: async () => (await scheduleApi.get(from, days)).schedule });
}

export function useCrews(enabled = true) {
  // One cache entry, the whole answer; each reader selects its part.
  return useQuery({ queryKey: scheduleKeys.crews, queryFn: crewsApi.list, select: (answer) => answer.crews, enabled });
}

/** The team's active people a crew may be made of (GET /api/crews `people`: the office may choose anyone too). */
export function useCrewCandidates() {
  return useQuery({ queryKey: scheduleKeys.crews, queryFn: crewsApi.list, select: (answer) => answer.people });
}

export function useScheduleSettings() {
  return useQuery({ queryKey: scheduleKeys.settings, queryFn: scheduleApi.settings });
}

/** After a booking moves or a day is postponed: the board, the jobs and the job are read again. */
function useAfterBookingChange() {
  const queryClient = useQueryClient();
  return (jobIds: number[]) => {
    void queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
    void queryClient.invalidateQueries({ queryKey: jobKeys.list, exact: true });
    void queryClient.invalidateQueries({ queryKey: queryKeys.jobMoney });
    for (const id of jobIds) void queryClient.invalidateQueries({ queryKey: jobKeys.job(id) });
  };
}

export function useMoveBooking() {
  const after = useAfterBookingChange();
  return useMutation({
    mutationFn: ({ jobId, body }: { jobId: number; body: BookingMoveInput }) => scheduleApi.move(jobId, body),
    onSuccess: (_answer, { jobId }) => after([jobId]),
  });
}

export function useBookFromBoard() {
  const after = useAfterBookingChange();
  return useMutation({
    mutationFn: ({ jobId, body }: { jobId: number; body: CrewBookingInput }) => scheduleApi.book(jobId, body),
    onSuccess: (_answer, { jobId }) => after([jobId]),
  });
}

export function usePostponeDay() {
  const after = useAfterBookingChange();
  return useMutation({
    mutationFn: scheduleApi.postpone,
    onSuccess: ({ moved }) => after(moved.map((m) => m.jobId)),
  });
}

/** A change to the crews: the list and the board are read again, whether it worked or not. */
export function useCrewChange<V, R>(change: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: scheduleKeys.crews }), queryClient.invalidateQueries({ queryKey: scheduleKeys.all })]),
  });
}

export function useSaveScheduleSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: scheduleApi.updateSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(scheduleKeys.settings, settings);
      void queryClient.invalidateQueries({ queryKey: queryKeys.settings });
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
    },
  });
}
