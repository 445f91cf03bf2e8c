import { randomBytes } from 'node:crypto';
import { addMonth, DEMO_TEST_CARDS, remainingShare, upgradePricePence } from '../../core/billing';
import type { SubscriptionType } from '../../core/credits';
import type { Clock } from '../clock';
import { CHARGE_CURRENCY } from './currency';
import {
  WebhookSignatureError,
  type BillingEvent,
  type CreatedPayment,
  type CreatedSubscription,
  type PaymentIntentInfo,
  type PaymentProvider,
  type SubscriptionInfo,
} from './types';

/**
 * The demo provider (docs/payments.md, Demo mode): the same calls as Stripe with no network and no real
 * money, for a first run and for development. Its card form confirms through
 * POST /api/demo/confirm-payment with the two test cards of core/billing.ts. State lives in memory:
 * a payment started before a restart has to be started again, which is fine for a demo.
 * Never used in production (server/payments/create-provider.ts).
 */

export type DemoConfirmResult =
  | { status: 'succeeded'; paymentIntentId: string }
  | { status: 'declined'; message: string }
  | { status: 'unknown_card'; message: string }
  | { status: 'not_found' };

interface DemoIntent extends PaymentIntentInfo {
  clientSecret: string;
}

interface DemoSubscription extends SubscriptionInfo {
  userId: number;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** What every demo subscription's id starts with: the demo's renewals (demo-renewals.ts) pick them out by it. */
export const DEMO_SUBSCRIPTION_PREFIX = 'demo_sub';

export interface DemoProvider extends PaymentProvider {
  readonly kind: 'demo';
  /** The demo card form's confirm step. */
  confirm(clientSecret: string, cardNumber: string): DemoConfirmResult;
}

export function createDemoProvider(clock: Clock): DemoProvider {
  const intents = new Map<string, DemoIntent>();
  const subscriptions = new Map<string, DemoSubscription>();

  function newIntent(amount: number, customerId: string, metadata: Record<string, string>, subscriptionId: string | null): CreatedPayment {
    const intent: DemoIntent = {
      id: id('demo_pi'),
      status: 'requires_payment_method',
      amount,
      currency: CHARGE_CURRENCY,
      customerId,
      metadata,
      subscriptionId,
      clientSecret: '',
    };
    intent.clientSecret = `${intent.id}_secret_${randomBytes(12).toString('hex')}`;
    intents.set(intent.id, intent);
    return { clientSecret: intent.clientSecret, paymentIntentId: intent.id };
  }

  const publicIntent = ({ clientSecret: _secret, ...info }: DemoIntent): PaymentIntentInfo => ({ ...info, metadata: { ...info.metadata } });
  const publicSubscription = ({ userId: _user, ...info }: DemoSubscription): SubscriptionInfo => ({ ...info });

  return {
    kind: 'demo',
    publishableKey: null,

    async ensureCustomer(user, existingId) {
      return existingId ?? `demo_cus_${user.id}`;
    },

    async createPassPayment({ customerId, userId, amountPence }) {
      return newIntent(amountPence, customerId, { userId: String(userId), kind: 'pass' }, null);
    },

    async createSubscription({ customerId, userId, plan, amountPence }): Promise<CreatedSubscription> {
      const subscription: DemoSubscription = {
        id: id(DEMO_SUBSCRIPTION_PREFIX),
        status: 'incomplete',
        customerId,
        plan: plan as SubscriptionType,
        currentPeriodStart: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        cancelAt: null,
        userId,
      };
      subscriptions.set(subscription.id, subscription);
      const payment = newIntent(amountPence, customerId, { userId: String(userId), kind: 'subscription', plan }, subscription.id);
      return { ...payment, subscriptionId: subscription.id };
    },

    async retrievePaymentIntent(intentId) {
      const intent = intents.get(intentId);
      return intent ? publicIntent(intent) : null;
    },

    async retrieveSubscription(subscriptionId) {
      const sub = subscriptions.get(subscriptionId);
      return sub ? publicSubscription(sub) : null;
    },

    async cancelNow(subscriptionId) {
      const sub = subscriptions.get(subscriptionId);
      if (sub) sub.status = 'canceled';
    },

    async cancelAtPeriodEnd(subscriptionId) {
      const sub = subscriptions.get(subscriptionId);
      if (sub) sub.cancelAtPeriodEnd = true;
      // Demo renewals are kept in the database (demo-renewals.ts), not here, and this state does
      // not survive a restart: report no period end, so billing uses the stored refill date.
      return { id: subscriptionId, status: sub?.status ?? 'active', customerId: sub?.customerId ?? '', plan: sub?.plan ?? null, currentPeriodStart: null, currentPeriodEnd: null, cancelAtPeriodEnd: true, cancelAt: null };
    },

    /**
     * Like Stripe's (stripe-provider.ts), with no card to charge: an upgrade "charges" the price
     * difference for the share of our stored period left, a downgrade nothing. The period is
     * reported as unknown, as for cancelAtPeriodEnd, so billing keeps the stored dates.
     */
    async changePlan({ subscriptionId, plan, amountPence, prorate, prorationDate, fromAmountPence, storedPeriod }) {
      const sub = subscriptions.get(subscriptionId);
      if (sub) sub.plan = plan;
      const share = storedPeriod ? remainingShare(storedPeriod.start, storedPeriod.end, prorationDate) : 0;
      return {
        status: 'changed',
        invoiceId: null,
        chargedPence: prorate ? upgradePricePence(fromAmountPence, amountPence, share) : 0,
        subscription: {
          id: subscriptionId, status: sub?.status ?? 'active', customerId: sub?.customerId ?? '', plan,
          currentPeriodStart: null, currentPeriodEnd: null, cancelAtPeriodEnd: sub?.cancelAtPeriodEnd ?? false, cancelAt: null,
        },
      };
    },

    async parseWebhook(): Promise<BillingEvent> {
      throw new WebhookSignatureError('The demo provider sends no webhooks');
    },

    confirm(clientSecret, cardNumber) {
      const intent = [...intents.values()].find((i) => i.clientSecret === clientSecret);
      if (!intent) return { status: 'not_found' };
      const digits = cardNumber.replace(/[\s-]/g, '');
      if (digits === DEMO_TEST_CARDS.declined) return { status: 'declined', message: 'Your card was declined.' };
      if (digits !== DEMO_TEST_CARDS.success) {
        return { status: 'unknown_card', message: 'Demo mode accepts only the test cards 4242 4242 4242 4242 and 4000 0000 0000 0002.' };
      }
      intent.status = 'succeeded';
      const sub = intent.subscriptionId ? subscriptions.get(intent.subscriptionId) : undefined;
      if (sub) {
        sub.status = 'active';
        sub.currentPeriodStart = clock.now();
        sub.currentPeriodEnd = addMonth(clock.now());
      }
      return { status: 'succeeded', paymentIntentId: intent.id };
    },
  };
}
