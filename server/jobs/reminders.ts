import { immediate } from '../../db/client';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { jobs, quoteAnswers, quoteVersions } from '../../db/schema';
import { randomSecret, sha256 } from '../secrets/tokens';
import type { AppDeps } from '../deps';
import { quoteReminderEmail } from '../mail/quote-emails';
import { getSettings } from '../settings/settings';
import { customerQuotePdf, fromBusiness, quoteLink, sendWithPdf } from './quote-flow';
import { contentTotals } from './quote-links';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One reminder to a customer who has not answered their quote (docs/product.md, Jobs and quotes):
 * the owner's `quoteReminderDays` after it was sent (0: never), only for the version their link
 * opens now, before it expires, and never after any answer (a change asked for counts). The
 * reminder carries a link of its own to the same version (the first link's token is not kept);
 * the version is claimed by a conditional update, so two runs send one. Run at start and hourly.
 * The version's PDF goes with it, rendered in the background (quote-flow.ts sendWithPdf).
 */
export function sendDueReminders(deps: Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config' | 'logger' | 'photos'>): number {
  const { db, clock } = deps;
  const now = clock.now();
  const open = db
    .select({ version: quoteVersions, userId: jobs.userId, businessId: jobs.businessId })
    .from(quoteVersions)
    .innerJoin(jobs, eq(jobs.id, quoteVersions.jobId))
    .where(
      and(
        isNull(quoteVersions.replacedAt),
        isNull(quoteVersions.revokedAt),
        isNull(quoteVersions.remindedAt),
        gt(quoteVersions.expiresAt, now),
        inArray(jobs.status, ['sent', 'viewed']),
      ),
    )
    .all();
  let sent = 0;
  for (const { version, userId, businessId } of open) {
    const days = getSettings(db, userId).quoteReminderDays;
    if (days <= 0 || version.sentAt.getTime() + days * DAY_MS > now.getTime()) continue;
    if (db.select({ id: quoteAnswers.id }).from(quoteAnswers).where(eq(quoteAnswers.versionId, version.id)).get()) continue;
    const token = randomSecret();
    // The claim and the reminder's outbox row in one transaction: both or neither.
    const claimed = immediate(db, () => {
      const changes = db
        .update(quoteVersions)
        .set({ remindedAt: now, reminderTokenHash: sha256(token) })
        .where(and(eq(quoteVersions.id, version.id), isNull(quoteVersions.remindedAt)))
        .run().changes;
      if (changes === 0) return false;
      const content = version.content;
      const mail = fromBusiness(deps, userId, content.business, quoteReminderEmail(content, quoteLink(deps.config.publicUrl, token), contentTotals(content, [])));
      sendWithPdf(deps, mail, content, () => customerQuotePdf(deps, { job: { userId, businessId }, version }), `quote ${content.reference} reminder`, userId);
      return true;
    });
    if (!claimed) continue;
    sent += 1;
  }
  return sent;
}
