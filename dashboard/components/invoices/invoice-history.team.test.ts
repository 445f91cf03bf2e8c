import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../../core/invoices';
import { byPerson, recordedBy } from '../by-person';
import { invoiceHistory, refundWords } from './invoice-history';

/*
 * The invoice's history in a team (docs/product.md, Team): who issued, sent, recorded and
 * credited each thing. The answer carries the names only for a team that has had more than one
 * person (server/team/names.ts); without them the lines read as a solo owner's always have.
 */
const payment = { id: 5, amount: '50.00', paidOn: '2026-11-03', method: 'bank_transfer' as const, reference: 'INV-0001', recordedAt: '2026-11-03T10:00:00.000Z', refunded: '0.00', refundable: '50.00', online: false };

function teamInvoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 1,
    jobId: 2,
    number: 'INV-0001',
    kind: 'deposit',
    status: 'part_paid',
    quoteReference: 'Q-000002-1',
    customer: { name: 'Jo Rowan', email: 'jo@example.test', address: null },
    vatMode: 'none',
    vatRatePercent: 20,
    depositPercent: 20,
    issuedOn: '2026-11-02',
    issuedBy: 'Ash Grove',
    dueOn: '2026-11-02',
    taxPoint: '2026-11-02',
    lines: [],
    totals: { net: '120.00', vat: '0.00', gross: '120.00' },
    paid: '50.00',
    credited: '10.00',
    owed: '60.00',
    payments: [
      { ...payment, recordedBy: 'Ana Ruiz' },
      // A card payment the customer made online: nobody in the team recorded it.
      { ...payment, id: 6, method: 'card', online: true, reference: null, paidOn: '2026-11-04', recordedAt: '2026-11-04T10:00:00.000Z', recordedBy: null },
    ],
    removedPayments: [],
    creditNotes: [{ id: 1, number: 'CN-0001', issuedOn: '2026-11-08', reason: 'Hedge left', net: '10.00', vat: '0.00', gross: '10.00', issuedBy: 'Sam Field' }],
    refunds: [],
    disputes: [],
    sentTo: 'jo@example.test',
    sentAt: '2026-11-02T12:00:00.000Z',
    sentBy: 'Sam Field',
    linksWithdrawnAt: null,
    heldMail: [],
    remindersSent: [],
    lateInterest: null,
    createdAt: '2026-11-02T09:00:00.000Z',
    createdBy: 'Sam Field',
    ...overrides,
  };
}

describe('invoiceHistory in a team', () => {
  it('names who issued, sent, recorded and credited; a card payment online names nobody', () => {
    expect(invoiceHistory(teamInvoice()).map((event) => event.text)).toEqual([
      'Issued as INV-0001 by Ash Grove on Mon 2 November 2026, due Mon 2 November 2026',
      'Sent to jo@example.test by Sam Field on Mon 2 November 2026, 12:00',
      '£50.00 paid by bank transfer on Tue 3 November 2026 (INV-0001), recorded by Ana Ruiz',
      '£50.00 paid by card (online) on Wed 4 November 2026',
      'Credit note CN-0001 for £10.00 on Sun 8 November 2026, issued by Sam Field: Hedge left',
    ]);
  });

  it('names whoever recorded a payment later removed', () => {
    const removed = { ...payment, recordedBy: 'Ana Ruiz', removedAt: '2026-11-04T09:00:00.000Z', reason: 'Typed twice' };
    const texts = invoiceHistory(teamInvoice({ payments: [], removedPayments: [removed], creditNotes: [] })).map((event) => event.text);
    expect(texts).toContain('£50.00 paid by bank transfer on Tue 3 November 2026 (INV-0001), recorded by Ana Ruiz');
  });

  it('names who recorded a refund', () => {
    const refund = { id: 1, paymentId: 5, amount: '25.00', reason: 'The hedge was left', at: '2026-11-28T10:00:00.000Z', providerRefundId: null, creditNoteNumber: 'CN-0002', recordedBy: 'Ana Ruiz' };
    expect(refundWords(refund)).toBe('£25.00 refunded on Sat 28 November 2026 by Ana Ruiz: The hedge was left (credit note CN-0002)');
    // Stripe reported it: nobody in the team did it.
    expect(refundWords({ ...refund, recordedBy: null })).toBe('£25.00 refunded on Sat 28 November 2026: The hedge was left (credit note CN-0002)');
  });

  it('reads as before teams when the answer carries no names (a team of one)', () => {
    const solo = teamInvoice({ issuedBy: undefined, sentBy: undefined, createdBy: undefined, payments: [payment], creditNotes: [] });
    expect(invoiceHistory(solo).map((event) => event.text)).toEqual([
      'Issued as INV-0001 on Mon 2 November 2026, due Mon 2 November 2026',
      'Sent to jo@example.test on Mon 2 November 2026, 12:00',
      '£50.00 paid by bank transfer on Tue 3 November 2026 (INV-0001)',
    ]);
  });
});

describe('byPerson', () => {
  it('says who after what they did, and nothing for nobody', () => {
    expect(`Sent to jo@example.test${byPerson('Sam Field')} on Mon 2 November 2026`).toBe('Sent to jo@example.test by Sam Field on Mon 2 November 2026');
    expect(byPerson(null)).toBe('');
    expect(byPerson(undefined)).toBe('');
    expect(recordedBy('Ana Ruiz')).toBe(', recorded by Ana Ruiz');
    expect(recordedBy(undefined)).toBe('');
  });
});
