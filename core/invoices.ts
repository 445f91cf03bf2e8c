import { z } from 'zod';
import { addDays, formatBookingDate } from './job-booking';
import { priceText, JOB_LIMITS } from './jobs';
import { parsePence } from './money';
import { plainLine, plainText } from './plain-text';
import { byNameSchema } from './team';
import { quoteSendSchema } from './quote-versions';

/**
 * Invoices as the API takes and answers them (docs/product.md, Getting paid): a deposit or final
 * invoice made from a job's accepted quote, numbered when issued and never changed after, paid by
 * bank transfer (or recorded as paid another way), corrected by credit notes. Money is pounds text
 * ("600.00") at the edges and integer pence inside (core/invoice-money.ts does the sums).
 */

export const INVOICE_KINDS = ['deposit', 'final'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** Where an invoice is: worked out from what was issued, viewed, paid and credited, and the date (invoiceStatus). */
export const INVOICE_STATUSES = ['draft', 'issued', 'viewed', 'part_paid', 'paid', 'overdue', 'credited'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_STATUS_WORDS: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  issued: 'Issued',
  viewed: 'Viewed',
  part_paid: 'Part paid',
  paid: 'Paid',
  overdue: 'Overdue',
  credited: 'Credited',
};

export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'cheque'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_WORDS: Record<PaymentMethod, string> = { bank_transfer: 'Bank transfer', card: 'Card', cash: 'Cash', cheque: 'Cheque' };

/** The kinds of line on an invoice: accepted work, work agreed on site, a deposit asked, a deposit taken off. */
export const INVOICE_LINE_KINDS = ['work', 'on_site', 'deposit', 'less_deposit'] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];

/** Payment terms: on completion (0) or 7, 14 or 30 days; 7 as the standard quote terms say. */
export const PAYMENT_TERMS_DAYS = [0, 7, 14, 30] as const;
export type PaymentTermsDays = (typeof PAYMENT_TERMS_DAYS)[number];
export const DEFAULT_PAYMENT_TERMS_DAYS: PaymentTermsDays = 7;

export const DEFAULT_INVOICE_PREFIX = 'INV-';
export const CREDIT_NOTE_PREFIX = 'CN-';
/** Days after the due date for the first and the second overdue reminder; 0 turns one off. */
export const DEFAULT_INVOICE_REMINDER_DAYS = [3, 7] as const;
/** Xero's standard "Sales" account. */
export const DEFAULT_SALES_ACCOUNT_CODE = '200';

export const INVOICE_LIMITS = { lines: 50, onSiteLines: 20, description: JOB_LIMITS.description, note: 500, reference: 100, reason: 500, prefix: 10 } as const;

export const INVOICE_NOT_FOUND = 'Invoice not found';

/** Why an invoice refuses what was asked: each sentence says what to do instead. */
export const INVOICE_MESSAGES = {
  notAccepted: 'Invoices are made from an accepted quote. Send the quote and wait for the customer to accept it first.',
  cancelled: 'This agreement was cancelled, so it cannot be invoiced.',
  finalExists: (number: string) => `This job already has a final invoice (${number}). Credit it in full before making another.`,
  finalDraftExists: 'This job already has a draft final invoice. Change or delete that one.',
  issued: 'This invoice has been issued, so it can no longer change. Correct it with a credit note, then make a new invoice.',
  notIssued: 'Issue the invoice first.',
  depositTooLarge: (max: string) => `A deposit can be at most ${max}, what is not yet invoiced of the accepted total.`,
  depositZero: 'A deposit must be more than £0.00.',
  depositAfterFinal: (number: string) => `The final invoice (${number}) is already issued, so a deposit now would invoice the work twice. Record the payment against ${number} instead.`,
  depositOnlyOnDeposit: 'A percentage or amount is only for a deposit invoice.',
  linesOnlyOnFinal: 'Lines agreed on site go on the final invoice.',
  finalBelowDeposits: 'The deposits already invoiced come to more than this invoice. Credit a deposit first.',
  overpaid: (owed: string) => `That is more than the ${owed} still owed on this invoice. Record at most what is owed.`,
  nothingOwed: 'Nothing is owed on this invoice.',
  paymentInFuture: 'A payment cannot be dated in the future.',
  paymentBeforeAcceptance: (day: string) => `A payment for this job cannot be dated before ${day}, the day its quote was accepted.`,
  paymentTooOld: (day: string) => `A payment cannot be dated more than a year back: ${day} is the earliest.`,
  paymentRemoved: 'This payment was already removed.',
  paymentRefunded: 'Part of this payment was refunded, so it stays in the record. Refund the rest instead of removing it.',
  refundRemoved: 'This payment was removed, so there is nothing to refund.',
  onlinePaymentStays: 'A card payment taken online stays in the record. To give the money back, refund it.',
  nothingToRefund: 'This payment has been refunded in full.',
  refundTooLarge: (max: string) => `At most ${max} of this payment can be refunded: what was paid and not yet refunded.`,
  creditTooLarge: (max: string) => `At most ${max} of this invoice can be credited: what is issued and not yet credited or paid. Remove or refund a payment first.`,
  nothingToCredit: 'Nothing is left to credit on this invoice.',
  noEmail: 'There is no e-mail address for this customer. Type one to send the invoice to.',
  nextNumberTooLow: (lowest: number) => `The next invoice number must be at least ${lowest}: a lower one is already used.`,
} as const;

/** "INV-" and 7 -> "INV-0007": at least four digits, more as the sequence grows. */
export const documentNumber = (prefix: string, sequence: number): string => `${prefix}${String(sequence).padStart(4, '0')}`;

/** What decides an invoice's status, in pence and UK dates ("YYYY-MM-DD"). */
export interface InvoiceState {
  issuedOn: string | null;
  dueOn: string | null;
  viewed: boolean;
  grossPence: number;
  paidPence: number;
  creditedPence: number;
}

/** What is still owed: the total less payments and credits, never below 0. */
export const owedPence = (state: Pick<InvoiceState, 'grossPence' | 'paidPence' | 'creditedPence'>): number =>
  Math.max(0, state.grossPence - state.paidPence - state.creditedPence);

/**
 * The status a surgeon and a customer read. Credited in full wins (the invoice no longer asks
 * for anything); then paid; then overdue once the due date has passed with money owed; then part
 * paid, viewed, issued.
 */
export function invoiceStatus(state: InvoiceState, today: string): InvoiceStatus {
  if (!state.issuedOn) return 'draft';
  if (state.creditedPence >= state.grossPence && state.creditedPence > 0) return 'credited';
  if (owedPence(state) === 0) return 'paid';
  if (state.dueOn && state.dueOn < today) return 'overdue';
  if (state.paidPence > 0) return 'part_paid';
  return state.viewed ? 'viewed' : 'issued';
}

/**
 * The due date: a deposit is due on the day it is issued (it is asked before the work); a final
 * invoice the payment terms' days after it is issued ("on completion": the same day).
 */
export const dueOn = (kind: InvoiceKind, issuedOn: string, termsDays: number): string => (kind === 'deposit' ? issuedOn : addDays(issuedOn, termsDays));

/**
 * The tax point (HMRC VAT time of supply): for the final invoice the day the work was done (the
 * day of issue if it is invoiced before); for a deposit the day it was paid or issued, whichever
 * came first (VATTOS5105).
 */
export function taxPoint(kind: InvoiceKind, issuedOn: string, doneOn: string | null, firstPaidOn: string | null): string {
  if (kind === 'final') return doneOn && doneOn <= issuedOn ? doneOn : issuedOn;
  return firstPaidOn && firstPaidOn < issuedOn ? firstPaidOn : issuedOn;
}

/** The payment terms as a sentence for the invoice and the standard quote terms. */
export function paymentTermsWords(days: number): string {
  return days === 0 ? 'Payment is due on completion of the work.' : `Payment is due within ${days} days of the invoice date.`;
}

// ---- Late payment by a business customer ---------------------------------------------------

/** The Late Payment of Commercial Debts (Interest) Act 1998: 8% a year over the Bank of England base rate. */
export const STATUTORY_INTEREST_OVER_BASE_PERCENT = 8;

/** Days from one UK day to a later one. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * Simple interest on `owedPence` at `ratePercent` a year for `days`, to the nearest penny (halves
 * up), without floats: the rate is taken to the hundredth of a percent.
 */
export function statutoryInterestPence(owedPence: number, ratePercent: number, days: number): number {
  if (owedPence <= 0 || days <= 0 || ratePercent <= 0) return 0;
  const hundredths = Math.round(ratePercent * 100);
  const numerator = owedPence * hundredths * days;
  const denominator = 100 * 100 * 365;
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * Statutory interest accrued from the due date to `today` on what was owed day by day: the total
 * less each payment or credit made by then (`settled`, each on its UK day). Each stretch between
 * two such days earns simple interest on what was owed through it.
 */
export function accruedInterestPence(input: { grossPence: number; dueOn: string; today: string; ratePercent: number; settled: readonly { day: string; pence: number }[] }): { days: number; pence: number } {
  const days = daysBetween(input.dueOn, input.today);
  if (days <= 0) return { days: 0, pence: 0 };
  const before = input.settled.filter((entry) => entry.day <= input.dueOn).reduce((sum, entry) => sum + entry.pence, 0);
  const later = input.settled.filter((entry) => entry.day > input.dueOn && entry.day <= input.today).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  let owed = input.grossPence - before;
  let from = input.dueOn;
  let pence = 0;
  for (const entry of later) {
    pence += statutoryInterestPence(owed, input.ratePercent, daysBetween(from, entry.day));
    owed -= entry.pence;
    from = entry.day;
  }
  pence += statutoryInterestPence(owed, input.ratePercent, daysBetween(from, input.today));
  return { days, pence };
}

// ---- Bank details -------------------------------------------------------------------------

/** A UK sort code as six digits, with or without dashes or spaces ("12-34-56"). */
export const SORT_CODE = /^\d{6}$/;
export const ACCOUNT_NUMBER = /^\d{8}$/;
const digitsOnly = (text: string) => text.replace(/[\s-]/g, '');

/** "123456" -> "12-34-56". */
export const formatSortCode = (digits: string): string => digits.replace(/^(\d{2})(\d{2})(\d{2})$/, '$1-$2-$3');
/** The account number as lists show it: its last four digits only ("****5678"). */
export const maskAccountNumber = (digits: string): string => (digits ? `****${digits.slice(-4)}` : '');

export const bankDetailsSchema = z.object({
  accountName: z
    .string('Type the name on the account')
    .overwrite(plainLine)
    .trim()
    .min(1, 'Type the name on the account')
    .max(100, 'The account name must be at most 100 characters'),
  sortCode: z
    .string('Type the 6-digit sort code')
    .transform(digitsOnly)
    .refine((v) => SORT_CODE.test(v), 'A sort code is 6 digits, like 12-34-56'),
  accountNumber: z
    .string('Type the 8-digit account number')
    .transform(digitsOnly)
    .refine((v) => ACCOUNT_NUMBER.test(v), 'An account number is 8 digits'),
});
export type BankDetails = z.output<typeof bankDetailsSchema>;

/** The deposit rule: ask `percent` of the accepted total on jobs over `overAmount` (pounds text). */
export const depositRuleSchema = z.object({
  percent: z.number('The deposit is a percentage from 1 to 100').min(1, 'The deposit is at least 1%').max(100, 'The deposit is at most 100%').multipleOf(0.01),
  overAmount: priceText,
});

/** The invoice fields of PATCH /api/system-settings. */
export const invoiceSettingsFields = {
  bankDetails: bankDetailsSchema.nullable().optional(),
  paymentTermsDays: z
    .number()
    .int()
    .refine((v) => (PAYMENT_TERMS_DAYS as readonly number[]).includes(v), 'Payment terms are 0 (on completion), 7, 14 or 30 days')
    .optional(),
  depositRule: depositRuleSchema.nullable().optional(),
  invoicePrefix: z
    .string()
    .trim()
    .min(1, 'Type a prefix, like INV-')
    .max(INVOICE_LIMITS.prefix, `The prefix is at most ${INVOICE_LIMITS.prefix} characters`)
    // Letters, digits and "-", never "-" first: the number starts every row of the accountant's
    // files, and a cell starting with "-" is one a spreadsheet runs as a formula (OWASP CSV injection).
    .regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, 'Use letters, digits and "-" in the prefix, starting with a letter or digit')
    .optional(),
  nextInvoiceNumber: z.number().int().min(1, 'The next invoice number is at least 1').max(999_999, 'The next invoice number is at most 999999').optional(),
  invoiceReminderDays: z
    .tuple([z.number().int().min(0).max(90), z.number().int().min(0).max(180)], 'Two numbers of days: the first reminder and the second')
    .optional(),
  /** Statutory interest on late payment by business customers: the base rate to add 8% to, or null for off. */
  lateInterest: z
    .object({ baseRatePercent: z.number('The base rate is a percentage').min(0, 'The base rate is 0% or more').max(25, 'The base rate is at most 25%').multipleOf(0.01) })
    .nullable()
    .optional(),
  salesAccountCode: z
    .string()
    .trim()
    .min(1, 'Type the sales account code')
    .max(20, 'The account code is at most 20 characters')
    .regex(/^[A-Za-z0-9.-]+$/, 'Use letters and digits in the account code')
    .optional(),
};

// ---- Requests ------------------------------------------------------------------------------

const description = z
  .string('Describe the work')
  .overwrite(plainText)
  .trim()
  .min(1, 'Describe the work')
  .max(INVOICE_LIMITS.description, `At most ${INVOICE_LIMITS.description} characters`);
const note = z.string().overwrite(plainText).trim().max(INVOICE_LIMITS.note, `A note is at most ${INVOICE_LIMITS.note} characters`).optional();

/** A line agreed on site: its words, its price on the quote's basis, and a note. */
export const onSiteLineSchema = z.object({ description, price: priceText, note });

const percent = z.number('The deposit is a percentage from 1 to 100').gt(0, 'The deposit is more than 0%').max(100, 'The deposit is at most 100%').multipleOf(0.01);
const amount = priceText.refine((v) => (parsePence(v) ?? 0) > 0, INVOICE_MESSAGES.depositZero);

/** POST /api/jobs/{id}/invoices. A deposit without percent or amount takes the Settings deposit rule's percentage. */
export const invoiceCreateSchema = z
  .object({
    kind: z.enum(INVOICE_KINDS, "kind must be 'deposit' or 'final'"),
    percent: percent.optional(),
    amount: amount.optional(),
    lines: z.array(onSiteLineSchema).max(INVOICE_LIMITS.onSiteLines, `At most ${INVOICE_LIMITS.onSiteLines} lines agreed on site`).optional(),
  })
  .refine((v) => !(v.percent !== undefined && v.amount !== undefined), { message: 'Send a percentage or an amount, not both', path: ['amount'] })
  .refine((v) => v.kind === 'deposit' || (v.percent === undefined && v.amount === undefined), { message: INVOICE_MESSAGES.depositOnlyOnDeposit, path: ['percent'] })
  .refine((v) => v.kind === 'final' || v.lines === undefined, { message: INVOICE_MESSAGES.linesOnlyOnFinal, path: ['lines'] });
export type InvoiceCreateInput = z.output<typeof invoiceCreateSchema>;

/** PATCH /api/invoices/{id} (a draft only): a deposit's percentage or amount, a final invoice's on-site lines (all of them). */
export const invoicePatchSchema = z
  .object({
    percent: percent.optional(),
    amount: amount.optional(),
    lines: z.array(onSiteLineSchema).max(INVOICE_LIMITS.onSiteLines, `At most ${INVOICE_LIMITS.onSiteLines} lines agreed on site`).optional(),
  })
  .refine((v) => !(v.percent !== undefined && v.amount !== undefined), { message: 'Send a percentage or an amount, not both', path: ['amount'] })
  .refine((v) => v.percent !== undefined || v.amount !== undefined || v.lines !== undefined, { message: 'Send percent, amount or lines to change' });
export type InvoicePatchInput = z.output<typeof invoicePatchSchema>;

/** The same day a year earlier ("2026-06-01" -> "2025-06-01"; 29 February -> 28 February). */
export function yearBefore(day: string): string {
  const year = String(Number(day.slice(0, 4)) - 1).padStart(4, '0');
  const monthDay = day.slice(5) === '02-29' ? '02-28' : day.slice(5);
  return `${year}-${monthDay}`;
}

/**
 * The days a payment may be dated (POST /api/invoices/{id}/payments): not before the job's quote
 * was accepted (no money is paid for work not yet agreed), or a year back when no acceptance is
 * on record, and not after today. A payment dated 1900 would move a deposit's tax point there.
 */
export function paymentDayProblem(paidOn: string, today: string, acceptedOn: string | null): string | null {
  if (paidOn > today) return INVOICE_MESSAGES.paymentInFuture;
  if (acceptedOn !== null && paidOn < acceptedOn) return INVOICE_MESSAGES.paymentBeforeAcceptance(formatBookingDate(acceptedOn, 'none'));
  const earliest = yearBefore(today);
  if (acceptedOn === null && paidOn < earliest) return INVOICE_MESSAGES.paymentTooOld(formatBookingDate(earliest, 'none'));
  return null;
}

const dateText = z
  .string('Type the date as YYYY-MM-DD')
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Type the date as YYYY-MM-DD')
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === v;
  }, 'That date does not exist');

/** POST /api/invoices/{id}/payments. */
export const paymentCreateSchema = z.object({
  amount: priceText.refine((v) => (parsePence(v) ?? 0) > 0, 'A payment is more than £0.00'),
  paidOn: dateText,
  method: z.enum(PAYMENT_METHODS, 'Choose how it was paid: bank transfer, card, cash or cheque'),
  reference: z
    .string()
    .overwrite(plainLine)
    .trim()
    .max(INVOICE_LIMITS.reference, `A reference is at most ${INVOICE_LIMITS.reference} characters`)
    .optional()
    .transform((v) => (v ? v : null)),
});
export type PaymentCreateInput = z.output<typeof paymentCreateSchema>;

const reason = z
  .string('Say why')
  .overwrite(plainText)
  .trim()
  .min(1, 'Say why')
  .max(INVOICE_LIMITS.reason, `At most ${INVOICE_LIMITS.reason} characters`);

/** DELETE /api/invoices/{id}/payments/{paymentId}: a reason, kept in the invoice's history. */
export const paymentRemoveSchema = z.object({ reason });

/** POST /api/invoices/{id}/credit-notes: the whole of what is left (no amount) or a part of it. */
export const creditNoteCreateSchema = z.object({
  amount: priceText.refine((v) => (parsePence(v) ?? 0) > 0, 'A credit is more than £0.00').optional(),
  reason,
});

// ---- Answers -------------------------------------------------------------------------------

const money = z.object({ net: z.string(), vat: z.string(), gross: z.string() });

export const invoiceLineSchema = z.object({
  id: z.number().int(),
  kind: z.enum(INVOICE_LINE_KINDS),
  description: z.string(),
  note: z.string().nullable(),
  quantity: z.number().int(),
  /** The price as the quote showed it (including VAT for a VAT-inclusive quote). */
  unitPrice: z.string(),
  net: z.string(),
  vat: z.string(),
  gross: z.string(),
});

export const paymentSchema = z.object({
  id: z.number().int(),
  amount: z.string(),
  paidOn: z.string(),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string().nullable(),
  recordedAt: z.string(),
  /** Who recorded it (core/team.ts byNameSchema: absent for a team of one; null for a card payment taken online). */
  recordedBy: byNameSchema,
  /** What of it was refunded, and what can still be. */
  refunded: z.string(),
  refundable: z.string(),
  /** Taken online by card (Stripe or the demo): a refund goes back through the card payment service. */
  online: z.boolean(),
});

/** A refund of a payment, with the credit note it made. */
export const refundSchema = z.object({
  id: z.number().int(),
  paymentId: z.number().int(),
  amount: z.string(),
  reason: z.string(),
  at: z.string(),
  /** "re_..." for a refund through Stripe ("demo_re_..." from the demo, "dp_..." for a lost dispute), null for one recorded by hand. */
  providerRefundId: z.string().nullable(),
  creditNoteNumber: z.string().nullable(),
  /** Who recorded it (byNameSchema; null for one Stripe reported). */
  recordedBy: byNameSchema,
});
export type Refund = z.infer<typeof refundSchema>;

/**
 * A card payment's dispute (a chargeback), as Stripe reported it: open until won (nothing changes)
 * or lost (recorded as a refund of the disputed amount, with its credit note).
 */
export const DISPUTE_STATUSES = ['open', 'won', 'lost'] as const;
export const disputeSchema = z.object({
  id: z.number().int(),
  paymentId: z.number().int(),
  amount: z.string(),
  /** Stripe's reason code ("fraudulent"); `reasonWords` says it. */
  reason: z.string(),
  reasonWords: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  /** Respond in the Stripe dashboard by then (ISO), while open. */
  evidenceDueBy: z.string().nullable(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
});
export type Dispute = z.infer<typeof disputeSchema>;

/** Customer e-mail kept back while the invoice's links are withdrawn, sent when it is sent again to a confirmed address. */
/** `credit_note`: a credit note's e-mail, a refund's included. */
export const HELD_MAIL_KINDS = ['receipt', 'reminder', 'credit_note'] as const;
export const heldMailSchema = z.object({ kind: z.enum(HELD_MAIL_KINDS), at: z.string() });

export const removedPaymentSchema = paymentSchema.extend({ removedAt: z.string(), reason: z.string() });

export const creditNoteSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  issuedOn: z.string(),
  reason: z.string(),
  net: z.string(),
  vat: z.string(),
  gross: z.string(),
  /** Who issued it (byNameSchema; a refund's credit note names who recorded the refund). */
  issuedBy: byNameSchema,
});

export const invoiceSchema = z.object({
  id: z.number().int(),
  jobId: z.number().int(),
  /** "INV-0001" once issued; null for a draft. */
  number: z.string().nullable(),
  kind: z.enum(INVOICE_KINDS),
  status: z.enum(INVOICE_STATUSES),
  /** The quote it invoices ("Q-12-2"), the accepted version. */
  quoteReference: z.string(),
  customer: z.object({ name: z.string(), email: z.string().nullable(), address: z.string().nullable() }),
  vatMode: z.enum(['none', 'inc', 'ex']),
  vatRatePercent: z.number(),
  /** A deposit's percentage of the accepted total, when it was asked as one. */
  depositPercent: z.number().nullable(),
  issuedOn: z.string().nullable(),
  /** Who issued it (byNameSchema). */
  issuedBy: byNameSchema,
  dueOn: z.string().nullable(),
  taxPoint: z.string().nullable(),
  lines: z.array(invoiceLineSchema),
  totals: money,
  paid: z.string(),
  credited: z.string(),
  owed: z.string(),
  payments: z.array(paymentSchema),
  removedPayments: z.array(removedPaymentSchema),
  creditNotes: z.array(creditNoteSchema),
  refunds: z.array(refundSchema),
  /** Disputes of its card payments, newest last. */
  disputes: z.array(disputeSchema),
  sentTo: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** Who last sent it (byNameSchema; null when the customer's acceptance sent a deposit invoice). */
  sentBy: byNameSchema,
  /**
   * When its links were withdrawn (ISO), until it is sent again to a confirmed address; meanwhile
   * nothing about it is e-mailed to the customer and `heldMail` lists what waits.
   */
  linksWithdrawnAt: z.string().nullable(),
  heldMail: z.array(heldMailSchema),
  /** When the overdue reminders went (at most two). */
  remindersSent: z.array(z.string()),
  /**
   * Statutory interest accrued on what is owed past the due date, for a business customer when
   * the account has it on (Late Payment of Commercial Debts (Interest) Act 1998); null otherwise.
   */
  lateInterest: z.object({ ratePercent: z.number(), days: z.number().int(), amount: z.string() }).nullable(),
  createdAt: z.string(),
  /** Who made it (byNameSchema). */
  createdBy: byNameSchema,
});
export type Invoice = z.infer<typeof invoiceSchema>;
export const invoiceResponseSchema = z.object({ invoice: invoiceSchema });
export const invoiceListSchema = z.object({ invoices: z.array(invoiceSchema) });

/**
 * Who the invoice is from and to and how to pay, frozen when it is issued (as a quote's content
 * is when sent): a later change of address, VAT number or bank account does not move an issued
 * invoice.
 */
export interface InvoiceParties {
  /**
   * `name`: the name the quote came from (a website lead's business, else the profile's), so the
   * customer's quote and invoices come from one name. `legalName`: the profile's name when it
   * differs, printed "A trading name of ..." where the law asks for the owner's name on invoices
   * (Companies Act 2006 Part 41); absent on invoices issued before it was kept.
   */
  supplier: { name: string; legalName?: string; address: string; phone: string; email: string; vatNumber: string };
  customer: { name: string; email: string | null; address: string | null };
  bank: BankDetails | null;
  paymentTermsDays: number;
}

/** Whether an invoice shows VAT: a VAT number on the supplier and a quote priced with VAT. */
export const chargesVat = (invoice: Pick<Invoice, 'vatMode'>, parties: { supplier: Pick<InvoiceParties['supplier'], 'vatNumber'> }): boolean =>
  invoice.vatMode !== 'none' && parties.supplier.vatNumber.trim() !== '';

/**
 * An invoice document's title, the one wording for its PDF, its e-mails' subjects, the customer's
 * page and a card payment's description: "VAT invoice" (HMRC VAT Notice 700/21 keeps "VAT" in
 * capitals), "Invoice" for a business that charges none, and "Deposit VAT invoice" or "Deposit
 * invoice" for a deposit.
 */
export function invoiceTitle(invoice: Pick<Invoice, 'kind' | 'vatMode'>, parties: { supplier: Pick<InvoiceParties['supplier'], 'vatNumber'> }): string {
  const base = chargesVat(invoice, parties) ? 'VAT invoice' : 'invoice';
  return invoice.kind === 'deposit' ? `Deposit ${base}` : base.charAt(0).toUpperCase() + base.slice(1);
}

/** A title inside a sentence: "towards deposit VAT invoice INV-0001", "towards VAT invoice INV-0001" (an initialism keeps its capitals). */
export const titleInSentence = (title: string): string => title.replace(/^[A-Z](?![A-Z])/, (first) => first.toLowerCase());

/** The invoice link states a customer can meet, each said plainly. */
export const INVOICE_LINK_MESSAGES = {
  unknown: 'This invoice link is not valid. Please open the latest link from your e-mail, or contact the business that sent it.',
  revoked: 'This invoice link has been withdrawn by the business that sent it. Please contact them about it.',
  /** To the surgeon: sending after a withdrawal needs the address typed, not the one the links went to. */
  confirmAddress: 'The links sent before were withdrawn: type the address to send the invoice to. What waited (receipts, reminders) goes there too.',
} as const;

/** POST /api/invoices/{id}/send: to the customer's e-mail on the invoice, or a typed address (as a quote's send). */
export const invoiceSendSchema = quoteSendSchema;

/** GET /api/invoice-links/{token}: the customer's copy, with how to pay (the bank details in full: they are for paying). */
export const publicInvoiceSchema = z.object({
  number: z.string(),
  title: z.string(),
  kind: z.enum(INVOICE_KINDS),
  status: z.enum(INVOICE_STATUSES),
  quoteReference: z.string(),
  /** `legalName`: the owner's name behind a trading name, when they differ (InvoiceParties). */
  business: z.object({ name: z.string(), legalName: z.string().optional(), address: z.string(), phone: z.string(), email: z.string(), vatNumber: z.string() }),
  customer: z.object({ name: z.string(), address: z.string().nullable() }),
  /** Whether VAT is shown: a VAT-registered business's quote priced with VAT. */
  chargesVat: z.boolean(),
  vatRatePercent: z.number(),
  issuedOn: z.string(),
  dueOn: z.string(),
  taxPoint: z.string(),
  lines: z.array(z.object({ description: z.string(), note: z.string().nullable(), quantity: z.number().int(), net: z.string(), vat: z.string(), gross: z.string() })),
  totals: money,
  /**
   * The sums as they read down the page (docs/product.md, Getting paid): the money received (every
   * payment not removed, as it came in), what of it went back, what was credited (a refund's own
   * credit note among them), and what is owed: totals.gross - credited - (paid - refunded) = owed.
   */
  paid: z.string(),
  refunded: z.string(),
  credited: z.string(),
  owed: z.string(),
  payments: z.array(z.object({ amount: z.string(), paidOn: z.string() })),
  /** Money given back, each on its UK day, with the credit note it came with. */
  refunds: z.array(z.object({ amount: z.string(), refundedOn: z.string(), creditNoteNumber: z.string().nullable() })),
  /** Each credit note: its number, day, reason and total credited; its PDF under the invoice's link (credit-notes/{id}/credit-note.pdf). */
  creditNotes: z.array(z.object({ id: z.number().int(), number: z.string(), issuedOn: z.string(), reason: z.string(), gross: z.string() })),
  /** How to pay by bank transfer, with the invoice number as the reference; null when no bank details are set. */
  bankTransfer: z.object({ accountName: z.string(), sortCode: z.string(), accountNumber: z.string(), reference: z.string() }).nullable(),
  /** Whether "Pay by card" is offered: something is owed and the business takes card payments (docs/product.md, Card payments). */
  payByCard: z.boolean(),
  /** Statutory interest accrued (a business customer, the account has it on), or null. */
  lateInterest: z.object({ ratePercent: z.number(), days: z.number().int(), amount: z.string() }).nullable(),
});
export type PublicInvoice = z.infer<typeof publicInvoiceSchema>;
export const publicInvoiceResponseSchema = z.object({ invoice: publicInvoiceSchema });

/**
 * Where a job's money is (the Jobs list and the job page): nothing invoiced yet, a deposit asked
 * and not yet paid, a deposit paid, the final invoice out, part paid, overdue, or paid.
 */
export const JOB_MONEY_STATES = ['not_invoiced', 'deposit_due', 'deposit_paid', 'invoiced', 'part_paid', 'overdue', 'paid'] as const;
export type JobMoneyState = (typeof JOB_MONEY_STATES)[number];
export const JOB_MONEY_WORDS: Record<JobMoneyState, string> = {
  not_invoiced: 'Not invoiced',
  deposit_due: 'Deposit due',
  deposit_paid: 'Deposit paid',
  invoiced: 'Invoiced',
  part_paid: 'Part paid',
  overdue: 'Overdue',
  paid: 'Paid',
};

/** GET /api/invoices/jobs: each accepted, booked or done job's money state. */
export const jobMoneySchema = z.object({
  jobId: z.number().int(),
  state: z.enum(JOB_MONEY_STATES),
  /** What is owed on the job's issued invoices now. */
  owed: z.string(),
  /**
   * The Settings deposit rule asks a deposit of this job (its accepted total is over the rule's
   * amount) and none is paid yet: the job says "Waiting for deposit" and booking asks to confirm.
   */
  waitingForDeposit: z.boolean(),
});
export type JobMoney = z.infer<typeof jobMoneySchema>;
export const jobMoneyListSchema = z.object({ jobs: z.array(jobMoneySchema) });
