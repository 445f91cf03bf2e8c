import { and, eq, isNotNull } from 'drizzle-orm';
import { depositOnAcceptance } from '../../core/card-payments';
import { DomainError } from '../../core/errors';
import { invoices } from '../../db/schema';
import type { AppDeps } from '../deps';
import { sendInvoice } from '../invoices/invoice-flow';
import { createInvoice, depositAskOfContent, issueInvoice, type InvoiceRow } from '../invoices/invoices';
import { settledOf } from '../invoices/payments';
import { describeError } from '../log';
import { acceptedOf, contentTotals, openQuote } from '../jobs/quote-links';
import { cardPaymentsOpen, paymentBeingConfirmed, startCheckout } from './checkout';
import type { CardPaymentsProvider } from './types';

/**
 * The deposit asked when the customer accepts (docs/product.md, Card payments: a deposit on
 * acceptance). The acceptance is recorded first and stands whatever happens to the payment; then,
 * where the accepted copy asks a deposit, the deposit invoice is made and issued from it (the
 * Getting paid invoice, with its number and bank details), and the customer either goes on to pay
 * it by card (the receipt is then the one e-mail about it) or is e-mailed the invoice and shown how
 * to pay it by bank transfer.
 */
type DepositDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'mailer' | 'logger' | 'photos'> & { cardPayments: CardPaymentsProvider | null };

export type DepositChoice = 'card' | 'bank';

export interface AcceptedDeposit {
  amountPence: number;
  invoice: InvoiceRow;
  /** Where to pay it by card: the checkout's page; null when card payments are not open or were not chosen. */
  payUrl: string | null;
}

/** The deposit invoices of a job that are issued, oldest first. */
function issuedDeposits(deps: Pick<AppDeps, 'db'>, jobId: number): InvoiceRow[] {
  return deps.db.select().from(invoices).where(and(eq(invoices.jobId, jobId), eq(invoices.kind, 'deposit'), isNotNull(invoices.number))).orderBy(invoices.sequence).all();
}

/**
 * After the customer accepted by the link `token`: the deposit invoice made and issued; with
 * `choice` card (and card payments open) a checkout that comes back to the quote page, else the
 * invoice e-mailed.
 * Null when the copy asks no deposit for the accepted total. A step after the acceptance that
 * fails is logged and leaves the acceptance as it is: the owner can still invoice the deposit.
 */
export async function depositOnAccepting(deps: DepositDeps, token: string, choice: DepositChoice): Promise<AcceptedDeposit | null> {
  const opened = openQuote(deps.db, deps.clock, token);
  const accepted = acceptedOf(deps.db, opened.job.id);
  if (!accepted || accepted.version.id !== opened.version.id) return null;
  const content = accepted.version.content;
  const gross = contentTotals(content, accepted.answer.optionalItemIds ?? []).grossPence;
  const ask = depositAskOfContent(deps.db, opened.job.userId, content);
  const amountPence = depositOnAcceptance(ask, gross);
  if (amountPence === null || !ask) return null;
  let invoice: InvoiceRow;
  try {
    invoice = issuedDeposits(deps, opened.job.id)[0] ?? issueInvoice(deps.db, deps.clock, createInvoice(deps.db, deps.clock, opened.job, { kind: 'deposit', percent: ask.percent }));
  } catch (err) {
    deps.logger.error({ job: opened.job.id, error: describeError(err) }, 'deposit invoice not made on acceptance');
    return null;
  }
  let payUrl: string | null = null;
  if (choice === 'card' && cardPaymentsOpen(deps, opened.job.userId)) {
    const page = `/quote/${encodeURIComponent(token)}`;
    try {
      payUrl = await startCheckout(deps, invoice, { successPath: `${page}?deposit=paid`, cancelPath: page });
    } catch (err) {
      deps.logger.warn({ invoice: invoice.id, error: describeError(err) }, 'deposit checkout not started on acceptance');
    }
  }
  // Paying by card, the customer gets one e-mail: the receipt with the paid deposit invoice, when
  // the payment lands (events.ts). The invoice asking for a bank transfer goes only to a customer
  // who chose the transfer, or whose card payment could not be started; the acceptance e-mail
  // already says what the deposit is and how to pay it, and the owner can send the invoice later.
  try {
    if (payUrl === null && invoice.sentAt === null) invoice = sendInvoice(deps, invoice, undefined, cardPaymentsOpen(deps, opened.job.userId));
  } catch (err) {
    // No e-mail address: the page still shows the deposit and how to pay it.
    if (!(err instanceof DomainError)) throw err;
  }
  return { amountPence, invoice, payUrl };
}

/** The deposit as the quote page shows it after acceptance: what, and whether it is paid, being confirmed or due. */
export interface DepositState {
  amountPence: number;
  invoiceId: number;
  state: 'paid' | 'confirming' | 'due';
  owedPence: number;
  canPayByCard: boolean;
}

/** `returned`: the customer is back from the card payment's page, so a payment not yet confirmed is on its way. */
export function depositStateOfJob(deps: Pick<AppDeps, 'db' | 'clock'> & { cardPayments: CardPaymentsProvider | null }, jobId: number, userId: number, returned: boolean): DepositState | null {
  const deposit = issuedDeposits(deps, jobId)[0];
  if (!deposit) return null;
  const settled = settledOf(deps.db, deposit);
  if (settled.creditedPence >= deposit.grossPence) return null;
  const state = settled.owedPence === 0 ? 'paid' : returned && paymentBeingConfirmed(deps.db, deposit.id, deps.clock.now()) ? 'confirming' : 'due';
  return { amountPence: deposit.grossPence, invoiceId: deposit.id, state, owedPence: settled.owedPence, canPayByCard: cardPaymentsOpen(deps, userId) };
}
