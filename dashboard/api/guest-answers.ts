import type { PublicUser } from '../../core/accounts';
import { isRecord } from '../../core/is-record';
import type { SignedInMember } from '../../core/team';
import { TEAM_ROLES } from '../../core/team-roles';
import type { Capabilities } from '../../core/tree-details';

/**
 * Readers for the answers the sign-in screens get: the current user, a message, the
 * install's capabilities. Hand-written rather than core's zod schemas, so zod stays out of
 * a guest's first load (vite.dashboard.config.ts holds it to a budget); they check the same fields
 * the zod schemas do (core/accounts.ts publicUserSchema, core/tree-details.ts
 * capabilitiesSchema) and guest-answers.test.ts holds them to those schemas.
 * Each has zod's safeParse shape, so request() takes either kind.
 */
export type AnswerCheck<T> = { success: true; data: T } | { success: false };
export interface AnswerReader<T> {
  safeParse(value: unknown): AnswerCheck<T>;
}

type Fields = Record<string, unknown>;

export function reader<T>(accepts: (value: Fields) => boolean, pick: (value: Fields) => T): AnswerReader<T> {
  return {
    safeParse: (value) => (isRecord(value) && accepts(value) ? { success: true, data: pick(value) } : { success: false }),
  };
}

const isString = (v: unknown): v is string => typeof v === 'string';

function isPublicUser(v: unknown): v is PublicUser {
  return (
    isRecord(v) &&
    Number.isInteger(v.id) &&
    [v.username, v.email, v.firstName, v.lastName, v.createdAt].every(isString) &&
    (v.role === 'user' || v.role === 'admin')
  );
}

function publicUser(v: PublicUser): PublicUser {
  const { id, username, email, firstName, lastName, role, createdAt } = v;
  return { id, username, email, firstName, lastName, role, createdAt };
}


function isMember(v: unknown): v is SignedInMember {
  return (
    isRecord(v) &&
    (v.memberId === null || Number.isInteger(v.memberId)) &&
    isString(v.name) &&
    isString(v.businessName) &&
    (TEAM_ROLES as readonly unknown[]).includes(v.role)
  );
}

/** `{ user, member }`; `member` is absent only from a server older than teams (core/accounts.ts userResponseSchema). */
export const userAnswer = reader<{ user: PublicUser; member?: SignedInMember }>(
  (v) => isPublicUser(v.user) && (v.member === undefined || isMember(v.member)),
  (v) => {
    const user = publicUser(v.user as PublicUser);
    if (v.member === undefined) return { user };
    const { memberId, name, role, businessName } = v.member as SignedInMember;
    return { user, member: { memberId, name, role, businessName } };
  },
);

export const messageAnswer = reader(
  (v) => isString(v.message),
  (v) => ({ message: v.message as string }),
);

export const capabilitiesAnswer = reader<Capabilities>(
  (v) => typeof v.visionModel === 'boolean',
  (v) => ({ visionModel: v.visionModel as boolean }),
);
