import { and, desc, eq, gt } from 'drizzle-orm';
import { applicationFeePence } from '../../core/card-payments';
import { INVOICE_MESSAGES, invoiceTitle } from '../../core/invoices';
import { DomainError } from '../../core/errors';
import { cardCheckouts } from '../../db/schema';
import type { AppDeps } from '../deps';
import type { InvoiceRow } from '../invoices/invoices';
import { settledOf } from '../invoices/payments';
import { cardProviderFor, notServedByOwnAccount, paymentAccountOf, providerOf } from './accounts';
import type { CardPaymentsProvider } from './types';

/**
 * "Pay by card" (docs/product.md, Card payments): a checkout for exactly what is owed on an issued
 * invoice, never more, on the business's account (a direct charge under Connect), kept with the
 * amount, fee and account the server decided, so the event that pays it is checked against this
 * row (events.ts). Coming back from it records nothing: only the signed event does.
 */
export type CheckoutDeps = Pick<AppDeps, 'db' | 'clock' | 'config'> & { cardPayments: CardPaymentsProvider | null };

export type CardCheckoutRow = typeof cardCheckouts.$inferSelect;

/** A checkout still this long from its end is given again rather than a new one started (a second tap, a reload). */
const REUSE_MARGIN_MS = 10 * 60 * 1000;

/** Whether the business takes card payments now: a provider, and under Connect an account that can take charges. */
export function cardPaymentsOpen(deps: Pick<CheckoutDeps, 'db'> & { cardPayments: CardPaymentsProvider | null }, userId: number): boolean {
  const provider = cardProviderFor(deps, userId);
  if (!provider) return false;
  if (provider.kind !== 'connect') return true;
  return paymentAccountOf(deps.db, userId)?.chargesEnabled === true;
}

/** The account a business's charges go on: its connected account under Connect, none otherwise. */
function chargeAccount(deps: CheckoutDeps, provider: CardPaymentsProvider, userId: number): string | null {
  if (provider.kind !== 'connect') return null;
  const account = paymentAccountOf(deps.db, userId);
  if (!account?.chargesEnabled) throw new DomainError('CONFLICT', 'This business does not take card payments online yet. Please pay by bank transfer, or contact them.');
  return account.accountId;
}

/**
 * A page to pay what is owed on `invoice` by card: `successPath` and `cancelPath` are this
 * server's paths the customer comes back to. Answers its URL.
 */
export async function startCheckout(deps: CheckoutDeps, invoice: InvoiceRow, paths: { successPath: string; cancelPath: string }): Promise<string> {
  const provider = providerOf(deps);
  // Under CARD_PAYMENTS=own another account than the admin's takes no payment into the install's account.
  if (!cardProviderFor(deps, invoice.userId)) throw notServedByOwnAccount();
  if (!invoice.number || !invoice.parties) throw new DomainError('CONFLICT', INVOICE_MESSAGES.nothingOwed);
  const owed = settledOf(deps.db, invoice).owedPence;
  if (owed === 0) throw new DomainError('CONFLICT', INVOICE_MESSAGES.nothingOwed);
  const account = chargeAccount(deps, provider, invoice.userId);
  const now = deps.clock.now();
  const open = deps.db
    .select()
    .from(cardCheckouts)
    .where(and(eq(cardCheckouts.invoiceId, invoice.id), eq(cardCheckouts.status, 'open'), eq(cardCheckouts.amountPence, owed), gt(cardCheckouts.expiresAt, new Date(now.getTime() + REUSE_MARGIN_MS))))
    .orderBy(desc(cardCheckouts.id))
    .get();
  if (open && open.account === account && open.returnPath === paths.successPath) return open.url;
  const fee = provider.kind === 'connect' ? applicationFeePence(owed, deps.config.cardPayments.applicationFeePercent) : 0;
  const base = deps.config.publicUrl.replace(/\/$/, '');
  const started = await provider.createCheckout({
    account,
    amountPence: owed,
    applicationFeePence: fee,
    description: `${invoiceTitle(invoice, invoice.parties)} ${invoice.number} from ${invoice.parties.supplier.name}`.slice(0, 250),
    invoiceId: invoice.id,
    userId: invoice.userId,
    successUrl: `${base}${paths.successPath}`,
    cancelUrl: `${base}${paths.cancelPath}`,
    // Stripe e-mails its receipt there: never the address an invoice's withdrawn links went to.
    customerEmail: invoice.linksWithdrawnAt ? null : (invoice.sentTo ?? invoice.parties.customer.email),
    idempotencyKey: `checkout-${invoice.id}-${owed}-${now.getTime()}`,
  });
  deps.db
    .insert(cardCheckouts)
    .values({
      userId: invoice.userId,
      invoiceId: invoice.id,
      provider: provider.kind,
      sessionId: started.sessionId,
      account,
      amountPence: owed,
      applicationFeePence: fee,
      url: started.url,
      returnPath: paths.successPath,
      expiresAt: started.expiresAt,
      createdAt: now,
    })
    .run();
  return started.url;
}

/** A checkout by its session id (the demo's page, an event). */
export function checkoutBySession(db: CheckoutDeps['db'], sessionId: string): CardCheckoutRow | undefined {
  return db.select().from(cardCheckouts).where(eq(cardCheckouts.sessionId, sessionId)).get();
}

/**
 * Whether a card payment for the invoice may be on its way: a checkout started in the last hour
 * and not yet recorded, so a page opened on coming back says it is being confirmed.
 */
export function paymentBeingConfirmed(db: CheckoutDeps['db'], invoiceId: number, now: Date): boolean {
  const recent = db
    .select({ id: cardCheckouts.id })
    .from(cardCheckouts)
    .where(and(eq(cardCheckouts.invoiceId, invoiceId), eq(cardCheckouts.status, 'open'), gt(cardCheckouts.expiresAt, now)))
    .get();
  return recent !== undefined;
}
