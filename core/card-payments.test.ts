import { describe, expect, it } from 'vitest';
import { depositWords } from './card-payments';
import { invoiceTitle, titleInSentence } from './invoices';

const BANK = { accountName: 'Oak & Ash Tree Care Ltd', sortCode: '20-00-00', accountNumber: '55779911' };

describe('depositWords: the deposit as the customer keeps it', () => {
  const ask = { percent: 30, overPence: 10_000 };

  it('offered: the percentage, the pounds on the work as quoted, when it is due and every way to pay', () => {
    expect(depositWords({ ...ask, payBy: { card: true, bank: BANK } }, { grossPence: 102_000, withOptionalPence: 120_000 }, 'offered', 'Oak & Ash')).toEqual([
      'Deposit: 30% of the accepted total on totals over £100.00, £306.00 for the work as quoted, more if you add optional items. It is due when you accept, the work is booked once it is paid, and it is taken off the final invoice.',
      "Pay it by card from your quote page, or by bank transfer to Oak & Ash Tree Care Ltd, sort code 20-00-00, account number 55779911, with the deposit invoice's number as the reference.",
    ]);
  });

  it('offered under the threshold: said only when optional items could take the total over it', () => {
    expect(depositWords(ask, { grossPence: 9_000, withOptionalPence: 9_000 }, 'offered', 'Oak & Ash')).toEqual([]);
    expect(depositWords({ ...ask, payBy: { card: false, bank: BANK } }, { grossPence: 9_000, withOptionalPence: 15_000 }, 'offered', 'Oak & Ash')[0]).toBe(
      'Deposit: 30% of the accepted total on totals over £100.00, if the optional items you add take it over that. It is due when you accept, and taken off the final invoice.',
    );
  });

  it('accepted: the amount on the accepted total; card only, bank only, or neither as the copy was sent', () => {
    expect(depositWords({ ...ask, payBy: { card: true, bank: null } }, { grossPence: 102_000 }, 'accepted', 'Oak & Ash')).toEqual([
      'Deposit: £306.00 (30% of the accepted total), due now that you have accepted. The work is booked once it is paid, and it is taken off the final invoice.',
      'Pay it by card from your quote page.',
    ]);
    expect(depositWords({ ...ask, payBy: { card: false, bank: BANK } }, { grossPence: 102_000 }, 'accepted', 'Oak & Ash')[1]).toMatch(/^Pay it by bank transfer to Oak & Ash Tree Care Ltd, /);
    // A copy sent before quotes carried how to pay: the deposit invoice says.
    expect(depositWords(ask, { grossPence: 102_000 }, 'accepted', 'Oak & Ash')[1]).toBe('The deposit invoice from Oak & Ash says how to pay it.');
    expect(depositWords(null, { grossPence: 102_000 }, 'accepted', 'Oak & Ash')).toEqual([]);
    expect(depositWords(ask, { grossPence: 10_000 }, 'accepted', 'Oak & Ash')).toEqual([]);
  });
});

describe('invoiceTitle: one title for every invoice document', () => {
  const vat = { supplier: { vatNumber: 'GB123456789' } };
  const none = { supplier: { vatNumber: '' } };
  it('keeps "VAT" in capitals, in a title and inside a sentence', () => {
    expect(invoiceTitle({ kind: 'deposit', vatMode: 'inc' }, vat)).toBe('Deposit VAT invoice');
    expect(invoiceTitle({ kind: 'final', vatMode: 'inc' }, vat)).toBe('VAT invoice');
    expect(invoiceTitle({ kind: 'deposit', vatMode: 'inc' }, none)).toBe('Deposit invoice');
    expect(invoiceTitle({ kind: 'final', vatMode: 'none' }, vat)).toBe('Invoice');
    expect(titleInSentence('Deposit VAT invoice')).toBe('deposit VAT invoice');
    expect(titleInSentence('VAT invoice')).toBe('VAT invoice');
    expect(titleInSentence('Invoice')).toBe('invoice');
  });
});
