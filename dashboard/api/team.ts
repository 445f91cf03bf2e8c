import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { userResponseSchema } from '../../core/accounts';
import type { InviteInput, JoinInput } from '../../core/team-requests';
import {
  INVITABLE_ROLES,
  MEMBER_STATUSES,
  TEAM_ROLES,
  type InvitableRole,
  type InvitationPreview,
  type TeamInvitation,
  type TeamMember,
  type TeamView,
} from '../../core/team';
import { request } from './client';
import { queryKeys } from './query-client';

/**
 * The team's calls (docs/product.md, Team): Settings → Team for the owner, and the join page's
 * two public calls. Their schemas load with those screens only. The answers' shapes are
 * core/team.ts's; the readers here are held to them by `satisfies`.
 */

const memberSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(TEAM_ROLES),
  status: z.enum(MEMBER_STATUSES),
  lastSeenAt: z.string().nullable(),
  you: z.boolean(),
}) satisfies z.ZodType<TeamMember>;

const invitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(INVITABLE_ROLES),
  expiresAt: z.string(),
  invitedBy: z.string().nullable().default(null),
}) satisfies z.ZodType<TeamInvitation, unknown>;

const teamViewSchema = z.object({ members: z.array(memberSchema), invitations: z.array(invitationSchema) }) satisfies z.ZodType<TeamView, unknown>;

const invitationPreviewSchema = z.object({
  businessName: z.string(),
  logoUrl: z.string().nullable(),
  role: z.enum(INVITABLE_ROLES),
  email: z.string(),
  name: z.string(),
  expiresAt: z.string(),
}) satisfies z.ZodType<InvitationPreview>;

/** Whatever a change answers, the list is read again: the answer's body is not needed. */
const anyAnswer = z.unknown();

export const teamApi = {
  get: () => request('GET', '/api/team', { schema: teamViewSchema }),
  invite: (body: InviteInput) => request('POST', '/api/team/invitations', { body: { ...body }, schema: z.object({ invitation: invitationSchema }) }),
  /** 204, no body. */
  withdraw: (id: number) => request('DELETE', `/api/team/invitations/${id}`),
  resend: (id: number) => request('POST', `/api/team/invitations/${id}/resend`, { schema: anyAnswer }),
  changeRole: (id: number, role: InvitableRole) => request('PATCH', `/api/team/members/${id}`, { body: { role }, schema: anyAnswer }),
  /** 204, no body: every session of theirs has ended. */
  remove: (id: number) => request('DELETE', `/api/team/members/${id}`),
  makeOwner: (memberId: number, password: string) => request('POST', '/api/team/owner', { body: { memberId, password }, schema: anyAnswer }),
  /** Public: what the join page shows; a used, withdrawn or expired link is a 410 INVITATION_GONE with the sentence. */
  preview: (token: string) => request('GET', `/api/team/invitations/${encodeURIComponent(token)}`, { schema: invitationPreviewSchema }),
  /** Public: makes the person's sign-in and signs them in (a session cookie comes with the answer). */
  join: (body: JoinInput) => request('POST', '/api/team/join', { body: { ...body }, schema: userResponseSchema }),
};

export const teamKey = ['/api/team'] as const;

export function useTeam() {
  return useQuery({ queryKey: teamKey, queryFn: teamApi.get });
}

/** A change to the team; the list is read again after it, whether it worked or not (someone else may have changed it). */
export function useTeamChange<V, R>(change: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKey }),
  });
}

/** After ownership is handed on the person asking is office now: who they are is read again. */
export function useMakeOwner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, password }: { memberId: number; password: string }) => teamApi.makeOwner(memberId, password),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: teamKey }), queryClient.invalidateQueries({ queryKey: queryKeys.currentUser })]),
  });
}
