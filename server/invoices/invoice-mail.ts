import { formatSortCode, invoiceTitle } from '../../core/invoices';
import { eq } from 'drizzle-orm';
import { quoteVersions } from '../../db/schema';
import type { AppDeps } from '../deps';
import { fromBusiness } from '../jobs/quote-flow';
import { describeError } from '../log';
import { queueMail } from '../mail/outbox';
import type { InvoiceMailFacts } from '../mail/invoice-emails';
import type { MailMessage } from '../mail/mailer';
import { formatDay } from './invoice-pdf';
import { invoicePdfFilename, invoicePdfOf } from './invoice-view';
import { findOwnInvoice, type InvoiceRow } from './invoices';
import { settledOf } from './payments';

/**
 * What the customer's e-mails about an issued invoice are made of (the invoice's own, receipts,
 * reminders: invoice-flow.ts; credit notes and refunds: credit-note-flow.ts): the facts they state,
 * how to pay, the link, and the outbox row with the invoice's PDF attached.
 */
export type FlowDeps = Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'config' | 'logger' | 'photos'>;

/** The customer's page for an invoice link. */
export function invoiceLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/invoice/${token}`;
}

/**
 * How to pay, as a sentence naming every way the invoice's page takes money: the bank details with
 * the invoice number as the reference, and by card on the page when the business takes card
 * payments (`takesCards`: card-payments/checkout.ts cardPaymentsOpen, which this layer cannot
 * ask); else whom to ask.
 */
export function howToPay(row: InvoiceRow, takesCards = false): string {
  const parties = row.parties!;
  if (parties.bank) {
    const bank = `by bank transfer to ${parties.bank.accountName}, sort code ${formatSortCode(parties.bank.sortCode)}, account number ${parties.bank.accountNumber}, with the reference ${row.number}`;
    return takesCards ? `Please pay by card on the invoice's page (the link below), or ${bank}.` : `Please pay ${bank}.`;
  }
  if (takesCards) return "Please pay by card on the invoice's page (the link below).";
  const contact = [parties.supplier.phone, parties.supplier.email].filter(Boolean).join(' or ');
  return `Please contact ${parties.supplier.name}${contact ? ` (${contact})` : ''} to pay, quoting ${row.number}.`;
}

/** What the e-mails say of an issued invoice, as it stands now. */
export function mailFacts(deps: Pick<AppDeps, 'db' | 'config'>, row: InvoiceRow, to: string, token: string, takesCards = false): InvoiceMailFacts {
  const parties = row.parties!;
  return {
    to,
    customerName: parties.customer.name,
    businessName: parties.supplier.name,
    title: invoiceTitle(row, parties),
    number: row.number!,
    quoteReference: quoteReferenceOf(deps.db, row),
    grossPence: row.grossPence,
    owedPence: settledOf(deps.db, row).owedPence,
    dueWords: row.dueOn ? formatDay(row.dueOn) : '',
    link: invoiceLink(deps.config.publicUrl, token),
    howToPay: howToPay(row, takesCards),
  };
}

/** Writes `message` to the outbox as the business (in the caller's transaction, if any), with the invoice's PDF as it is just after. */
export function sendWithInvoicePdf(deps: FlowDeps, row: InvoiceRow, message: MailMessage, label: string): void {
  const parties = row.parties!;
  const asBusiness = fromBusiness(deps, row.userId, { name: parties.supplier.name, email: parties.supplier.email }, message);
  queueMail(deps, asBusiness, {
    label,
    userId: row.userId,
    attach: async () => {
      try {
        const current = findOwnInvoice(deps.db, row.userId, row.id);
        return [{ filename: invoicePdfFilename(current), content: await invoicePdfOf(deps, current), contentType: 'application/pdf' }];
      } catch (err) {
        deps.logger.error({ mail: label, error: describeError(err) }, 'invoice PDF not made: the e-mail goes without it');
        return [];
      }
    },
  });
}

/** The quote an invoice is for ("Q-000012-1"), as its accepted version was sent. */
function quoteReferenceOf(db: AppDeps['db'], row: InvoiceRow): string {
  return db.select({ content: quoteVersions.content }).from(quoteVersions).where(eq(quoteVersions.id, row.versionId)).get()?.content.reference ?? '';
}
