import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { addDays, ukToday } from '../../core/job-booking';
import { immediate } from '../../db/client';
import { invoices } from '../../db/schema';
import type { AppDeps } from '../deps';
import { getInvoiceSettings } from '../settings/invoice-settings';
import { sendReminderMail } from './invoice-flow';
import { linkOrHold } from './invoice-links';
import { settledOf } from './payments';

/**
 * Overdue reminders (docs/product.md, Getting paid): at most two an invoice, to the address it was
 * sent to (or the customer's), the account's first and second numbers of days after the due date
 * (3 and 7 unless changed; 0 turns one off), never once it is paid or credited, the second only
 * after the first. Each carries a link of its own and the invoice's PDF as it stands; while the
 * invoice's links are withdrawn it is kept instead, to go once it is sent again (held-mail.ts). The invoice
 * is claimed by a conditional update, so two runs send one. Run at start and hourly, with the
 * quote reminders (main.ts). `takesCards`: whether an account takes card payments now
 * (card-payments/checkout.ts cardPaymentsOpen), so the reminder names paying by card too.
 */
export function sendDueInvoiceReminders(deps: Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config' | 'logger' | 'photos'>, takesCards: (userId: number) => boolean = () => false): number {
  const { db, clock } = deps;
  const now = clock.now();
  const today = ukToday(now);
  const candidates = db
    .select()
    .from(invoices)
    .where(and(isNotNull(invoices.number), isNotNull(invoices.dueOn), isNull(invoices.secondReminderAt)))
    .all()
    .filter((row) => row.dueOn! < today);
  let sent = 0;
  for (const row of candidates) {
    const to = row.sentTo ?? row.parties?.customer.email ?? null;
    if (!to || !row.parties) continue;
    if (settledOf(db, row).owedPence === 0) continue;
    const [first, second] = getInvoiceSettings(db, row.userId).invoiceReminderDays;
    const which = row.firstReminderAt === null ? 'first' : 'second';
    const days = which === 'first' ? first : second;
    if (days <= 0 || addDays(row.dueOn!, days) > today) continue;
    // The claim, the link and the reminder's outbox row in one transaction: all or none.
    const claimed = immediate(db, (tx) => {
      const column = which === 'first' ? { firstReminderAt: now } : { secondReminderAt: now };
      const unclaimed = which === 'first' ? isNull(invoices.firstReminderAt) : and(isNotNull(invoices.firstReminderAt), isNull(invoices.secondReminderAt));
      if (tx.update(invoices).set(column).where(and(eq(invoices.id, row.id), unclaimed)).run().changes === 0) return null;
      // Links withdrawn: claimed all the same (so it is not tried again hourly) and kept to go once it is sent again.
      const token = linkOrHold(tx, row.id, { kind: 'reminder', reminder: which }, now);
      if (token) sendReminderMail(deps, row, to, token, which, takesCards(row.userId));
      return token;
    });
    if (!claimed) continue;
    sent += 1;
  }
  return sent;
}
