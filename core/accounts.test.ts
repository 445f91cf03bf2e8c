import { describe, expect, it } from 'vitest';
import { forgotPasswordSchema, loginSchema, registerSchema, resetPasswordSchema } from './accounts';
import { analysesAvailable } from './credits';

const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const valid = { username: 'oak_fan', email: 'Oak@Example.com ', password: 'secret', confirmPassword: 'secret' };

describe('registerSchema', () => {
  it('accepts a minimal registration, trims and lower-cases the e-mail, defaults names to empty', () => {
    const r = registerSchema.parse(valid);
    expect(r).toMatchObject({ email: 'oak@example.com', firstName: '', lastName: '' });
  });
  it('needs the passwords to match, reported on confirmPassword', () => {
    expect(messages(registerSchema.safeParse({ ...valid, confirmPassword: 'secreT' }))).toEqual({
      confirmPassword: "Passwords don't match",
    });
  });
  it('asks to confirm the password', () => {
    expect(messages(registerSchema.safeParse({ ...valid, confirmPassword: '' })).confirmPassword).toBe('Please confirm your password');
  });
  it('applies 6..128 characters to the password', () => {
    expect(messages(registerSchema.safeParse({ ...valid, password: '12345', confirmPassword: '12345' })).password).toBe(
      'Password must be at least 6 characters',
    );
    expect(registerSchema.safeParse({ ...valid, password: 'x'.repeat(128), confirmPassword: 'x'.repeat(128) }).success).toBe(true);
    expect(registerSchema.safeParse({ ...valid, password: 'x'.repeat(129), confirmPassword: 'x'.repeat(129) }).success).toBe(false);
  });
  it('refuses usernames that are short, long or hold an @', () => {
    for (const username of ['ab', 'a'.repeat(33), 'me@home', 'two words']) {
      expect(registerSchema.safeParse({ ...valid, username }).success).toBe(false);
    }
  });
  it('refuses an invalid e-mail with the spec message', () => {
    expect(messages(registerSchema.safeParse({ ...valid, email: 'oak@' })).email).toBe('Please enter a valid email address');
  });
});

describe('loginSchema', () => {
  it('uses the spec messages for missing fields', () => {
    expect(messages(loginSchema.safeParse({ usernameOrEmail: ' ', password: '' }))).toEqual({
      usernameOrEmail: 'Username or email is required',
      password: 'Password is required',
    });
  });
});

describe('forgot and reset schemas', () => {
  it('needs a valid e-mail', () => {
    expect(messages(forgotPasswordSchema.safeParse({ email: 'nope' })).email).toBe('Please enter a valid email address');
  });
  it('needs a token, 6 characters and matching passwords', () => {
    expect(messages(resetPasswordSchema.safeParse({ token: '', password: 'abc', confirmPassword: 'abd' }))).toMatchObject({
      token: 'Reset token is required',
      password: 'Password must be at least 6 characters',
    });
    expect(messages(resetPasswordSchema.safeParse({ token: 't', password: 'abcdef', confirmPassword: 'abcdeg' }))).toEqual({
      confirmPassword: "Passwords don't match",
    });
  });
});

describe('analysesAvailable', () => {
  it('is credits divided by 10, rounded down', () => {
    expect([0, 9, 10, 19, 600].map(analysesAvailable)).toEqual([0, 0, 1, 1, 60]);
  });
});
