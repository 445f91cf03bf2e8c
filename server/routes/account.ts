import { Hono } from 'hono';
import { ACCOUNT_DELETED_MESSAGE, DELETE_PASSWORD_WRONG, deleteAccountSchema } from '../../core/account-data';
import { deleteAccount, exportAccountZip, exportFileName } from '../account-data/account-data';
import { verifyPassword } from '../accounts/passwords';
import type { AppEnv } from '../http/context';
import { ApiError } from '../http/errors';
import { clearSessionCookie, currentPerson, currentUser, requireUser } from '../http/session';
import { readJson } from '../http/validate';
import { PaymentProviderError } from '../payments/types';

/** The signed-in user's own data: a copy to take away, and erasure (docs/product.md, Accounts). */
export const accountRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get('/export', (c) => {
    const user = currentUser(c);
    return c.body(exportAccountZip(c.var.deps, user.id), 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${exportFileName(user.username, c.var.deps.clock.now())}"`,
      'Cache-Control': 'private, no-store',
    });
  })
  .delete('/', async (c) => {
    const user = currentUser(c);
    const { password } = await readJson(c, deleteAccountSchema);
    // The owner confirms with their own password: after a hand-over, not the founder's (the account's row).
    const person = currentPerson(c).user;
    const key = String(person.id);
    await c.var.limits.check('passwordConfirmFailuresPerUser', key);
    if (!(await verifyPassword(person.password, password))) {
      await c.var.limits.consume('passwordConfirmFailuresPerUser', key);
      throw new ApiError('VALIDATION_ERROR', DELETE_PASSWORD_WRONG, { details: { password: [DELETE_PASSWORD_WRONG] } });
    }
    try {
      await deleteAccount(c.var.deps, user.id);
    } catch (err) {
      if (err instanceof PaymentProviderError) {
        throw new ApiError('PAYMENT_PROVIDER_ERROR', 'Your subscription could not be cancelled just now, so nothing was deleted. Please try again in a few minutes.', { cause: err });
      }
      throw err;
    }
    clearSessionCookie(c);
    return c.json({ message: ACCOUNT_DELETED_MESSAGE });
  });
