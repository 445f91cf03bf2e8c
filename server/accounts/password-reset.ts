import { and, eq, gt } from 'drizzle-orm';
import { RESET_INVALID_MESSAGE, RESET_TOKEN_TTL_MS } from '../../core/accounts';
import { immediate } from '../../db/client';
import { passwordResetTokens } from '../../db/schema';
import type { AppDeps } from '../deps';
import { DomainError } from '../../core/errors';
import { queueMailLater } from '../mail/outbox';
import { resetEmail } from '../mail/reset-email';
import { hashPassword } from './passwords';
import { endAllSessions } from './sessions';
import { randomSecret, sha256 } from '../secrets/tokens';
import { findUserByEmail, setPasswordHash } from './users';

/**
 * Starts a reset: a random single-use token, stored hashed, valid for 1 hour (docs/product.md, Constants),
 * e-mailed as a link. Unknown addresses do nothing; the caller answers the same either way,
 * and in the same time: the token and the outbox's row are written after the answer.
 */
export function requestPasswordReset(deps: AppDeps, email: string): void {
  const { db, clock, config } = deps;
  const user = findUserByEmail(db, email);
  if (!user) return;
  // The token row and the message's outbox row are written after the answer has gone, in one
  // transaction (queueMailLater), so a known address costs the request no more than an unknown
  // one: the lookup above, both ways.
  queueMailLater(deps, () => {
    const token = randomSecret();
    const now = clock.now();
    db.insert(passwordResetTokens)
      .values({ userId: user.id, token: sha256(token), expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS), createdAt: now })
      .run();
    const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    // The link is never logged (whoever reads logs could take over the account): with no SMTP
    // server the outbox mailer's line names the file that holds the message, readable only by
    // the server's user.
    return resetEmail(user.email, user.firstName, link);
  }, { label: 'password reset', userId: user.id });
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
    if (!row) throw new DomainError('VALIDATION_ERROR', RESET_INVALID_MESSAGE);
    tx.update(passwordResetTokens).set({ used: true }).where(eq(passwordResetTokens.userId, row.userId)).run();
    setPasswordHash(tx, clock, row.userId, passwordHash);
    endAllSessions(tx, row.userId);
  });
}
