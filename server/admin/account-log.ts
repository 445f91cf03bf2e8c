import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AdminLogResponse } from '../../core/admin';
import { plainLine } from '../../core/plain-text';
import type { Db } from '../../db/client';
import type { Logger } from '../log';
import { accountsAfter } from './accounts';

/** Accounts read and logged per step; between steps other requests get their turn. */
const BATCH = 500;

/**
 * "Trigger Console Log" (docs/product.md, Help assistant and admin log): one structured line per account on the
 * server log, with these fields (user id, username, e-mail, full name, creation and update
 * times, subscription type and status, token balance and refill dates; the person's team, role in it
 * and recent sign-ins), then a summary line.
 * The rows come from accountsAfter, which never reads a password hash, session or token.
 * `logger` is the caller's (a child carrying the request id), so an operator finds the lines
 * of one press together.
 */
export async function logAccounts(db: Db, logger: Logger, adminId: number): Promise<AdminLogResponse> {
  let totalUsers = 0;
  let afterId = 0;
  for (;;) {
    const batch = accountsAfter(db, afterId, BATCH);
    for (const account of batch) {
      logger.info(
        {
          event: 'admin.account',
          userId: account.id,
          username: account.username,
          email: account.email,
          // Names as people typed them, on one line of the operator's terminal (core/plain-text.ts).
          fullName: plainLine(`${account.firstName} ${account.lastName}`),
          firstName: plainLine(account.firstName),
          lastName: plainLine(account.lastName),
          role: account.role,
          createdAt: account.createdAt,
          updatedAt: account.updatedAt,
          subscriptionType: account.subscriptionType,
          subscriptionStatus: account.subscriptionStatus,
          tokensRemaining: account.tokensRemaining,
          tokensTotal: account.tokensTotal,
          lastRefillDate: account.lastRefillDate,
          nextRefillDate: account.nextRefillDate,
          // Per person (docs/product.md, Team): the team they work in, their role in it, and their
          // latest sign-ins (time and network; people.ts reads nothing secret).
          team: plainLine(account.team.name),
          teamAccountId: account.team.accountId,
          teamRole: account.teamRole,
          memberStatus: account.memberStatus,
          recentSignIns: account.recentSignIns,
        },
        'account',
      );
    }
    totalUsers += batch.length;
    const last = batch.at(-1);
    if (!last || batch.length < BATCH) break;
    afterId = last.id;
    await nextTurn();
  }
  logger.info({ event: 'admin.accounts_logged', adminId, totalUsers }, 'accounts logged');
  const noun = totalUsers === 1 ? 'account' : 'accounts';
  return { message: `Logged ${totalUsers} ${noun} to the server console`, totalUsers };
}
