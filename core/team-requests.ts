import { z } from 'zod';
import { NAME_MAX } from './account-checks';
import { emailSchema, passwordSchema } from './accounts';
import { INVITABLE_ROLES } from './team';

/** The team's request bodies (docs/product.md, Team), validated by server/routes/team.ts and read by the dashboard's forms. */
const personNameSchema = z.string().trim().min(1, 'Please enter a name').max(NAME_MAX, `A name can be at most ${NAME_MAX} characters`);

/** POST /api/team/invitations */
export const inviteSchema = z.object({
  email: emailSchema,
  name: personNameSchema,
  role: z.enum(INVITABLE_ROLES, { error: 'Choose Office or Crew' }),
});
export type InviteInput = z.infer<typeof inviteSchema>;

/** A 256-bit token as base64url is 43 characters; anything far longer is not one of ours. */
export const invitationTokenSchema = z.string().min(1, 'The invitation link is incomplete').max(128);

/** POST /api/team/join: the same password rules as registering. */
export const joinSchema = z.object({
  token: invitationTokenSchema,
  name: personNameSchema,
  password: passwordSchema,
});
export type JoinInput = z.infer<typeof joinSchema>;

/** PATCH /api/team/members/{id} */
export const changeRoleSchema = z.object({ role: z.enum(INVITABLE_ROLES, { error: 'Choose Office or Crew' }) });

/** POST /api/team/owner */
export const transferOwnerSchema = z.object({
  memberId: z.number().int().positive(),
  password: z.string().min(1, 'Please enter your password').max(128),
});

