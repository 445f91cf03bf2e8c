import { eq } from 'drizzle-orm';
import { CARD_PROBLEM_WORDS, paymentMatches, type CardProblemReason } from '../../core/card-payments';
import { immediate, type Db } from '../../db/client';
import { cardCheckouts, cardPaymentProblems, invoicePayments, invoices, paymentAccounts } from '../../db/schema';
import { findUserById } from '../accounts/users';
import { queueMail } from '../mail/outbox';
import { cardPaymentOwnerEmail, cardProblemOwnerEmail } from '../mail/invoice-emails';
import { markProcessed } from '../payments/billing';
import { findOwnInvoice, type InvoiceRow } from '../invoices/invoices';
import { insertCardPayment, settledOf, type PaymentRow } from '../invoices/payments';
import { invoiceTitle } from '../../core/invoices';
import { sendReceipt } from '../invoices/invoice-flow';
import { keepAccountState, paymentAccountOf } from './accounts';
import { recordChargeRefunded } from './charge-refunds';
import { checkoutBySession, type CardCheckoutRow } from './checkout';
import { recordDisputeEvent } from './disputes';
import type { CardEvent, CardEventOutcome, CardPaymentsProvider, EventDeps } from './types';

export type { CardEventOutcome, EventDeps } from './types';

/**
 * Card payment events (docs/payments.md, Customers' card payments): the truth about a payment,
 * taken once. The redirect back from Checkout records nothing; this does, after checking:
 * - the event's mode is the key's (a test event under a live key is logged and nothing done);
 * - its id was not taken before (a replay is answered 200 with nothing done);
 * - it pays a checkout this server started, on the account that checkout was started on (under
 *   Connect, the business's connected account; none for the install's own account);
 * - the amount, currency and invoice are the checkout's, and the invoice still owes at least that.
 * A payment that fails a check after arriving is never dropped: it is kept as a problem the owner
 * sees as needing a refund (and is e-mailed about), with a log line. A payment that passes is
 * recorded with its checkout marked paid and the receipt's link in one transaction; the receipt
 * and the owner's e-mail go out after it commits. Refunds made anywhere (charge.refunded) and
 * disputes (charge.dispute.created/closed) are charge-refunds.ts and disputes.ts.
 */


type PaidEvent = Extract<CardEvent, { kind: 'checkout_paid' }>;

type Taken =
  | { outcome: 'duplicate' | 'ignored' }
  | { outcome: 'recorded'; invoice: InvoiceRow; payment: PaymentRow }
  | { outcome: 'needs_refund'; problem: typeof cardPaymentProblems.$inferSelect };

export async function handleCardEvent(deps: EventDeps, provider: CardPaymentsProvider, event: CardEvent): Promise<CardEventOutcome> {
  if (event.livemode !== provider.livemode) {
    deps.logger.warn({ event: event.id, livemode: event.livemode }, `card payment event ignored: a ${event.livemode ? 'live' : 'test'} event under a ${provider.livemode ? 'live' : 'test'} key`);
    return 'wrong_mode';
  }
  if (event.kind === 'account_updated') {
    return immediate(deps.db, (tx) => {
      if (!markProcessed(tx, deps.clock, `card-evt:${event.id}`, 'account.updated', null)) return 'duplicate';
      keepAccountState(tx, deps.clock.now(), event.state);
      return 'account_updated';
    });
  }
  // Refunds and disputes, whoever made them: charge-refunds.ts, disputes.ts.
  if (event.kind === 'charge_refunded') return recordChargeRefunded(deps, provider, event);
  if (event.kind === 'dispute') return recordDisputeEvent(deps, event);
  if (event.kind === 'ignored') {
    return immediate(deps.db, (tx) => (markProcessed(tx, deps.clock, `card-evt:${event.id}`, event.type, null) ? 'ignored' : 'duplicate'));
  }
  return recordCheckoutPaid(deps, provider, event);
}

/** A paid checkout (a Stripe event, or the demo's tap): checked, then recorded or kept as needing a refund. */
export function recordCheckoutPaid(deps: EventDeps, provider: CardPaymentsProvider, event: PaidEvent): CardEventOutcome {
  // The payment and its e-mails' outbox rows in one transaction (the inner one is then a savepoint).
  return immediate(deps.db, () => recordAndTell(deps, provider, event));
}

function recordAndTell(deps: EventDeps, provider: CardPaymentsProvider, event: PaidEvent): CardEventOutcome {
  const taken = immediate(deps.db, (tx): Taken => {
    const checkout = checkoutBySession(tx, event.sessionId);
    if (!markProcessed(tx, deps.clock, `card-evt:${event.id}`, 'checkout.paid', checkout?.userId ?? null)) return { outcome: 'duplicate' };
    if (checkout?.status === 'paid' || (event.paymentIntentId && knownPayment(tx, event.paymentIntentId))) return { outcome: 'duplicate' };
    const reason = checkout ? refusal(tx, provider, checkout, event) : 'unknown_payment';
    if (reason) return { outcome: 'needs_refund', problem: keepProblem(tx, deps, event, checkout, reason) };
    const invoice = findOwnInvoice(tx, checkout!.userId, checkout!.invoiceId);
    const payment = insertCardPayment(tx, deps.clock, invoice, {
      amountPence: event.amountPence,
      providerPaymentId: event.paymentIntentId ?? `${event.sessionId}:payment`,
      providerAccount: event.account,
      reference: provider.kind === 'demo' ? 'Demo card payment' : `Card payment (Stripe ${event.paymentIntentId ?? event.sessionId})`,
    });
    tx.update(cardCheckouts).set({ status: 'paid', paidAt: deps.clock.now() }).where(eq(cardCheckouts.id, checkout!.id)).run();
    return { outcome: 'recorded', invoice, payment };
  });
  if (taken.outcome === 'recorded') tellPaid(deps, provider, taken.invoice, taken.payment);
  if (taken.outcome === 'needs_refund') tellProblem(deps, taken.problem);
  return taken.outcome;
}

/** A PaymentIntent already recorded as a payment (another event of the same payment). */
function knownPayment(tx: Db, paymentIntentId: string): boolean {
  return tx.select({ id: invoicePayments.id }).from(invoicePayments).where(eq(invoicePayments.providerPaymentId, paymentIntentId)).get() !== undefined;
}

/** Why a paid checkout cannot be recorded as it came, or null when it can. */
function refusal(tx: Db, provider: CardPaymentsProvider, checkout: CardCheckoutRow, event: PaidEvent): CardProblemReason | null {
  if ((event.account ?? null) !== checkout.account) return 'wrong_account';
  if (provider.kind === 'connect' && paymentAccountOf(tx, checkout.userId)?.accountId !== event.account) return 'wrong_account';
  if (!paymentMatches(checkout, { amountPence: event.amountPence, currency: event.currency, invoiceId: event.metadata.invoiceId })) return 'wrong_amount';
  const invoice = findOwnInvoice(tx, checkout.userId, checkout.invoiceId);
  const owed = settledOf(tx, invoice).owedPence;
  if (owed === 0) return 'already_settled';
  if (event.amountPence > owed) return 'more_than_owed';
  return null;
}

function keepProblem(tx: Db, deps: EventDeps, event: PaidEvent, checkout: CardCheckoutRow | undefined, reason: CardProblemReason): typeof cardPaymentProblems.$inferSelect {
  if (checkout) tx.update(cardCheckouts).set({ status: 'problem' }).where(eq(cardCheckouts.id, checkout.id)).run();
  // With no checkout of ours, the business is the one whose connected account took it, if any.
  const userId = checkout?.userId ?? (event.account ? (accountOwner(tx, event.account) ?? null) : null);
  return tx
    .insert(cardPaymentProblems)
    .values({
      userId,
      invoiceId: checkout?.invoiceId ?? null,
      eventId: event.id,
      sessionId: event.sessionId,
      paymentIntentId: event.paymentIntentId,
      account: event.account,
      amountPence: event.amountPence,
      currency: event.currency.toLowerCase().slice(0, 10),
      reason,
      createdAt: deps.clock.now(),
    })
    .returning()
    .get();
}

function accountOwner(tx: Db, accountId: string): number | undefined {
  return tx.select({ userId: paymentAccounts.userId }).from(paymentAccounts).where(eq(paymentAccounts.accountId, accountId)).get()?.userId;
}

/** The receipt to the customer (or kept, its links withdrawn) and the news to the owner, in the payment's transaction (recordCheckoutPaid). */
function tellPaid(deps: EventDeps, provider: CardPaymentsProvider, invoice: InvoiceRow, payment: PaymentRow): void {
  const current = findOwnInvoice(deps.db, invoice.userId, invoice.id);
  const receipt = sendReceipt(deps, current, payment);
  const owner = findUserById(deps.db, invoice.userId);
  if (!owner || !current.parties) return;
  const mail = cardPaymentOwnerEmail({
    to: owner.email,
    ownerName: owner.firstName,
    customerName: current.parties.customer.name,
    title: invoiceTitle(current, current.parties),
    number: current.number!,
    amountPence: payment.amountPence,
    owedPence: settledOf(deps.db, current).owedPence,
    link: `${deps.config.publicUrl.replace(/\/$/, '')}/jobs/${current.jobId}`,
    demo: provider.kind === 'demo',
    receiptHeld: receipt === 'held',
  });
  queueMail(deps, mail, { label: `card payment ${current.number} (owner)`, userId: invoice.userId });
}

function tellProblem(deps: EventDeps, problem: typeof cardPaymentProblems.$inferSelect): void {
  deps.logger.warn({ event: problem.eventId, reason: problem.reason, account: problem.account, amountPence: problem.amountPence, userId: problem.userId }, 'card payment needs a refund');
  const owner = problem.userId !== null ? findUserById(deps.db, problem.userId) : undefined;
  if (!owner) return;
  const number = problem.invoiceId !== null ? (deps.db.select({ number: invoices.number }).from(invoices).where(eq(invoices.id, problem.invoiceId)).get()?.number ?? null) : null;
  const mail = cardProblemOwnerEmail({ to: owner.email, ownerName: owner.firstName, amountPence: problem.amountPence, number, why: CARD_PROBLEM_WORDS[problem.reason], link: `${deps.config.publicUrl.replace(/\/$/, '')}/invoices` });
  queueMail(deps, mail, { label: 'card payment needs a refund (owner)', userId: owner.id });
}
