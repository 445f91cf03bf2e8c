import { and, eq } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import { INVOICE_MESSAGES, invoiceTitle, type PaymentMethod } from '../../core/invoices';
import type { Db } from '../../db/client';
import { creditNotes, invoicePayments, paymentRefunds, quoteVersions } from '../../db/schema';
import type { AppDeps } from '../deps';
import { quoteCompanyFor } from '../settings/quote-company';
import { buildCreditNotePdf } from './credit-note-pdf';
import type { InvoiceRow } from './invoices';
import type { CreditNoteRow } from './payments';

/**
 * Credit notes as documents (docs/product.md, Getting paid: credit notes): each one of an issued
 * invoice, found by its id under that invoice only, and its PDF (credit-note-pdf.ts) with the
 * parties the invoice froze when it was issued.
 */

export const CREDIT_NOTE_NOT_FOUND = 'Credit note not found';

/** The card a refund went back to, as Stripe describes the charge ("visa", "4242"); null when not known. */
export interface RefundCard {
  brand: string;
  last4: string;
}

/** The credit note `creditNoteId` of the invoice: 404 for one that is not on it. */
export function creditNoteOf(db: Db, invoiceId: number, creditNoteId: number): CreditNoteRow {
  const note =
    Number.isSafeInteger(creditNoteId) && creditNoteId > 0
      ? db
          .select()
          .from(creditNotes)
          .where(and(eq(creditNotes.id, creditNoteId), eq(creditNotes.invoiceId, invoiceId)))
          .get()
      : undefined;
  if (!note) throw new DomainError('NOT_FOUND', CREDIT_NOTE_NOT_FOUND);
  return note;
}

/** "credit-note-CN-0001.pdf". */
export const creditNotePdfFilename = (note: Pick<CreditNoteRow, 'number'>): string => `credit-note-${note.number.replace(/[^A-Za-z0-9-]/g, '-')}.pdf`;

/** Card brands as people say them (Stripe's `payment_method_details.card.brand` values). */
const BRAND_WORDS: Record<string, string> = {
  amex: 'American Express',
  diners: 'Diners Club',
  discover: 'Discover',
  eftpos_au: 'eftpos',
  jcb: 'JCB',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
};

/** Where a refund's money went, as a sentence's end: "to your Visa card ending 4242", "to the card you paid with", "to you". */
export function refundedToWords(method: PaymentMethod, card: RefundCard | null): string {
  if (method !== 'card') return 'to you';
  if (card && /^\d{4}$/.test(card.last4)) {
    const brand = BRAND_WORDS[card.brand];
    return `to your ${brand ? `${brand} card` : 'card'} ending ${card.last4}`;
  }
  return 'to the card you paid with';
}

/** The refund a credit note came with, if one did, and the method of the payment it gave back. */
function refundOfNote(db: Db, noteId: number): { amountPence: number; method: PaymentMethod } | null {
  const found = db
    .select({ amountPence: paymentRefunds.amountPence, method: invoicePayments.method })
    .from(paymentRefunds)
    .innerJoin(invoicePayments, eq(invoicePayments.id, paymentRefunds.paymentId))
    .where(eq(paymentRefunds.creditNoteId, noteId))
    .get();
  return found ?? null;
}

/** A credit note of an issued invoice as a PDF; `card`: the card its refund went to, when known now. */
export async function creditNotePdfOf(deps: Pick<AppDeps, 'db' | 'photos'>, row: InvoiceRow, note: CreditNoteRow, card: RefundCard | null = null): Promise<Buffer> {
  if (!row.parties || !row.number || !row.issuedOn) throw new DomainError('CONFLICT', INVOICE_MESSAGES.notIssued);
  const company = await quoteCompanyFor(deps.db, deps.photos, row.userId);
  const quoteReference = deps.db.select({ content: quoteVersions.content }).from(quoteVersions).where(eq(quoteVersions.id, row.versionId)).get()?.content.reference ?? '';
  const refund = refundOfNote(deps.db, note.id);
  return buildCreditNotePdf({
    note,
    invoice: { number: row.number, issuedOn: row.issuedOn, title: invoiceTitle(row, row.parties), quoteReference, vatMode: row.vatMode, vatRatePercent: row.vatRatePercent },
    parties: row.parties,
    logo: company.logo,
    refund: refund ? { amountPence: refund.amountPence, toWords: refundedToWords(refund.method, card) } : null,
  });
}
