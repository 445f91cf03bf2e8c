/**
 * The one currency the product charges in: pounds sterling, every amount integer pence
 * (core/money.ts). Written as Stripe writes currency codes, in lower case.
 */
export const CHARGE_CURRENCY = 'gbp';

/**
 * Whether a provider's payment was made in pounds: the one check before a payment is applied,
 * from the browser's confirmation (billing.ts) or a webhook (webhooks.ts). ISO 4217 writes the
 * code in capitals and Stripe in lower case; either is pounds, anything else is not.
 */
export function isChargeCurrency(currency: string): boolean {
  return currency.toLowerCase() === CHARGE_CURRENCY;
}
