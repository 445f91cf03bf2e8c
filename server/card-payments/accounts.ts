import { eq } from 'drizzle-orm';
import { CARD_MESSAGES, type PaymentsSetup } from '../../core/card-payments';
import { DomainError } from '../../core/errors';
import type { Db } from '../../db/client';
import { paymentAccounts } from '../../db/schema';
import type { AppDeps } from '../deps';
import { findUserById } from '../accounts/users';
import { getCompanyProfile } from '../settings/settings';
import type { AccountState, CardPaymentsProvider } from './types';

/**
 * A business's Stripe account under Connect (docs/payments.md, Customers' card payments): made
 * on the first "Connect with Stripe" (an account the business controls), onboarded through
 * Account Links, and its state (details submitted, charges enabled, what Stripe still needs)
 * kept from Stripe's answers and its account.updated events. The demo and the install's own
 * account need none: they take payments for every business at once.
 */
type AccountDeps = Pick<AppDeps, 'db' | 'clock' | 'config'> & { cardPayments: CardPaymentsProvider | null };

export type PaymentAccountRow = typeof paymentAccounts.$inferSelect;

export function paymentAccountOf(db: Db, userId: number): PaymentAccountRow | undefined {
  return db.select().from(paymentAccounts).where(eq(paymentAccounts.userId, userId)).get();
}

export function providerOf(deps: { cardPayments: CardPaymentsProvider | null }): CardPaymentsProvider {
  if (!deps.cardPayments) throw new DomainError('PAYMENTS_NOT_CONFIGURED', CARD_MESSAGES.notConfigured);
  return deps.cardPayments;
}

/**
 * The provider that takes `userId`'s customers' payments, or null. The install's own Stripe
 * account (CARD_PAYMENTS=own) is one firm's: it serves the install's admin account alone, so a
 * self-registered account can neither take payments into it nor refund from it (docs/security.md,
 * The install's own Stripe account).
 */
export function cardProviderFor(deps: { db: Db; cardPayments: CardPaymentsProvider | null }, userId: number): CardPaymentsProvider | null {
  const provider = deps.cardPayments;
  if (provider?.kind === 'own' && findUserById(deps.db, userId)?.role !== 'admin') return null;
  return provider;
}

/** A checkout or a refund on the install's own account for an account it does not serve: 409 with the sentence. */
export const notServedByOwnAccount = () => new DomainError('CONFLICT', CARD_MESSAGES.ownAccountOnly);

/** As cardProviderFor, refusing with the sentence that says why (503 PAYMENTS_NOT_CONFIGURED). */
export function providerFor(deps: { db: Db; cardPayments: CardPaymentsProvider | null }, userId: number): CardPaymentsProvider {
  const provider = cardProviderFor(deps, userId);
  if (!provider) throw new DomainError('PAYMENTS_NOT_CONFIGURED', deps.cardPayments ? CARD_MESSAGES.ownAccountOnly : CARD_MESSAGES.notConfigured);
  return provider;
}

/** Stripe's latest word on an account, kept. */
export function keepAccountState(db: Db, now: Date, state: AccountState): void {
  db.update(paymentAccounts)
    .set({ detailsSubmitted: state.detailsSubmitted, chargesEnabled: state.chargesEnabled, requirements: state.requirements, updatedAt: now })
    .where(eq(paymentAccounts.accountId, state.accountId))
    .run();
}

/** The install's fee as the business reads it: "0", "1.5". */
const feeText = (percent: number): string => String(Math.round(percent * 100) / 100);

/**
 * GET /api/payments-setup: how this business takes card payments. A connected account that cannot
 * take charges yet is read again from Stripe, so coming back from onboarding shows where it stands.
 */
export async function paymentsSetup(deps: AccountDeps, userId: number): Promise<PaymentsSetup> {
  const provider = providerFor(deps, userId);
  const fee = provider.kind === 'connect' ? feeText(deps.config.cardPayments.applicationFeePercent) : '0';
  if (provider.kind !== 'connect') {
    return { provider: provider.kind, connected: true, chargesEnabled: true, detailsSubmitted: true, requirements: [], applicationFeePercent: fee, accountId: null };
  }
  let row = paymentAccountOf(deps.db, userId);
  if (row && !row.chargesEnabled) {
    keepAccountState(deps.db, deps.clock.now(), await provider.retrieveAccount(row.accountId));
    row = paymentAccountOf(deps.db, userId);
  }
  if (!row) return { provider: 'connect', connected: false, chargesEnabled: false, detailsSubmitted: false, requirements: [], applicationFeePercent: fee, accountId: null };
  return { provider: 'connect', connected: true, chargesEnabled: row.chargesEnabled, detailsSubmitted: row.detailsSubmitted, requirements: row.requirements, applicationFeePercent: fee, accountId: row.accountId };
}

/** Where Stripe sends the business back to: Settings, and the refresh route that mints a new link. */
export const onboardingUrls = (publicUrl: string) => {
  const base = publicUrl.replace(/\/$/, '');
  return { returnUrl: `${base}/settings?payments=returned#getting-paid`, refreshUrl: `${base}/api/payments-setup/onboarding/refresh` };
};

/**
 * POST /api/payments-setup/onboarding (a same-origin POST only: the refresh URL Stripe opens by a
 * GET only leads back to Settings): the business's account, made on first use, and a fresh
 * onboarding link to it.
 */
export async function onboardingLink(deps: AccountDeps, userId: number): Promise<string> {
  const provider = providerFor(deps, userId);
  if (provider.kind !== 'connect') throw new DomainError('CONFLICT', CARD_MESSAGES.noOnboarding);
  let row = paymentAccountOf(deps.db, userId);
  if (!row) {
    const user = findUserById(deps.db, userId);
    if (!user) throw new DomainError('UNAUTHORIZED', 'Please sign in again.');
    const profile = getCompanyProfile(deps.db, userId);
    // Stripe keys the creation by the user (an idempotency key), so two clicks make one account.
    const accountId = await provider.createAccount({ userId, email: profile.email || user.email, businessName: profile.tradingName });
    const now = deps.clock.now();
    deps.db.insert(paymentAccounts).values({ userId, accountId, requirements: [], createdAt: now, updatedAt: now }).onConflictDoNothing().run();
    row = paymentAccountOf(deps.db, userId)!;
  }
  return provider.onboardingLink({ accountId: row.accountId, ...onboardingUrls(deps.config.publicUrl) });
}
