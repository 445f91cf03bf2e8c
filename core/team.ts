import { z } from 'zod';
import { TEAM_ROLES, type TeamRole } from './team-roles';

/**
 * A business account is a team (docs/product.md, Team): one owner, office members and crew
 * members, each signing in as themselves. The team's records (jobs, quotes, invoices, leads,
 * businesses, analyses, settings, credits) are keyed by the team's account: the users row of
 * whoever started it, which keeps that key when ownership is handed on.
 */
export { ROLE_LABELS, TEAM_ROLES, type TeamRole } from './team-roles';

/** Who may be invited: an owner is made only by handing ownership on (POST /api/team/owner). */
export const INVITABLE_ROLES = ['office', 'crew'] as const satisfies readonly TeamRole[];
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

export const MEMBER_STATUSES = ['active', 'removed'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];


/** What each role does, as Settings → Team says it beside the role picker. */
export const ROLE_SUMMARIES: Record<TeamRole, string> = {
  owner: 'Everything, including the plan, card payments, bank details and the team.',
  office: 'Customers, leads, analyses, jobs, quotes, bookings, invoices and payments. Not the plan, card set-up, bank details or the team.',
  crew: 'Only the jobs booked to their crew, without prices or money.',
};

/** An invitation link lasts 7 days (the issue's figure; Jobber's and SingleOps' links last days, not hours). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** One answer for a used, withdrawn, replaced, expired or unknown link (CONVENTIONS 13). */
export const INVITATION_GONE_MESSAGE =
  'This invitation link can no longer be used: it has been used already, withdrawn, replaced by a newer one, or is over 7 days old. If you have joined, sign in; otherwise ask whoever invited you to send a new invitation.';

/** What sign-in says, after the right password, to someone the owner took out of the team. */
export const REMOVED_MEMBER_MESSAGE = 'You are no longer a member of this team, so you cannot sign in. Ask the owner if you need to come back.';

export const TEAM_MESSAGES = {
  alreadyMember: 'That e-mail already belongs to someone in your team.',
  alreadyInvited: 'That e-mail already has an invitation waiting. Send it again from the list instead.',
  emailTaken: 'That e-mail already has its own TreeAnalyzer Pro sign-in. Invite another address, or ask them to use a different one.',
  ownerCannotChange: 'The owner cannot be removed or given another role. Hand ownership to an office member first.',
  notYourself: 'You cannot change your own role or remove yourself.',
  newOwnerMustBeOffice: 'Ownership can only be handed to an active office member.',
  passwordWrong: 'That password is not right.',
} as const;

export interface TeamMember {
  id: number;
  name: string;
  email: string;
  role: TeamRole;
  status: MemberStatus;
  /** ISO time of the person's last request (to the hour), null until they sign in. */
  lastSeenAt: string | null;
  /** This is the person asking. */
  you: boolean;
}

export interface TeamInvitation {
  id: number;
  email: string;
  name: string;
  role: InvitableRole;
  expiresAt: string;
  invitedBy: string | null;
}

export interface TeamView {
  members: TeamMember[];
  invitations: TeamInvitation[];
}

/** GET /api/team/invitations/{token}: what the join page shows before anyone signs in. */
export interface InvitationPreview {
  businessName: string;
  /** The business's logo on the join page, when it has one. */
  logoUrl: string | null;
  role: InvitableRole;
  email: string;
  name: string;
  expiresAt: string;
}

/** Who is signed in, as GET /api/auth/me (and sign-in, registering, joining) answer it beside `user`. */
export const signedInMemberSchema = z.object({
  /** Their team_members row; null for a team of one made before teams. */
  memberId: z.number().int().nullable(),
  name: z.string(),
  role: z.enum(TEAM_ROLES),
  /** The team's name: the company profile's trading name, else the owner's name. */
  businessName: z.string(),
});
export type SignedInMember = z.infer<typeof signedInMemberSchema>;

/** A person's name as the team and the history show it: first and last name, else the username. */
export function personName(user: { firstName: string; lastName: string; username: string }): string {
  const full = `${user.firstName} ${user.lastName}`.trim();
  return full || user.username;
}

/**
 * Who did something, by name (personName), in a team that has had more than one
 * person; null when no person did (the customer, background work). Absent altogether for a team
 * of one, whose answers read as they did before teams (server/team/names.ts teamNamesOf).
 */
export const byNameSchema = z.string().nullable().optional();
