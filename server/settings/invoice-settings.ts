import { eq, max } from 'drizzle-orm';
import { DomainError } from '../../core/errors';
import {
  DEFAULT_INVOICE_PREFIX,
  DEFAULT_INVOICE_REMINDER_DAYS,
  DEFAULT_PAYMENT_TERMS_DAYS,
  DEFAULT_SALES_ACCOUNT_CODE,
  formatSortCode,
  INVOICE_MESSAGES,
  maskAccountNumber,
  type BankDetails,
} from '../../core/invoices';
import { parsePence, penceToDecimal } from '../../core/money';
import type { Db } from '../../db/client';
import { creditNotes, invoices, systemSettings } from '../../db/schema';

/**
 * Getting paid, as Settings keeps it (docs/product.md, Getting paid): the bank account invoices
 * ask to be paid into, the payment terms, the deposit rule, the invoice numbers, the overdue
 * reminders and the accountant's sales account code. One row per account, beside its other
 * settings (system_settings).
 */
export interface InvoiceSettings {
  bankDetails: BankDetails | null;
  paymentTermsDays: number;
  depositRule: { percent: number; overPence: number } | null;
  invoicePrefix: string;
  nextInvoiceNumber: number;
  nextCreditNoteNumber: number;
  invoiceReminderDays: [number, number];
  salesAccountCode: string;
  /** The base rate statutory interest adds 8% to, or null when the account does not charge it. */
  lateInterestBaseRatePercent: number | null;
}

export function getInvoiceSettings(db: Db, userId: number): InvoiceSettings {
  const row = db.select().from(systemSettings).where(eq(systemSettings.userId, userId)).get();
  return {
    bankDetails: row?.bankDetails ?? null,
    paymentTermsDays: row?.paymentTermsDays ?? DEFAULT_PAYMENT_TERMS_DAYS,
    depositRule: row?.depositRule ?? null,
    invoicePrefix: row?.invoicePrefix ?? DEFAULT_INVOICE_PREFIX,
    nextInvoiceNumber: row?.nextInvoiceNumber ?? 1,
    nextCreditNoteNumber: row?.nextCreditNoteNumber ?? 1,
    invoiceReminderDays: [row?.invoiceReminderFirstDays ?? DEFAULT_INVOICE_REMINDER_DAYS[0], row?.invoiceReminderSecondDays ?? DEFAULT_INVOICE_REMINDER_DAYS[1]],
    salesAccountCode: row?.salesAccountCode ?? DEFAULT_SALES_ACCOUNT_CODE,
    lateInterestBaseRatePercent: row?.lateInterestBaseRatePercent ?? null,
  };
}

/** The settings as GET /api/system-settings shows them: the account number masked, money as pounds text. */
export function invoiceSettingsResponse(settings: InvoiceSettings) {
  return {
    bankDetails: settings.bankDetails
      ? { accountName: settings.bankDetails.accountName, sortCode: formatSortCode(settings.bankDetails.sortCode), accountNumber: maskAccountNumber(settings.bankDetails.accountNumber) }
      : null,
    paymentTermsDays: settings.paymentTermsDays,
    depositRule: settings.depositRule ? { percent: settings.depositRule.percent, overAmount: penceToDecimal(settings.depositRule.overPence) } : null,
    invoicePrefix: settings.invoicePrefix,
    nextInvoiceNumber: settings.nextInvoiceNumber,
    invoiceReminderDays: settings.invoiceReminderDays,
    salesAccountCode: settings.salesAccountCode,
    lateInterest: settings.lateInterestBaseRatePercent === null ? null : { baseRatePercent: settings.lateInterestBaseRatePercent },
  };
}

/** The invoice fields of a settings PATCH, as their schemas give them (core/invoices.ts invoiceSettingsFields). */
export interface InvoiceSettingsPatch {
  bankDetails?: BankDetails | null | undefined;
  paymentTermsDays?: number | undefined;
  depositRule?: { percent: number; overAmount: string } | null | undefined;
  invoicePrefix?: string | undefined;
  nextInvoiceNumber?: number | undefined;
  invoiceReminderDays?: [number, number] | undefined;
  salesAccountCode?: string | undefined;
  lateInterest?: { baseRatePercent: number } | null | undefined;
}

/**
 * The columns a settings PATCH writes for its invoice fields. The next invoice number may be
 * moved on (to follow an earlier tool's numbers) but never back to one already used: 400.
 */
export function invoiceSettingsColumns(db: Db, userId: number, patch: InvoiceSettingsPatch): Partial<typeof systemSettings.$inferInsert> {
  if (patch.nextInvoiceNumber !== undefined) {
    const used = db.select({ top: max(invoices.sequence) }).from(invoices).where(eq(invoices.userId, userId)).get()?.top ?? 0;
    if (patch.nextInvoiceNumber <= used) {
      const message = INVOICE_MESSAGES.nextNumberTooLow(used + 1);
      throw new DomainError('VALIDATION_ERROR', message, { details: { nextInvoiceNumber: [message] } });
    }
  }
  return {
    ...(patch.bankDetails !== undefined && { bankDetails: patch.bankDetails }),
    ...(patch.paymentTermsDays !== undefined && { paymentTermsDays: patch.paymentTermsDays }),
    ...(patch.depositRule !== undefined && { depositRule: patch.depositRule ? { percent: patch.depositRule.percent, overPence: parsePence(patch.depositRule.overAmount)! } : null }),
    ...(patch.invoicePrefix !== undefined && { invoicePrefix: patch.invoicePrefix }),
    ...(patch.nextInvoiceNumber !== undefined && { nextInvoiceNumber: patch.nextInvoiceNumber }),
    ...(patch.invoiceReminderDays !== undefined && { invoiceReminderFirstDays: patch.invoiceReminderDays[0], invoiceReminderSecondDays: patch.invoiceReminderDays[1] }),
    ...(patch.salesAccountCode !== undefined && { salesAccountCode: patch.salesAccountCode }),
    ...(patch.lateInterest !== undefined && { lateInterestBaseRatePercent: patch.lateInterest?.baseRatePercent ?? null }),
  };
}

/**
 * Takes the account's next invoice or credit note number, inside the caller's immediate
 * transaction: the setting's next number, but never one at or below a number already used; the
 * setting moves on past it (the row is made if the account never saved a setting).
 */
export function takeSequence(tx: Db, userId: number, which: 'invoice' | 'creditNote', now: Date): number {
  const settings = getInvoiceSettings(tx, userId);
  const table = which === 'invoice' ? invoices : creditNotes;
  const used = tx.select({ top: max(table.sequence) }).from(table).where(eq(table.userId, userId)).get()?.top ?? 0;
  const sequence = Math.max(which === 'invoice' ? settings.nextInvoiceNumber : settings.nextCreditNoteNumber, used + 1);
  const column = which === 'invoice' ? { nextInvoiceNumber: sequence + 1 } : { nextCreditNoteNumber: sequence + 1 };
  tx.insert(systemSettings)
    .values({ userId, ...column, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: systemSettings.userId, set: { ...column, updatedAt: now } })
    .run();
  return sequence;
}
