import { and, eq, gt } from 'drizzle-orm';
import { RESET_INVALID_MESSAGE, RESET_TOKEN_TTL_MS } from '../../core/accounts';
import { immediate } from '../../db/client';
import { passwordResetTokens } from '../../db/schema';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { resetEmail } from '../mail/reset-email';
import { hashPassword } from './passwords';
import { endAllSessions } from './sessions';
import { randomSecret, sha256 } from './tokens';
import { findUserByEmail, setPasswordHash } from './users';

/**
 * Starts a reset: a random single-use token, stored hashed, valid for 1 hour (SPEC 9),
 * e-mailed as a link. Unknown addresses do nothing; the caller answers the same either way.
 */
export async function requestPasswordReset(deps: AppDeps, email: string): Promise<void> {
  const { db, clock, config, mailer } = deps;
  const user = findUserByEmail(db, email);
  if (!user) return;
  const token = randomSecret();
  const now = clock.now();
  db.insert(passwordResetTokens)
    .values({ userId: user.id, token: sha256(token), expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS), createdAt: now })
    .run();
  const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  if (mailer.kind === 'outbox') {
    // DECISIONS, E-mail: with no SMTP server the operator finds the link in the log.
    console.log(JSON.stringify({ level: 'info', msg: 'password reset link', username: user.username, link }));
  }
  await mailer.send(resetEmail(user.email, user.firstName, link));
}

/**
 * Completes a reset: the token must exist, be unused and unexpired. It is marked used,
 * the password replaced and every session of the user ended, in one transaction, so a
 * token can never be spent twice.
 */
export async function resetPassword(deps: AppDeps, token: string, newPassword: string): Promise<void> {
  const { db, clock } = deps;
  const passwordHash = await hashPassword(newPassword);
  immediate(db, (tx) => {
    const now = clock.now();
    const row = tx
      .select()
      .from(passwordResetTokens)
      .where(
        and(
          eq(passwordResetTokens.token, sha256(token)),
          eq(passwordResetTokens.used, false),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .get();
    if (!row) throw new ApiError('VALIDATION_ERROR', RESET_INVALID_MESSAGE);
    tx.update(passwordResetTokens).set({ used: true }).where(eq(passwordResetTokens.userId, row.userId)).run();
    setPasswordHash(tx, clock, row.userId, passwordHash);
    endAllSessions(tx, row.userId);
  });
}
