import { describe, expect, it } from 'vitest';
import type { JobItem } from '../../../core/jobs';
import { customerChange, customerDraftOf, describeVat, formatQuoteTotal, itemChanges, itemErrors, liveTotals, priceInPence } from './job-draft';

const line = (id: number, price: string, optional = false): JobItem => ({
  id,
  kind: 'line',
  analysisId: null,
  description: `Line ${id}`,
  price,
  optional,
  estimate: null,
});

describe('a job being edited', () => {
  it('takes prices in pounds with at most two decimals, up to £1,000,000', () => {
    expect(priceInPence('600')).toBe(60_000);
    expect(priceInPence(' 600.5 ')).toBe(60_050);
    expect(priceInPence('1000000')).toBe(100_000_000);
    expect(priceInPence('1000000.01')).toBeUndefined();
    expect(priceInPence('')).toBeUndefined();
    expect(priceInPence('12.345')).toBeUndefined();
    expect(priceInPence('-5')).toBeUndefined();
    expect(priceInPence('£5')).toBeUndefined();
  });

  it('sends only what changed, a price as pounds text', () => {
    const items = [line(1, '600.00'), line(2, '175.00', true), line(3, '80.00')];
    expect(
      itemChanges(items, {
        1: { price: '600' },
        2: { price: '180.5', optional: true },
        3: { description: '  Grind the stump  ', optional: true },
        9: { price: '1' },
      }),
    ).toEqual([
      { id: 2, price: '180.50' },
      { id: 3, description: 'Grind the stump', optional: true },
    ]);
    expect(itemErrors(items[0]!, { price: '6o0', description: ' ' })).toEqual({ price: expect.any(String), description: 'Describe the work' });
    expect(itemErrors(items[0]!, undefined)).toEqual({});
  });

  it('adds up as the server will, optional items apart, with VAT taken out of an inc total', () => {
    const items = [line(1, '600.00'), line(2, '175.00', true)];
    const live = liveTotals(items, { 1: { price: '625' } }, 'inc');
    expect(live.hasOptional).toBe(true);
    // 62,500p including VAT: VAT 62,500 / 6 = 10,416.67p.
    expect(live.totals).toEqual({ netPence: 52_083, vatPence: 10_417, grossPence: 62_500 });
    expect(live.withOptional.grossPence).toBe(80_000);
    // A price half typed counts at its saved value.
    expect(liveTotals(items, { 1: { price: '6.' }, 2: { optional: false } }, 'none').totals.grossPence).toBe(77_500);
    expect(formatQuoteTotal(live.totals, 'inc')).toBe('£625.00 inc VAT');
    expect(describeVat(live.totals, 'inc')).toBe('Includes £104.17 VAT');
    const ex = liveTotals([line(1, '1000.00')], {}, 'ex').totals;
    expect(formatQuoteTotal(ex, 'ex')).toBe('£1,000.00 + VAT');
    expect(describeVat(ex, 'ex')).toBe('VAT £200.00, £1,200.00 in all');
    expect(formatQuoteTotal(ex, 'none')).toBe('£1,200.00');
    expect(describeVat(ex, 'none')).toBeNull();
  });

  it('once accepted, counts the optional items the customer chose and no others', () => {
    const items = [line(1, '600.00'), line(2, '175.00', true), line(3, '90.00', true)];
    expect(liveTotals(items, {}, 'none', [2]).totals.grossPence).toBe(77_500);
    expect(liveTotals(items, {}, 'none', []).totals.grossPence).toBe(60_000);
  });

  it("sends the customer only when changed, blanks as null", () => {
    const customer = { name: 'Jo Hedge', email: null, phone: '07700 900123', siteAddress: null };
    const draft = customerDraftOf(customer);
    expect(draft).toEqual({ name: 'Jo Hedge', email: '', phone: '07700 900123', siteAddress: '' });
    expect(customerChange(customer, { ...draft, name: ' Jo Hedge ' })).toBeUndefined();
    expect(customerChange(customer, { ...draft, phone: ' ', siteAddress: '1 Elm Road' })).toEqual({
      name: 'Jo Hedge',
      email: null,
      phone: null,
      siteAddress: '1 Elm Road',
    });
  });
});
