import { Hono } from 'hono';
import {
  forgotPasswordSchema,
  LOGIN_FAILED_MESSAGE,
  loginSchema,
  registerSchema,
  RESET_DONE_MESSAGE,
  RESET_REQUESTED_MESSAGE,
  resetPasswordSchema,
} from '../../core/accounts';
import { requestPasswordReset, resetPassword } from '../accounts/password-reset';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../accounts/passwords';
import { endSession } from '../accounts/sessions';
import { createUser, findUserByUsernameOrEmail } from '../accounts/users';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { clientNetwork, loginDelayMs } from '../http/rate-limit';
import { clearSessionCookie, currentPerson, currentUser, requireUser, signIn } from '../http/session';
import { personOf, recordSignIn, signedInAnswer } from '../team/membership';
import { REMOVED_MEMBER_MESSAGE } from '../../core/team';
import { readJson } from '../http/validate';

/** Accounts (docs/product.md, Accounts; docs/security.md, Accounts and sessions). */
export const authRoutes = new Hono<AppEnv>()
  .post('/register', async (c) => {
    await c.var.limits.consume('registrationsPerAddress', clientNetwork(c));
    const input = await readJson(c, registerSchema);
    const passwordHash = await hashPassword(input.password);
    const { db, clock } = c.var.deps;
    const user = createUser(db, clock, { ...input, passwordHash });
    await signIn(c, user.id);
    const { person, accountId } = personOf(db, user);
    recordSignIn(db, clock.now(), { userId: user.id, accountId, address: clientNetwork(c), userAgent: c.req.header('user-agent') ?? null });
    return c.json(signedInAnswer(db, person, accountId), 201);
  })

  .post('/login', async (c) => {
    const input = await readJson(c, loginSchema);
    const { limits } = c.var;
    const address = clientNetwork(c);
    const user = findUserByUsernameOrEmail(c.var.deps.db, input.usernameOrEmail);
    // Failures count against the account, whichever of its names was typed; an unknown name
    // is counted as typed, so it behaves (and takes as long) as a real one.
    const account = user ? `user:${user.id}` : `name:${input.usernameOrEmail.toLowerCase()}`;
    const pair = `${address}|${account}`;
    await limits.check('loginFailuresPerAddress', address);
    await limits.check('loginFailuresPerAddressAndAccount', pair);
    const wait = loginDelayMs(await limits.count('loginFailuresPerAccount', account), limits.loginDelay);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));

    // An unknown user costs the same hash verification as a wrong password.
    const ok = user ? await verifyPassword(user.password, input.password) : await verifyAgainstDummy(input.password);
    if (!user || !ok) {
      await limits.consume('loginFailuresPerAddress', address);
      await limits.consume('loginFailuresPerAddressAndAccount', pair);
      await limits.consume('loginFailuresPerAccount', account);
      throw new ApiError('UNAUTHORIZED', LOGIN_FAILED_MESSAGE);
    }
    // The owner is in: their address starts afresh. The account's count stays, so an attacker
    // still guessing elsewhere is not handed a clean slate by the owner's sign-in.
    await limits.reset('loginFailuresPerAddressAndAccount', pair);
    const { db, clock } = c.var.deps;
    const { person, accountId, removed } = personOf(db, user);
    // Only someone who knows the password hears that they were taken out of the team.
    if (removed) throw new ApiError('UNAUTHORIZED', REMOVED_MEMBER_MESSAGE);
    await signIn(c, user.id);
    recordSignIn(db, clock.now(), { userId: user.id, accountId, address, userAgent: c.req.header('user-agent') ?? null });
    return c.json(signedInAnswer(db, person, accountId));
  })

  .post('/logout', async (c) => {
    const key = c.var.sessionKey;
    if (key) endSession(c.var.deps.db, key);
    clearSessionCookie(c);
    return c.json({ message: 'You have been successfully logged out.' });
  })

  // The person signed in, and who they are in their team (the account they work in is currentUser).
  .get('/me', requireUser, (c) => {
    return c.json(signedInAnswer(c.var.deps.db, currentPerson(c), currentUser(c).id));
  })

  .post('/forgot-password', async (c) => {
    await c.var.limits.consume('resetRequestsPerAddress', clientNetwork(c));
    const { email } = await readJson(c, forgotPasswordSchema);
    await c.var.limits.consume('resetRequestsPerEmail', email);
    // The mail goes out after the answer, so a known address answers as fast as an unknown one
    // and a mail failure (retried, then logged) never shows.
    requestPasswordReset(c.var.deps, email);
    return c.json({ message: RESET_REQUESTED_MESSAGE });
  })

  .post('/reset-password', async (c) => {
    await c.var.limits.consume('resetAttemptsPerAddress', clientNetwork(c));
    const input = await readJson(c, resetPasswordSchema);
    await resetPassword(c.var.deps, input.token, input.password);
    clearSessionCookie(c);
    return c.json({ message: RESET_DONE_MESSAGE });
  });
