import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../../core/invoices';
import { disputeWords, heldMailWords, invoiceHistory, invoiceName, moneyWords, paymentMethodWords, paymentWords, refundWords } from './invoice-history';

function invoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 1,
    jobId: 2,
    number: 'INV-0001',
    kind: 'deposit',
    status: 'issued',
    quoteReference: 'Q-000002-1',
    customer: { name: 'Jo Rowan', email: 'jo@example.test', address: null },
    vatMode: 'none',
    vatRatePercent: 20,
    depositPercent: 20,
    issuedOn: '2026-11-02',
    dueOn: '2026-11-02',
    taxPoint: '2026-11-02',
    lines: [],
    totals: { net: '120.00', vat: '0.00', gross: '120.00' },
    paid: '0.00',
    credited: '0.00',
    owed: '120.00',
    payments: [],
    removedPayments: [],
    creditNotes: [],
    refunds: [],
    disputes: [],
    sentTo: null,
    sentAt: null,
    linksWithdrawnAt: null,
    heldMail: [],
    remindersSent: [],
    lateInterest: null,
    createdAt: '2026-11-02T09:00:00.000Z',
    ...overrides,
  };
}

const payment = { id: 5, amount: '50.00', paidOn: '2026-11-03', method: 'bank_transfer' as const, reference: 'INV-0001', recordedAt: '2026-11-03T10:00:00.000Z', refunded: '0.00', refundable: '50.00', online: false };

describe('invoiceHistory', () => {
  it('says nothing of a draft', () => {
    expect(invoiceHistory(invoice({ number: null, issuedOn: null, dueOn: null, status: 'draft' }))).toEqual([]);
  });

  it('puts every event in the order it happened, whatever kind it is', () => {
    const texts = invoiceHistory(
      invoice({
        status: 'viewed',
        sentAt: '2026-11-02T12:00:00.000Z',
        sentTo: 'jo@example.test',
        remindersSent: ['2026-11-06T08:00:00.000Z'],
        payments: [{ ...payment, id: 6, recordedAt: '2026-11-08T10:00:00.000Z', paidOn: '2026-11-08', method: 'cash', reference: null }],
        removedPayments: [{ ...payment, removedAt: '2026-11-04T09:00:00.000Z', reason: 'Typed twice' }],
        creditNotes: [{ id: 1, number: 'CN-0001', issuedOn: '2026-11-08', reason: 'Hedge left', net: '10.00', vat: '0.00', gross: '10.00' }],
      }),
    ).map((event) => event.text);
    expect(texts).toEqual([
      'Issued as INV-0001 on Mon 2 November 2026, due Mon 2 November 2026',
      'Sent to jo@example.test on Mon 2 November 2026, 12:00',
      'Opened by the customer',
      '£50.00 paid by bank transfer on Tue 3 November 2026 (INV-0001)',
      'Payment of £50.00 removed on Wed 4 November 2026, 09:00: Typed twice',
      'First overdue reminder sent on Fri 6 November 2026, 08:00',
      '£50.00 paid by cash on Sun 8 November 2026',
      'Credit note CN-0001 for £10.00 on Sun 8 November 2026: Hedge left',
    ]);
  });

  it('reads the time on the UK clock (British Summer Time)', () => {
    const [, sent] = invoiceHistory(invoice({ issuedOn: '2026-07-01', dueOn: '2026-07-01', sentAt: '2026-07-01T23:30:00.000Z', sentTo: 'jo@example.test' }));
    expect(sent?.text).toBe('Sent to jo@example.test on Thu 2 July 2026, 00:30');
  });
});

describe('words', () => {
  it('names a draft "Draft" and an issued invoice by its number', () => {
    expect(invoiceName({ number: null })).toBe('Draft');
    expect(invoiceName({ number: 'INV-0042' })).toBe('INV-0042');
  });

  it('writes a deposit taken off with its sign before the pound', () => {
    expect(moneyWords('-240.00')).toBe('-£240.00');
    expect(moneyWords('1110.00')).toBe('£1,110.00');
  });

  it('says a payment with its method and reference', () => {
    expect(paymentWords({ ...payment, method: 'cheque', reference: null })).toBe('£50.00 paid by cheque on Tue 3 November 2026');
  });

  it('says a card payment taken online as such', () => {
    const online = { ...payment, method: 'card' as const, online: true, reference: null };
    expect(paymentMethodWords(online)).toBe('Card (online)');
    expect(paymentMethodWords({ ...online, online: false })).toBe('Card');
    expect(paymentWords(online)).toBe('£50.00 paid by card (online) on Tue 3 November 2026');
  });

  it('says a refund with its day on the UK clock, its reason and its credit note', () => {
    const refund = { id: 1, paymentId: 5, amount: '25.00', reason: 'The hedge was left', at: '2026-11-28T23:30:00.000Z', providerRefundId: null, creditNoteNumber: 'CN-0001' };
    expect(refundWords(refund)).toBe('£25.00 refunded on Sat 28 November 2026: The hedge was left (credit note CN-0001)');
    // British Summer Time: half past eleven at night (UTC) is the next day in the UK.
    expect(refundWords({ ...refund, at: '2026-07-04T23:30:00.000Z', creditNoteNumber: null })).toBe('£25.00 refunded on Sun 5 July 2026: The hedge was left');
  });
});

describe('disputeWords', () => {
  const dispute = { id: 1, paymentId: 5, amount: '80.00', reason: 'fraudulent', reasonWords: 'the cardholder says they did not make the payment', evidenceDueBy: '2026-12-08T23:59:00.000Z', openedAt: '2026-12-01T10:00:00.000Z' };

  it('says what to do by when while open, and how it ended once closed', () => {
    expect(disputeWords({ ...dispute, status: 'open', closedAt: null })).toBe(
      "Disputed by the customer's bank: £80.00 (the cardholder says they did not make the payment). Respond in your Stripe dashboard by Tue 8 December 2026, 23:59 with your evidence.",
    );
    expect(disputeWords({ ...dispute, status: 'won', closedAt: '2026-12-20T09:30:00.000Z' })).toBe('Dispute of £80.00 won on Sun 20 December 2026, 09:30: the payment stands');
    expect(disputeWords({ ...dispute, status: 'lost', closedAt: '2026-12-20T09:30:00.000Z' })).toBe('Dispute of £80.00 lost on Sun 20 December 2026, 09:30: recorded as a refund');
  });

  it('puts the dispute and the withdrawal in the history', () => {
    const history = invoiceHistory(invoice({ disputes: [{ ...dispute, status: 'open', closedAt: null }], linksWithdrawnAt: '2026-11-05T12:00:00.000Z' })).map((event) => event.text);
    expect(history).toContain('Links withdrawn on Thu 5 November 2026, 12:00');
    expect(history).toContain('Card payment of £80.00 disputed on Tue 1 December 2026, 10:00: the cardholder says they did not make the payment');
  });
});

describe('heldMailWords', () => {
  it('counts what waits by kind', () => {
    const at = '2026-11-05T12:00:00.000Z';
    expect(heldMailWords([{ kind: 'receipt', at }, { kind: 'receipt', at }, { kind: 'reminder', at }])).toBe('2 receipts and 1 reminder');
    expect(heldMailWords([{ kind: 'reminder', at }])).toBe('1 reminder');
    expect(heldMailWords([{ kind: 'credit_note', at }, { kind: 'receipt', at }, { kind: 'reminder', at }, { kind: 'credit_note', at }])).toBe('1 receipt, 2 credit notes and 1 reminder');
    expect(heldMailWords([])).toBe('');
  });
});
