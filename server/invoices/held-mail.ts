import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoiceHeldMail } from '../../db/schema';
import type { RefundCard } from './credit-notes';

/**
 * Withdrawn means withdrawn (docs/security.md, Customer links): once an invoice's links are
 * withdrawn (invoice-links.ts revokeInvoiceLinks), nothing about it goes to the customer's address
 * (it may be the wrong person's) and no new link is made: a receipt, an overdue reminder or a
 * credit note's e-mail (a refund's too) due meanwhile is kept here instead. When the surgeon sends the invoice again to an address they type
 * (sendInvoiceLink), what waited is taken in the same transaction and sent there
 * (invoice-flow.ts sendInvoice). Each is decided inside the transaction that would mint its link,
 * so a withdrawal and a payment at once cannot let one through.
 */
export type HeldMailRow = typeof invoiceHeldMail.$inferSelect;
export type HeldMail =
  | { kind: 'receipt'; paymentId: number }
  | { kind: 'reminder'; reminder: 'first' | 'second' }
  /** A credit note's e-mail; a refund's (`refundId`) says what went back, to `card` when Stripe said which. */
  | { kind: 'credit_note'; creditNoteId: number; refundId: number | null; card: RefundCard | null };

/** Keeps `mail` for the invoice, in the caller's transaction. */
export function holdMail(tx: Db, invoiceId: number, mail: HeldMail, now: Date): void {
  tx.insert(invoiceHeldMail)
    .values({
      invoiceId,
      kind: mail.kind,
      paymentId: mail.kind === 'receipt' ? mail.paymentId : null,
      reminder: mail.kind === 'reminder' ? mail.reminder : null,
      creditNoteId: mail.kind === 'credit_note' ? mail.creditNoteId : null,
      refundId: mail.kind === 'credit_note' ? mail.refundId : null,
      card: mail.kind === 'credit_note' ? mail.card : null,
      createdAt: now,
    })
    .run();
}

/** What waits for the invoice, oldest first. */
export function heldMailOf(db: Db, invoiceId: number): HeldMailRow[] {
  return db.select().from(invoiceHeldMail).where(eq(invoiceHeldMail.invoiceId, invoiceId)).orderBy(invoiceHeldMail.id).all();
}

/** What waited, taken (deleted) in the caller's transaction, to be sent to the confirmed address. */
export function takeHeldMail(tx: Db, invoiceId: number): HeldMailRow[] {
  const rows = heldMailOf(tx, invoiceId);
  if (rows.length > 0) tx.delete(invoiceHeldMail).where(eq(invoiceHeldMail.invoiceId, invoiceId)).run();
  return rows;
}
