import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { checkForgotPassword, checkLogin, checkRegister, checkResetPassword, type Checked } from './account-checks';
import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from './accounts';

/**
 * The sign-in screens check forms without zod; the server checks the same bodies with zod.
 * Both must give the same verdict: the same cleaned values, or the same first message per
 * field (what the form shows).
 */
function zodVerdict(schema: z.ZodType, input: unknown): Checked<string, unknown> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, values: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]);
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

const long = (n: number, c = 'a') => c.repeat(n);

const emails = [
  'ash@example.com',
  '  Ash.Birch@Example.CO.UK ',
  'o\'neil+trees@mail-host.example.org',
  '',
  'no-at-sign',
  'a@b',
  'a@b.c',
  '.lead@example.com',
  'two..dots@example.com',
  'trail.@example.com',
  'a@-host.com',
  'ünï@example.com',
  `${long(250)}@example.com`,
  `${long(240)}@example.com`,
  'a b@example.com',
];
const passwords = ['', 'short', 'sixsix', long(128), long(129), '  spaced  '];
const usernames = ['', 'ab', 'abc', ' ash_birch ', 'ash.birch-1', 'ash birch', 'üser', long(32), long(33), long(40, '!')];
const names = ['', '  Ash  ', long(64), long(65), ` ${long(64)} `];

describe('zod-free account checks agree with the server schemas', () => {
  it('login', () => {
    for (const usernameOrEmail of ['', '   ', 'ash', ' ash@example.com ', long(254), long(255)]) {
      for (const password of ['', 'x', long(128), long(129)]) {
        const input = { usernameOrEmail, password };
        expect(checkLogin(input), JSON.stringify(input)).toEqual(zodVerdict(loginSchema, input));
      }
    }
  });

  it('register', () => {
    const base = { firstName: 'Ash', lastName: 'Birch', username: 'ash_birch', email: 'ash@example.com', password: 'secret1', confirmPassword: 'secret1' };
    const cases = [
      base,
      ...names.flatMap((n) => [{ ...base, firstName: n }, { ...base, lastName: n }]),
      ...usernames.map((username) => ({ ...base, username })),
      ...emails.map((email) => ({ ...base, email })),
      ...passwords.flatMap((password) => [
        { ...base, password, confirmPassword: password },
        { ...base, password, confirmPassword: '' },
        { ...base, password, confirmPassword: 'other-one' },
      ]),
      { firstName: long(70), lastName: '', username: 'a b', email: 'bad', password: '1', confirmPassword: '2' },
    ];
    for (const input of cases) expect(checkRegister(input), JSON.stringify(input)).toEqual(zodVerdict(registerSchema, input));
  });

  it('forgot password', () => {
    for (const email of emails) expect(checkForgotPassword({ email }), email).toEqual(zodVerdict(forgotPasswordSchema, { email }));
  });

  it('reset password', () => {
    for (const token of ['', 'tok', long(256), long(257)]) {
      for (const password of passwords) {
        for (const confirmPassword of ['', password, 'different']) {
          const input = { token, password, confirmPassword };
          expect(checkResetPassword(input), JSON.stringify(input)).toEqual(zodVerdict(resetPasswordSchema, input));
        }
      }
    }
  });

  it('shows the form messages', () => {
    expect(checkLogin({ usernameOrEmail: '', password: '' })).toEqual({
      ok: false,
      errors: { usernameOrEmail: 'Username or email is required', password: 'Password is required' },
    });
    expect(checkForgotPassword({ email: 'nope' })).toEqual({ ok: false, errors: { email: 'Please enter a valid email address' } });
    expect(checkResetPassword({ token: 't', password: 'abc', confirmPassword: 'abd' })).toEqual({
      ok: false,
      errors: { password: 'Password must be at least 6 characters', confirmPassword: "Passwords don't match" },
    });
  });
});
