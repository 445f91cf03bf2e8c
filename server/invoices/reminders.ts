import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { addDays, ukToday } from '../../core/job-booking';
import { immediate } from '../../db/client';
import { invoices } from '../../db/schema';
import type { AppDeps } from '../deps';
import { overdueReminderEmail } from '../mail/invoice-emails';
import { getInvoiceSettings } from '../settings/invoice-settings';
import { mailFacts, sendWithInvoicePdf } from './invoice-flow';
import { newInvoiceLink } from './invoice-links';
import { lateInterestWords } from './invoice-pdf';
import { toInvoiceView } from './invoice-view';
import { settledOf } from './payments';

/**
 * Overdue reminders (docs/product.md, Getting paid): at most two an invoice, to the address it was
 * sent to (or the customer's), the account's first and second numbers of days after the due date
 * (3 and 7 unless changed; 0 turns one off), never once it is paid or credited, the second only
 * after the first. Each carries a link of its own and the invoice's PDF as it stands. The invoice
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
      const token = newInvoiceLink(tx, row.id, now);
      const facts = mailFacts(deps, row, to, token, takesCards(row.userId));
      const interest = toInvoiceView(db, row, now).lateInterest;
      sendWithInvoicePdf(deps, row, overdueReminderEmail({ ...facts, which, interest: interest ? lateInterestWords(interest, row.dueOn!) : null }), `invoice ${row.number} ${which} reminder`);
      return token;
    });
    if (!claimed) continue;
    sent += 1;
  }
  return sent;
}
