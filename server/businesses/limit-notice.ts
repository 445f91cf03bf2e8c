import { immediate, type Db } from '../../db/client';
import { and, eq, isNull, ne, or } from 'drizzle-orm';
import { businesses, embedFunnel } from '../../db/schema';
import type { Clock } from '../clock';
import { findUserById } from '../accounts/users';
import { queueMail } from '../mail/outbox';
import { limitEmail, type LimitReached } from '../mail/limit-email';
import type { BusinessRow } from './businesses';
import { countTurnedAway } from './funnel';
import { embedAnalysesToday, utcDay } from '../analysis/embed-usage';

/**
 * A visitor turned away because the business's estimator reached its daily cap or its rate
 * (docs/security.md, Abuse of the public estimator): counted in the day's funnel, and the owner
 * is e-mailed the first time it happens each UTC day, with the day's counts, so a cap spent by a
 * script (or by real demand) is never found out only from the credits. At most one such e-mail a
 * business a day: the day is claimed by a conditional update, so concurrent refusals send one.
 */
export interface LimitNoticeDeps {
  db: Db;
  clock: Clock;
  config: { publicUrl: string; mailFrom: string };
}

export function noteTurnedAway(deps: LimitNoticeDeps, business: BusinessRow, rate: { points: number; windowSeconds: number }): void {
  countTurnedAway(deps.db, deps.clock, business.id);
  // The day's claim and the e-mail's outbox row in one transaction: both or neither.
  immediate(deps.db, () => claimAndTell(deps, business, rate));
}

function claimAndTell(deps: LimitNoticeDeps, business: BusinessRow, rate: { points: number; windowSeconds: number }): void {
  const { db, clock, config } = deps;
  const day = utcDay(clock.now());
  const claimed = db
    .update(businesses)
    .set({ limitNoticeDay: day })
    .where(and(eq(businesses.id, business.id), or(isNull(businesses.limitNoticeDay), ne(businesses.limitNoticeDay, day))))
    .run().changes;
  if (claimed === 0) return;
  const owner = findUserById(db, business.ownerId);
  if (!owner) return;
  const estimatesToday = embedAnalysesToday(db, clock, business.id);
  const reached: LimitReached = estimatesToday >= business.dailyCap ? 'daily_cap' : 'rate';
  const funnel = db.select().from(embedFunnel).where(and(eq(embedFunnel.businessId, business.id), eq(embedFunnel.day, day))).get();
  const message = limitEmail({
    to: owner.email,
    ownerName: owner.firstName,
    businessName: business.name,
    reached,
    day,
    dailyCap: business.dailyCap,
    rate,
    counts: {
      estimates: estimatesToday,
      needsDetails: funnel?.needsDetails ?? 0,
      loads: funnel?.loads ?? 0,
      leads: funnel?.leads ?? 0,
      turnedAway: funnel?.turnedAway ?? 1,
    },
    publicUrl: config.publicUrl,
  });
  queueMail(deps, message, { label: `estimator limit notice for business ${business.id}`, userId: owner.id });
}
