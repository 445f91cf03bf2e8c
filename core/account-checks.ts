/**
 * The account forms' rules without zod, for the sign-in screens: zod is a fifth of a guest's
 * first load, which the build holds to a budget (vite.dashboard.config.ts). The
 * server still validates every body with the zod schemas in core/accounts.ts, which take
 * their limits and messages from here; core/account-checks.test.ts holds the two to the
 * same answers (values and each field's first message) over a table of inputs.
 */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const PASSWORD_MIN_MESSAGE = 'Password must be at least 6 characters';
export const PASSWORD_MAX_MESSAGE = `Password must be at most ${PASSWORD_MAX} characters`;
export const EMAIL_MAX = 254;
export const EMAIL_TOO_LONG_MESSAGE = 'Email is too long';
/** docs/product.md, Messages. */
export const EMAIL_INVALID_MESSAGE = 'Please enter a valid email address';
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const USERNAME_MESSAGES = {
  short: 'Username must be at least 3 characters',
  long: 'Username must be at most 32 characters',
  pattern: 'Username may use letters, numbers, dots, dashes and underscores',
};
export const NAME_MAX = 64;
export const NAME_TOO_LONG_MESSAGE = 'Must be at most 64 characters';
export const TOKEN_MAX = 256;
/** docs/product.md, Messages. */
export const ACCOUNT_MESSAGES = {
  usernameOrEmailRequired: 'Username or email is required',
  passwordRequired: 'Password is required',
  confirmRequired: 'Please confirm your password',
  mismatch: "Passwords don't match",
  tokenRequired: 'Reset token is required',
};

/** docs/product.md, Accounts: the reset request answer never reveals whether the address exists. */
export const RESET_REQUESTED_MESSAGE = 'If this email exists in our system, you will receive a password reset link shortly.';
export const RESET_DONE_MESSAGE = 'Your password has been reset. You can now sign in.';

/**
 * The e-mail rule: zod 4's default pattern (`z.regexes.email`, "Gmail rules": no leading,
 * trailing or doubled dot before the @, a top-level domain of two letters or more), written
 * without look-aheads. The server's emailSchema (core/accounts.ts) checks with this very
 * pattern, so the guest pages and the widget accept exactly the addresses the server does.
 */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** zod's default message for a string over its `.max()`, where the schema names none. */
const tooBig = (max: number) => `Too big: expected string to have <=${max} characters`;

export type FieldErrors<F extends string> = Partial<Record<F, string>>;
export type Checked<F extends string, V> = { ok: true; values: V } | { ok: false; errors: FieldErrors<F> };

/** Each field's first broken rule, in the order the zod schema checks them. */
function firstOf(...rules: [broken: boolean, message: string][]): string | undefined {
  return rules.find(([broken]) => broken)?.[1];
}

function result<F extends string, V>(errors: FieldErrors<F>, values: V): Checked<F, V> {
  const found = Object.fromEntries(Object.entries(errors).filter(([, m]) => m !== undefined)) as FieldErrors<F>;
  return Object.keys(found).length > 0 ? { ok: false, errors: found } : { ok: true, values };
}

/** An e-mail address as emailSchema reads it: trimmed, lower-cased, then its length and pattern. */
export function checkEmail(raw: string): { value: string; error: string | undefined } {
  const value = raw.trim().toLowerCase();
  // As emailSchema: the length first, and the pattern only when the length passed.
  const error = value.length > EMAIL_MAX ? EMAIL_TOO_LONG_MESSAGE : EMAIL_PATTERN.test(value) ? undefined : EMAIL_INVALID_MESSAGE;
  return { value, error };
}

function passwordError(password: string): string | undefined {
  return firstOf([password.length < PASSWORD_MIN, PASSWORD_MIN_MESSAGE], [password.length > PASSWORD_MAX, PASSWORD_MAX_MESSAGE]);
}

/** An empty confirmation already says "Please confirm your password"; it does not also say they differ. */
function confirmError(password: string, confirmPassword: string): string | undefined {
  return firstOf(
    [confirmPassword === '', ACCOUNT_MESSAGES.confirmRequired],
    [confirmPassword !== password, ACCOUNT_MESSAGES.mismatch],
  );
}

export interface LoginValues {
  usernameOrEmail: string;
  password: string;
}

export function checkLogin(raw: LoginValues): Checked<keyof LoginValues, LoginValues> {
  const usernameOrEmail = raw.usernameOrEmail.trim();
  const { password } = raw;
  return result(
    {
      usernameOrEmail: firstOf(
        [usernameOrEmail.length < 1, ACCOUNT_MESSAGES.usernameOrEmailRequired],
        [usernameOrEmail.length > EMAIL_MAX, tooBig(EMAIL_MAX)],
      ),
      password: firstOf([password.length < 1, ACCOUNT_MESSAGES.passwordRequired], [password.length > PASSWORD_MAX, tooBig(PASSWORD_MAX)]),
    },
    { usernameOrEmail, password },
  );
}

export interface RegisterValues {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export function checkRegister(raw: RegisterValues): Checked<keyof RegisterValues, RegisterValues> {
  const firstName = raw.firstName.trim();
  const lastName = raw.lastName.trim();
  const username = raw.username.trim();
  const email = checkEmail(raw.email);
  const { password, confirmPassword } = raw;
  return result(
    {
      firstName: firstName.length > NAME_MAX ? NAME_TOO_LONG_MESSAGE : undefined,
      lastName: lastName.length > NAME_MAX ? NAME_TOO_LONG_MESSAGE : undefined,
      username: firstOf(
        [username.length < USERNAME_MIN, USERNAME_MESSAGES.short],
        [username.length > USERNAME_MAX, USERNAME_MESSAGES.long],
        [!USERNAME_PATTERN.test(username), USERNAME_MESSAGES.pattern],
      ),
      email: email.error,
      password: passwordError(password),
      confirmPassword: confirmError(password, confirmPassword),
    },
    { firstName, lastName, username, email: email.value, password, confirmPassword },
  );
}

export interface ForgotPasswordValues {
  email: string;
}

export function checkForgotPassword(raw: ForgotPasswordValues): Checked<'email', ForgotPasswordValues> {
  const email = checkEmail(raw.email);
  return result({ email: email.error }, { email: email.value });
}

export interface ResetPasswordValues {
  token: string;
  password: string;
  confirmPassword: string;
}

export function checkResetPassword(raw: ResetPasswordValues): Checked<keyof ResetPasswordValues, ResetPasswordValues> {
  const { token, password, confirmPassword } = raw;
  return result(
    {
      token: firstOf([token.length < 1, ACCOUNT_MESSAGES.tokenRequired], [token.length > TOKEN_MAX, tooBig(TOKEN_MAX)]),
      password: passwordError(password),
      confirmPassword: confirmError(password, confirmPassword),
    },
    { token, password, confirmPassword },
  );
}
