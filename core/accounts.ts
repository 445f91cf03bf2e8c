import { z } from 'zod';

/**
 * Account request schemas, used by the server to validate bodies and by the
 * dashboard forms (react-hook-form + zod resolver). Messages quoted in SPEC
 * section 5 are copied exactly; DECISIONS sets passwords to 6..128 characters
 * at registration and reset alike, with the spec's reset message.
 */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const PASSWORD_MIN_MESSAGE = 'Password must be at least 6 characters';

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, PASSWORD_MIN_MESSAGE)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Email is too long')
  .pipe(z.email('Please enter a valid email address'));

export const usernameSchema = z
  .string()
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(32, 'Username must be at most 32 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may use letters, numbers, dots, dashes and underscores');

const nameSchema = z.string().trim().max(64, 'Must be at most 64 characters');

export const registerSchema = z
  .object({
    firstName: nameSchema.default(''),
    lastName: nameSchema.default(''),
    username: usernameSchema,
    email: emailSchema,
    password: passwordSchema,
    confirmPassword: z.string().min(1, 'Please confirm your password'),
  })
  // An empty confirmation already says "Please confirm your password"; don't also say they differ.
  .refine((v) => v.confirmPassword === '' || v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type RegisterInput = z.input<typeof registerSchema>;

export const loginSchema = z.object({
  usernameOrEmail: z.string().trim().min(1, 'Username or email is required').max(254),
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX),
});
export type LoginInput = z.input<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1, 'Reset token is required').max(256),
    password: passwordSchema,
    confirmPassword: z.string().min(1, 'Please confirm your password'),
  })
  // An empty confirmation already says "Please confirm your password"; don't also say they differ.
  .refine((v) => v.confirmPassword === '' || v.password === v.confirmPassword, {
    message: "Passwords don't match",
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

export const userResponseSchema = z.object({ user: publicUserSchema });
export const messageResponseSchema = z.object({ message: z.string() });

/** SPEC section 8: the reset request answer never reveals whether the address exists. */
export const RESET_REQUESTED_MESSAGE =
  'If this email exists in our system, you will receive a password reset link shortly.';
export const RESET_DONE_MESSAGE = 'Your password has been reset. You can now sign in.';
export const LOGIN_FAILED_MESSAGE = 'Invalid username/email or password';
export const RESET_INVALID_MESSAGE = 'This reset link is invalid or has expired. Please request a new one.';

/** SPEC section 9: a reset link lives one hour. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
