import { eq } from 'drizzle-orm';
import { disputeReasonWords } from '../../core/card-payments';
import { immediate, type Db } from '../../db/client';
import { creditNotes, invoicePayments, paymentDisputes, paymentRefunds } from '../../db/schema';
import { findUserById } from '../accounts/users';
import { disputeClosedEmail, disputeOpenedEmail } from '../mail/dispute-emails';
import { queueMail } from '../mail/outbox';
import { markProcessed } from '../payments/billing';
import { recordRefund } from '../invoices/payments';
import type { InvoiceRow } from '../invoices/invoices';
import { cardPaymentOf } from './charge-refunds';
import type { CardEvent, CardEventOutcome, EventDeps } from './types';

/**
 * charge.dispute.created and charge.dispute.closed (docs/payments.md, Webhooks: refunds and
 * disputes). A dispute marks its payment disputed (the invoice's `disputes` in the API, a notice
 * on the job's page) and e-mails the owner what happened and what to do: respond in their Stripe
 * dashboard by the evidence due date. Closed, it is won (back to normal) or lost: the disputed
 * amount is recorded as a refund of the payment with its credit note (recordRefund, keyed by the
 * dispute's id so it is recorded once). One row per Stripe dispute, made by whichever of its events
 * comes first: a `closed` arriving before its `created` records the outcome, and the late `created`
 * then changes nothing and e-mails nobody. Each event id is kept once, so a replay does nothing.
 */

type DisputeEvent = Extract<CardEvent, { kind: 'dispute' }>;
type DisputeRow = typeof paymentDisputes.$inferSelect;

/** Stripe's closed statuses that leave the money with the business: won, and an inquiry closed without a chargeback. */
const KEPT = new Set(['won', 'warning_closed']);

type Taken =
  | { outcome: 'duplicate' | 'ignored' }
  | { outcome: 'dispute_opened'; invoice: InvoiceRow; dispute: DisputeRow }
  | { outcome: 'dispute_won' | 'dispute_lost'; invoice: InvoiceRow; dispute: DisputeRow };

export function recordDisputeEvent(deps: EventDeps, event: DisputeEvent): CardEventOutcome {
  // The change and the owner's e-mail in one transaction (the outbox, server/mail/outbox.ts): both or neither.
  return immediate(deps.db, (tx) => {
    const taken = applyDisputeEvent(tx, deps, event);
    if (taken.outcome === 'dispute_opened' || taken.outcome === 'dispute_won' || taken.outcome === 'dispute_lost') tellOwner(deps, event, taken.invoice, taken.dispute);
    return taken.outcome;
  });
}

function applyDisputeEvent(tx: Db, deps: EventDeps, event: DisputeEvent): Taken {
  const found = cardPaymentOf(tx, event.paymentIntentId);
  const type = `charge.dispute.${event.phase}`;
  if (!markProcessed(tx, deps.clock, `card-evt:${event.id}`, type, found?.invoice.userId ?? null)) return { outcome: 'duplicate' };
  if (!found || (event.account ?? null) !== found.payment.providerAccount) {
    deps.logger.warn({ event: event.id, dispute: event.disputeId, account: event.account }, 'card dispute event ignored: no payment of this install on that account');
    return { outcome: 'ignored' };
  }
  const known = tx.select().from(paymentDisputes).where(eq(paymentDisputes.providerDisputeId, event.disputeId)).get();
  if (event.phase === 'created') {
    if (known) return { outcome: 'duplicate' };
    return { outcome: 'dispute_opened', invoice: found.invoice, dispute: insertDispute(tx, deps, event, found.payment.id, found.invoice.id) };
  }
  if (known && known.status !== 'open') return { outcome: 'duplicate' };
  const open = known ?? insertDispute(tx, deps, event, found.payment.id, found.invoice.id);
  if (KEPT.has(event.status)) {
    const dispute = tx.update(paymentDisputes).set({ status: 'won', closedAt: deps.clock.now() }).where(eq(paymentDisputes.id, open.id)).returning().get()!;
    return { outcome: 'dispute_won', invoice: found.invoice, dispute };
  }
  if (event.status !== 'lost') return { outcome: 'ignored' };
  const payment = tx.select().from(invoicePayments).where(eq(invoicePayments.id, open.paymentId)).get()!;
  // Never more than the payment has left: a part already refunded cannot be taken twice.
  const amountPence = Math.min(event.amountPence, payment.amountPence - payment.refundedPence);
  const refund =
    amountPence > 0
      ? recordRefund(tx, deps.clock, found.invoice, { paymentId: payment.id, amountPence, reason: `Dispute lost: ${disputeReasonWords(event.reason)}`, providerRefundId: event.disputeId, recordedBy: null })
      : null;
  const dispute = tx.update(paymentDisputes).set({ status: 'lost', closedAt: deps.clock.now(), refundId: refund?.id ?? null }).where(eq(paymentDisputes.id, open.id)).returning().get()!;
  return { outcome: 'dispute_lost', invoice: found.invoice, dispute };
}

/** The dispute, open, however it is to end. */
function insertDispute(tx: Db, deps: EventDeps, event: DisputeEvent, paymentId: number, invoiceId: number): DisputeRow {
  return tx
    .insert(paymentDisputes)
    .values({
      paymentId,
      invoiceId,
      providerDisputeId: event.disputeId,
      amountPence: event.amountPence,
      reason: event.reason.slice(0, 60),
      status: 'open',
      evidenceDueBy: event.evidenceDueBy,
      createdAt: deps.clock.now(),
    })
    .returning()
    .get();
}

/** "5 December 2026 at 23:59", in UK time. */
const dueWords = (at: Date): string =>
  `${new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'long', year: 'numeric' }).format(at)} at ${new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' }).format(at)} (UK time)`;

/** The owner is told, in the change's transaction: opened, what to do; closed, how it ended. */
function tellOwner(deps: EventDeps, event: DisputeEvent, invoice: InvoiceRow, dispute: DisputeRow): void {
  const owner = findUserById(deps.db, invoice.userId);
  if (!owner || !invoice.number) return;
  const base = deps.config.publicUrl.replace(/\/$/, '');
  const facts = {
    to: owner.email,
    ownerName: owner.firstName,
    customerName: invoice.parties?.customer.name ?? 'The customer',
    number: invoice.number,
    amountPence: dispute.amountPence,
    reasonWords: disputeReasonWords(dispute.reason),
    // The business's own dashboard (Connect: its own account; own: the install's), test or live as the event.
    stripeLink: `https://dashboard.stripe.com/${event.livemode ? '' : 'test/'}disputes/${encodeURIComponent(dispute.providerDisputeId)}`,
    jobLink: `${base}/jobs/${invoice.jobId}`,
  };
  if (dispute.status === 'open') {
    queueMail(deps, disputeOpenedEmail({ ...facts, dueWords: dispute.evidenceDueBy ? dueWords(dispute.evidenceDueBy) : null }), { label: `dispute ${invoice.number} (owner)`, userId: invoice.userId });
    return;
  }
  const creditNoteNumber = dispute.refundId !== null ? creditNoteOfRefund(deps.db, dispute.refundId) : null;
  queueMail(deps, disputeClosedEmail({ ...facts, won: dispute.status === 'won', creditNoteNumber }), { label: `dispute ${invoice.number} closed (owner)`, userId: invoice.userId });
}

function creditNoteOfRefund(db: Db, refundId: number): string | null {
  return db.select({ number: creditNotes.number }).from(paymentRefunds).innerJoin(creditNotes, eq(creditNotes.id, paymentRefunds.creditNoteId)).where(eq(paymentRefunds.id, refundId)).get()?.number ?? null;
}
