import { and, eq, isNull } from 'drizzle-orm';
import { immediate, type Db } from '../../db/client';
import { cardPaymentProblems, invoicePayments, invoices, paymentDisputes, paymentRefunds } from '../../db/schema';
import { markProcessed } from '../payments/billing';
import { sendRefundEmail } from '../invoices/credit-note-flow';
import { recordRefund, type PaymentRow } from '../invoices/payments';
import { findOwnInvoice, type InvoiceRow } from '../invoices/invoices';
import type { CardEvent, CardEventOutcome, CardPaymentsProvider, ChargeRefundFact, EventDeps } from './types';

/**
 * charge.refunded (docs/payments.md, Webhooks: refunds and disputes): Stripe is the truth for card
 * money, so a refund made anywhere (this app's refund button, the business's Stripe dashboard, the
 * API) is recorded here once, through the same recordRefund (and its credit note) as the app's own.
 * - The payment is the one whose PaymentIntent the event's charge belongs to, on the same account
 *   (a connected account's event for another account's payment is logged and left alone).
 * - `amount_refunded` is cumulative: when what is already recorded from Stripe reaches it, the
 *   event is a replay, an older event arriving late, or the app's own refund already recorded,
 *   and nothing is done.
 * - Otherwise each Stripe refund is recorded by its id (`re_...`), once: from the event when it
 *   carries the whole list, else read from Stripe (its events leave the list out since API
 *   2022-11-15). So a webhook that lands before the app has recorded its own refund records it
 *   under the same id, and the app's recordRefund then finds it and records nothing more.
 * - Each refund recorded here e-mails the customer what went back, to which card, with its credit
 *   note (credit-note-flow.ts sendRefundEmail), in the same transaction; one already recorded (the
 *   app's own) was told when it was recorded, so a refund is told once whoever records it first.
 * Reading the refunds happens before the transaction; a Stripe failure there is a 502 and Stripe
 * delivers the event again later (the event id is kept only once it is applied).
 */

type RefundedEvent = Extract<CardEvent, { kind: 'charge_refunded' }>;

/** Stripe's refund statuses that move money back (a failed or canceled refund gives nothing back). */
const MOVES_MONEY = new Set(['succeeded', 'pending', 'requires_action']);

/** Stripe's refund reasons in words, for a refund made outside this app (docs.stripe.com/api/refunds/object#refund_object-reason). */
const STRIPE_REFUND_REASON_WORDS: Record<string, string> = {
  requested_by_customer: 'requested by the customer',
  duplicate: 'a duplicate payment',
  fraudulent: 'fraudulent',
  expired_uncaptured_charge: 'not captured in time',
};

/** The reason a refund is recorded with: our own refund's, else where it came from. */
export const refundReasonOf = (fact: ChargeRefundFact): string =>
  fact.ourReason?.trim() || `Refunded in Stripe${fact.stripeReason ? ` (${STRIPE_REFUND_REASON_WORDS[fact.stripeReason] ?? fact.stripeReason.replace(/_/g, ' ')})` : ''}`;

/** The card payment a charge's PaymentIntent paid, with its invoice. */
export function cardPaymentOf(db: Db, paymentIntentId: string | null): { payment: PaymentRow; invoice: InvoiceRow } | undefined {
  if (!paymentIntentId) return undefined;
  return db.select({ payment: invoicePayments, invoice: invoices }).from(invoicePayments).innerJoin(invoices, eq(invoices.id, invoicePayments.invoiceId)).where(eq(invoicePayments.providerPaymentId, paymentIntentId)).get();
}

/** What of a card payment was refunded through Stripe's refunds (a lost dispute's money went back by the dispute, not a refund). */
function refundedByStripe(db: Db, paymentId: number): number {
  const disputeRefunds = new Set(db.select({ refundId: paymentDisputes.refundId }).from(paymentDisputes).where(eq(paymentDisputes.paymentId, paymentId)).all().map((row) => row.refundId));
  return db
    .select({ id: paymentRefunds.id, amountPence: paymentRefunds.amountPence })
    .from(paymentRefunds)
    .where(eq(paymentRefunds.paymentId, paymentId))
    .all()
    .filter((row) => !disputeRefunds.has(row.id))
    .reduce((sum, row) => sum + row.amountPence, 0);
}

export async function recordChargeRefunded(deps: EventDeps, provider: CardPaymentsProvider, event: RefundedEvent): Promise<CardEventOutcome> {
  const found = cardPaymentOf(deps.db, event.paymentIntentId);
  if (!found) return immediate(deps.db, (tx) => refundOfNoPayment(tx, deps, event));
  if ((event.account ?? null) !== found.payment.providerAccount) {
    deps.logger.warn({ event: event.id, account: event.account, paymentId: found.payment.id }, 'card refund event ignored: it is not from the account the payment was taken on');
    return immediate(deps.db, (tx) => (markProcessed(tx, deps.clock, `card-evt:${event.id}`, 'charge.refunded', found.invoice.userId) ? 'ignored' : 'duplicate'));
  }
  const facts = refundedByStripe(deps.db, found.payment.id) >= event.amountRefundedPence ? [] : (event.refunds ?? (await provider.refundsOfCharge({ account: found.payment.providerAccount, chargeId: event.chargeId })));
  return immediate(deps.db, (tx): CardEventOutcome => {
    if (!markProcessed(tx, deps.clock, `card-evt:${event.id}`, 'charge.refunded', found.invoice.userId)) return 'duplicate';
    let recorded = 0;
    for (const fact of facts.filter((f) => MOVES_MONEY.has(f.status) && f.amountPence > 0)) {
      if (tx.select({ id: paymentRefunds.id }).from(paymentRefunds).where(and(eq(paymentRefunds.invoiceId, found.invoice.id), eq(paymentRefunds.providerRefundId, fact.id))).get()) continue;
      const payment = tx.select().from(invoicePayments).where(eq(invoicePayments.id, found.payment.id)).get()!;
      // Never more than the payment has left (a lost dispute may already have taken some back).
      const amountPence = Math.min(fact.amountPence, payment.amountPence - payment.refundedPence);
      if (amountPence <= 0 || payment.removedAt !== null) break;
      const refund = recordRefund(tx, deps.clock, found.invoice, { paymentId: payment.id, amountPence, reason: refundReasonOf(fact), providerRefundId: fact.id, recordedBy: null });
      // The customer is told in the same transaction; the app's own refund, recorded here first, is then not told again (refunds.ts).
      sendRefundEmail(deps, findOwnInvoice(tx, found.invoice.userId, found.invoice.id), refund, event.card);
      recorded += 1;
    }
    const now = refundedByStripe(tx, found.payment.id);
    if (now < event.amountRefundedPence) {
      deps.logger.warn({ event: event.id, paymentId: found.payment.id, amountRefunded: event.amountRefundedPence, recorded: now }, 'card refund event: Stripe says more was refunded than its refunds show');
    }
    return recorded > 0 ? 'refund_recorded' : 'duplicate';
  });
}

/**
 * A refund of a charge that is no invoice's payment: when it gives back a payment kept as needing
 * a refund (events.ts keepProblem), that problem is dealt with; anything else is kept by id and ignored.
 */
function refundOfNoPayment(tx: Db, deps: EventDeps, event: RefundedEvent): CardEventOutcome {
  if (!markProcessed(tx, deps.clock, `card-evt:${event.id}`, 'charge.refunded', null)) return 'duplicate';
  if (!event.paymentIntentId) return 'ignored';
  const problem = tx
    .select()
    .from(cardPaymentProblems)
    .where(and(eq(cardPaymentProblems.paymentIntentId, event.paymentIntentId), isNull(cardPaymentProblems.resolvedAt)))
    .get();
  if (!problem || (problem.account ?? null) !== (event.account ?? null) || event.amountRefundedPence < problem.amountPence) return 'ignored';
  tx.update(cardPaymentProblems).set({ resolvedAt: deps.clock.now(), resolvedNote: 'Refunded in Stripe' }).where(eq(cardPaymentProblems.id, problem.id)).run();
  return 'problem_refunded';
}
