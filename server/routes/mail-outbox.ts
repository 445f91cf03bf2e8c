import { Hono } from 'hono';
import type { OutboxList } from '../../core/mail-outbox';
import type { AppEnv } from '../http/context';
import { currentUser, requireUser } from '../http/session';
import { listUndelivered, sendAgain } from '../mail/outbox';

/**
 * The signed-in account's e-mails not yet delivered and those given up (Settings, "E-mail not yet
 * delivered"), and "Send again" (docs/product.md, E-mail that cannot be lost). Each account sees
 * only the messages its own actions caused; an admin also the install's own. Another's is 404.
 */
export const mailOutboxRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get('/', (c) => c.json({ mails: listUndelivered(c.var.deps.db, currentUser(c)) } satisfies OutboxList))
  .post('/:id{[0-9]+}/retry', (c) => c.json({ mail: sendAgain(c.var.deps, currentUser(c), Number(c.req.param('id'))) }));
