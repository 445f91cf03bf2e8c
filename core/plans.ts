import { subscriptionTypeSchema, type SubscriptionType } from './credits';

/**
 * The monthly plans and the one-time pass (docs/product.md, Credits and
 * payments). Prices are integer pence; the server decides every price from here,
 * the dashboard only shows them.
 */
export interface Plan {
  id: SubscriptionType;
  name: string;
  pricePence: number;
  /** The struck-through list price, when the plan is discounted. */
  originalPricePence: number | null;
  /** The discount label shown beside the list price, e.g. "3% OFF". */
  discountLabel: string | null;
  creditsPerMonth: number;
}

export const PLANS: Record<SubscriptionType, Plan> = {
  lite: {
    id: 'lite',
    name: 'Lite',
    pricePence: 3100,
    originalPricePence: null,
    discountLabel: null,
    creditsPerMonth: 300,
  },
  standard: {
    id: 'standard',
    name: 'Standard',
    pricePence: 6000,
    originalPricePence: 6200,
    discountLabel: '3% OFF',
    creditsPerMonth: 600,
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    pricePence: 7900,
    originalPricePence: 10300,
    discountLabel: '23% OFF',
    creditsPerMonth: 1000,
  },
};

export const PLAN_ORDER: readonly SubscriptionType[] = ['lite', 'standard', 'pro'];

/** docs/product.md, Screens: an unknown or missing plan falls back to Lite. */
export function resolvePlan(value: string | null | undefined): Plan {
  const parsed = subscriptionTypeSchema.safeParse(value);
  return PLANS[parsed.success ? parsed.data : 'lite'];
}

/** The one-time payment: a 30-day Unlimited pass (docs/product.md, Credits and payments). */
export const UNLIMITED_PASS_PRICE_PENCE = 2999;
export const UNLIMITED_PASS_DAYS = 30;
