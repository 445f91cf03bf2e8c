import { z } from 'zod';
import {
  ACCOUNT_MESSAGES,
  EMAIL_INVALID_MESSAGE,
  EMAIL_MAX,
  EMAIL_PATTERN,
  EMAIL_TOO_LONG_MESSAGE,
  NAME_MAX,
  NAME_TOO_LONG_MESSAGE,
  PASSWORD_MAX,
  PASSWORD_MAX_MESSAGE,
  PASSWORD_MIN,
  PASSWORD_MIN_MESSAGE,
  TOKEN_MAX,
  USERNAME_MAX,
  USERNAME_MESSAGES,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from './account-checks';
import { signedInMemberSchema } from './team';

/**
 * Account request schemas, used by the server to validate bodies. Messages are those of
 * docs/product.md, Messages, word for word; passwords are 6..128 characters at
 * registration and reset alike (docs/product.md, Accounts), with one reset message. The limits and messages
 * live in core/account-checks.ts, whose zod-free checks the sign-in screens use.
 */
export { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_MIN_MESSAGE };

export const passwordSchema = z.string().min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE).max(PASSWORD_MAX, PASSWORD_MAX_MESSAGE);

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX, EMAIL_TOO_LONG_MESSAGE)
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: EMAIL_INVALID_MESSAGE }));

export const usernameSchema = z
  .string()
  .trim()
  .min(USERNAME_MIN, USERNAME_MESSAGES.short)
  .max(USERNAME_MAX, USERNAME_MESSAGES.long)
  .regex(USERNAME_PATTERN, USERNAME_MESSAGES.pattern);

const nameSchema = z.string().trim().max(NAME_MAX, NAME_TOO_LONG_MESSAGE);

export const registerSchema = z
  .object({
    firstName: nameSchema.default(''),
    lastName: nameSchema.default(''),
    username: usernameSchema,
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: z.string().min(1, ACCOUNT_MESSAGES.confirmRequired),
  })
  // An empty confirmation already says "Please confirm your password"; don't also say they differ.
  .refine((v) => v.confirmPassword === '' || v.password === v.confirmPassword, {
    message: ACCOUNT_MESSAGES.mismatch,
    path: ['confirmPassword'],
  });
export type RegisterInput = z.input<typeof registerSchema>;

export const loginSchema = z.object({
  usernameOrEmail: z.string().trim().min(1, ACCOUNT_MESSAGES.usernameOrEmailRequired).max(EMAIL_MAX),
  password: z.string().min(1, ACCOUNT_MESSAGES.passwordRequired).max(PASSWORD_MAX),
});
export type LoginInput = z.input<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1, ACCOUNT_MESSAGES.tokenRequired).max(TOKEN_MAX),
    password: passwordSchema,
    confirmPassword: z.string().min(1, ACCOUNT_MESSAGES.confirmRequired),
  })
  // An empty confirmation already says "Please confirm your password"; don't also say they differ.
  .refine((v) => v.confirmPassword === '' || v.password === v.confirmPassword, {
    message: ACCOUNT_MESSAGES.mismatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

export const roleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof roleSchema>;

/** What the API tells a client about a user: never the password hash. */
export const publicUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: roleSchema,
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** `member`: who the person is in their team (core/team.ts); absent only in answers from before teams. */
export const userResponseSchema = z.object({ user: publicUserSchema, member: signedInMemberSchema.optional() });
export const messageResponseSchema = z.object({ message: z.string() });

export { RESET_DONE_MESSAGE, RESET_REQUESTED_MESSAGE } from './account-checks';
export const LOGIN_FAILED_MESSAGE = 'Invalid username/email or password';
export const RESET_INVALID_MESSAGE = 'This reset link is invalid or has expired. Please request a new one.';

/** docs/product.md, Constants: a reset link lives one hour. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
