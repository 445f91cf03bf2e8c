import { describe, expect, it } from 'vitest';
import { CHARGE_CURRENCY, isChargeCurrency } from './currency';

describe('the charge currency', () => {
  it('takes pounds however the provider writes the code', () => {
    expect(CHARGE_CURRENCY).toBe('gbp');
    expect(isChargeCurrency('gbp')).toBe(true);
    expect(isChargeCurrency('GBP')).toBe(true);
  });

  it('refuses any other currency', () => {
    for (const code of ['eur', 'USD', 'gbx', '', ' gbp']) expect(isChargeCurrency(code), code).toBe(false);
  });
});
