import { z } from 'zod';
import { publicUserSchema } from './accounts';
import { subscriptionTypeSchema } from './credits';
import { MEMBER_STATUSES, TEAM_ROLES } from './team';

/**
 * The admin log page (docs/product.md, Help assistant and admin log): the answer
 * of GET /api/admin/log-accounts, and the accounts table below its button.
 */

/** docs/product.md, Messages: the toast when the log cannot be triggered. */
export const ADMIN_LOG_ERROR_TITLE = 'Error';
export const ADMIN_LOG_ERROR_DEFAULT = 'Failed to trigger console log';

/** docs/product.md, Accounts: what a signed-in user who is not an admin is told, by the page and by the server's 403. */
export const ADMIN_ONLY_MESSAGE = 'This page is restricted to admin users.';

/** The admin log's answer: message and totalUsers (docs/product.md, Help assistant and admin log). */
export const adminLogResponseSchema = z.object({
  message: z.string(),
  totalUsers: z.number().int().nonnegative(),
});
export type AdminLogResponse = z.infer<typeof adminLogResponseSchema>;

export const ADMIN_ACCOUNTS_PAGE_SIZE = { default: 20, max: 100 } as const;
/** Long enough for any e-mail address or full name; a search box needs no more. */
export const ADMIN_SEARCH_MAX = 100;

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be a whole number from ${min} to ${max}`).max(max, `${name} must be a whole number from ${min} to ${max}`));

/** `GET /api/admin/accounts?query=&page=&limit=`: query strings as they arrive (undefined when absent). */
export const adminAccountsQuerySchema = z.object({
  query: z.string().trim().max(ADMIN_SEARCH_MAX, `query must be at most ${ADMIN_SEARCH_MAX} characters`).default(''),
  page: wholeNumber('page', 1, 1_000_000).default(1),
  limit: wholeNumber('limit', 1, ADMIN_ACCOUNTS_PAGE_SIZE.max).default(ADMIN_ACCOUNTS_PAGE_SIZE.default),
});
export type AdminAccountsQuery = z.output<typeof adminAccountsQuerySchema>;

/**
 * One account as the admin sees it: the logged fields (id, username, e-mail, full name,
 * creation and update times, subscription type and status, token balance, refill dates) and
 * the role. Never the password hash, a session, a reset token or a payment provider's id.
 * Times are ISO 8601 text.
 */
/**
 * A person's place in a team and their recent sign-ins (newest first, at most 5), as the admin log
 * keeps them per person: the time and the client's network (http/rate-limit.ts clientNetwork), never
 * a password hash, session or token. `role` above is the install's (admin or user); `teamRole` the
 * person's in their team.
 */
export const adminPersonFactsSchema = z.object({
  team: z.object({ accountId: z.number().int(), name: z.string() }),
  teamRole: z.enum(TEAM_ROLES),
  memberStatus: z.enum(MEMBER_STATUSES),
  recentSignIns: z.array(z.object({ at: z.string(), address: z.string().nullable() })),
});
export type AdminPersonFacts = z.infer<typeof adminPersonFactsSchema>;

/** How many sign-ins the admin log page lists, newest first, across the install. */
export const ADMIN_SIGN_INS_SHOWN = 50;

/**
 * `GET /api/admin/sign-ins`: the install's newest sign-ins, each with the person, their team and
 * role in it, the time and the client's network; never a password hash, session or token.
 */
export const adminSignInSchema = z.object({
  at: z.string(),
  address: z.string().nullable(),
  person: z.object({ id: z.number().int(), username: z.string(), name: z.string() }),
  team: z.object({ accountId: z.number().int(), name: z.string() }),
  teamRole: z.enum(TEAM_ROLES),
});
export type AdminSignIn = z.infer<typeof adminSignInSchema>;
export const adminSignInListSchema = z.object({ signIns: z.array(adminSignInSchema) });
export type AdminSignInList = z.infer<typeof adminSignInListSchema>;

export const adminAccountSchema = publicUserSchema.extend({
  ...adminPersonFactsSchema.shape,
  updatedAt: z.string(),
  subscriptionType: subscriptionTypeSchema.nullable(),
  subscriptionStatus: z.string().nullable(),
  tokensRemaining: z.number().int(),
  tokensTotal: z.number().int(),
  lastRefillDate: z.string().nullable(),
  nextRefillDate: z.string().nullable(),
});
export type AdminAccount = z.infer<typeof adminAccountSchema>;

/** A page of accounts, newest first, with the count of every match so the table can say "page 2 of 5". */
export const adminAccountPageSchema = z.object({
  accounts: z.array(adminAccountSchema),
  query: z.string(),
  page: z.number().int().positive(),
  limit: z.number().int().positive(),
  total: z.number().int().nonnegative(),
  totalPages: z.number().int().nonnegative(),
});
export type AdminAccountPage = z.infer<typeof adminAccountPageSchema>;
