import type { Context, MiddlewareHandler } from 'hono';
import { EMBED_BUSY_MESSAGE, visitorLimitMessage } from '../../core/embed';
import { DomainError, statusForCode } from '../../core/errors';
import type { BusinessRow } from '../businesses/businesses';
import { noteTurnedAway } from '../businesses/limit-notice';
import { refuseIfUnpayable, visitorPayer } from '../analysis/payment';
import type { AppEnv } from './context';
import { clientNetwork, type Refusal } from './rate-limit';

/**
 * The limits of a business's public estimator, spent only by real work (docs/security.md, Abuse of
 * the public estimator). Before a visitor's upload is read, its network's and the business's
 * estimate limits are only looked at (a full one refuses at once, unread); a point of each is
 * spent once the upload has proved to be a readable photo and form. A request refused for its
 * shape (400, 408, 413, 415) spends neither: it spends a point of its network's own, cheap
 * malformed limit instead, so junk can neither shut a business's estimator nor use up a
 * visitor's estimates, and a network sending junk is refused before its bodies are read.
 */
const VISITOR_LIMIT_REFUSAL: Refusal = { code: 'VISITOR_LIMIT', message: visitorLimitMessage };
const MALFORMED_REFUSAL = 'Too many requests from this connection could not be read. Please wait a few minutes and try again.';

/** The statuses of a request refused for its shape rather than for what it asked. */
const SHAPE_STATUSES = new Set([400, 408, 413, 415]);

export function isShapeRefusal(error: unknown): boolean {
  return error instanceof DomainError && SHAPE_STATUSES.has(statusForCode[error.code]);
}

/**
 * Around each of the estimator's public calls (a visitor's analysis, quote request, funnel event):
 * the network's malformed limit checked first and spent by a shape refusal; and a visitor turned
 * away by the business's daily cap or rate counted, the owner told once a day (limit-notice.ts).
 */
export const visitorGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === 'OPTIONS') return next();
  const network = clientNetwork(c);
  await c.var.limits.check('malformedPerAddress', network, MALFORMED_REFUSAL);
  await next();
  if (SHAPE_STATUSES.has(c.res.status)) await c.var.limits.spend('malformedPerAddress', network);
  const business = c.var.embedBusiness;
  const error = c.error;
  if (business && error instanceof DomainError && error.code === 'RATE_LIMITED' && error.message === EMBED_BUSY_MESSAGE) {
    noteTurnedAway(c.var.deps, business, c.var.limits.limitOf('embedAnalysesPerBusiness'));
  }
};

/**
 * Whether the visitor may have an estimate now, spending nothing: their network's estimates
 * (told with the wait), the business's rate and its daily cap (both "busy"), and whether the
 * owner can pay. Taken before the upload is read.
 */
export async function lookBeforeUpload(c: Context<AppEnv>, business: BusinessRow): Promise<void> {
  await c.var.limits.check('embedAnalysesPerAddress', clientNetwork(c), VISITOR_LIMIT_REFUSAL);
  await c.var.limits.check('embedAnalysesPerBusiness', String(business.id), EMBED_BUSY_MESSAGE);
  refuseIfUnpayable(c.var.deps, visitorPayer(business));
}

/**
 * Spends the visitor's and the business's point once the upload is read and whole. Atomic per
 * key: of requests that all passed the look, those past a limit are refused here; a visitor
 * refused for the business's rate gets their own point back.
 */
export async function spendOnUpload(c: Context<AppEnv>, business: BusinessRow): Promise<void> {
  const network = clientNetwork(c);
  await c.var.limits.consume('embedAnalysesPerAddress', network, VISITOR_LIMIT_REFUSAL);
  try {
    await c.var.limits.consume('embedAnalysesPerBusiness', String(business.id), EMBED_BUSY_MESSAGE);
  } catch (error) {
    await c.var.limits.giveBack('embedAnalysesPerAddress', network);
    throw error;
  }
}

/** Gives both points back: the analysis refused the upload for its shape after all (an image that would not decode). */
export async function giveBackOnRefusal(c: Context<AppEnv>, business: BusinessRow): Promise<void> {
  await c.var.limits.giveBack('embedAnalysesPerAddress', clientNetwork(c));
  await c.var.limits.giveBack('embedAnalysesPerBusiness', String(business.id));
}

/** Whether the business's own rate is spent for now: its public status then reads "busy". */
export function businessRateSpent(c: Context<AppEnv>, business: BusinessRow): Promise<boolean> {
  return c.var.limits.exhausted('embedAnalysesPerBusiness', String(business.id));
}
