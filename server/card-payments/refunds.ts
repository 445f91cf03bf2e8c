import { randomBytes } from 'node:crypto';
import { CARD_MESSAGES, type RefundCreateInput } from '../../core/card-payments';
import { DEMO_PAYMENT_PREFIX } from './demo-card-provider';
import { DomainError } from '../../core/errors';
import { formatGbp, parsePence } from '../../core/money';
import { INVOICE_MESSAGES } from '../../core/invoices';
import { immediate } from '../../db/client';
import type { AppDeps } from '../deps';
import { sendRefundEmail } from '../invoices/credit-note-flow';
import type { RefundCard } from '../invoices/credit-notes';
import { findOwnInvoice, type InvoiceRow } from '../invoices/invoices';
import { issuedOf, paymentOf, recordRefund, refundableOf, refundsOf, type RefundRow } from '../invoices/payments';
import { PaymentProviderError } from '../payments/types';
import { cardProviderFor, notServedByOwnAccount } from './accounts';
import type { CardPaymentsProvider } from './types';

/**
 * POST /api/invoices/{id}/payments/{paymentId}/refund (docs/product.md, Card payments: refunds):
 * all of what is left of a payment, or a part, with a reason. A card payment taken online goes
 * back through the provider on the account it was taken on (Stripe refuses more than is left, so
 * two refunds at once cannot together give back more than was paid); any other payment (a bank
 * transfer, cash) is refunded by the business and recorded here. Either way the refund is
 * recorded with a credit note of the same amount (invoices/payments.ts recordRefund), and the
 * customer is e-mailed what went back, to which card, with the credit note (credit-note-flow.ts).
 */
type RefundDeps = Pick<AppDeps, 'db' | 'clock' | 'logger' | 'mailer' | 'config' | 'photos'> & { cardPayments: CardPaymentsProvider | null };

/** `by`: the person refunding it (payment_refunds.recorded_by), not the team's account. */
export async function refundPayment(deps: RefundDeps, by: number | null, invoice: Pick<InvoiceRow, 'id' | 'userId'>, paymentId: number, input: RefundCreateInput): Promise<RefundRow> {
  // What can be refunded, read first: the provider is asked only for what the record allows.
  const { payment, amountPence } = immediate(deps.db, (tx) => {
    const current = issuedOf(tx, invoice);
    const found = paymentOf(tx, current.id, paymentId);
    const left = refundableOf(found);
    const asked = input.amount !== undefined ? parsePence(input.amount)! : left;
    if (asked > left) {
      const message = INVOICE_MESSAGES.refundTooLarge(formatGbp(left));
      throw new DomainError('VALIDATION_ERROR', message, { details: { amount: [message] } });
    }
    return { payment: found, amountPence: asked };
  });
  let providerRefundId: string | null = null;
  let card: RefundCard | null = null;
  if (payment.providerPaymentId?.startsWith(DEMO_PAYMENT_PREFIX)) {
    // A demo payment moved no money, whatever provider the install has now: its refund is recorded.
    providerRefundId = `demo_re_${randomBytes(12).toString('hex')}`;
  } else if (payment.providerPaymentId !== null) {
    const provider = cardProviderFor(deps, invoice.userId);
    // The install's own account refunds only the admin account's payments: no other account refunds from it.
    if (!provider && deps.cardPayments) throw notServedByOwnAccount();
    if (!provider) throw new DomainError('PAYMENTS_NOT_CONFIGURED', `${CARD_MESSAGES.notConfigured} Refund it in your Stripe dashboard, then record it here as a bank transfer refund.`);
    try {
      const made = await provider.refund({
        account: payment.providerAccount,
        paymentIntentId: payment.providerPaymentId,
        amountPence,
        reason: input.reason,
        // The same refund asked twice while the first is on its way (a double click) is one refund at Stripe.
        idempotencyKey: `refund-${payment.id}-${payment.refundedPence}-${amountPence}`,
      });
      providerRefundId = made.refundId;
      card = made.card;
    } catch (err) {
      if (err instanceof PaymentProviderError) {
        deps.logger.warn({ paymentId: payment.id, error: err.message }, 'card refund refused');
        throw new DomainError('PAYMENT_PROVIDER_ERROR', CARD_MESSAGES.refundFailed(err.message.replace(/^[^:]*: /, '')));
      }
      throw err;
    }
  }
  return immediate(deps.db, (tx) => {
    // The same Stripe refund answered twice (a double click within its idempotency), or recorded
    // first from Stripe's charge.refunded (charge-refunds.ts, which told the customer), is recorded and told once.
    const known = providerRefundId !== null && refundsOf(tx, invoice.id).some((row) => row.providerRefundId === providerRefundId);
    const refund = recordRefund(tx, deps.clock, invoice, { paymentId: payment.id, amountPence, reason: input.reason, providerRefundId, recordedBy: by });
    // Told in the refund's transaction (the outbox, server/mail/outbox.ts).
    if (!known) sendRefundEmail(deps, findOwnInvoice(tx, invoice.userId, invoice.id), refund, card);
    return refund;
  });
}
