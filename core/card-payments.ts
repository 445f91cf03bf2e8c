import { z } from 'zod';
import { addDays } from './job-booking';
import { depositFromPercent } from './invoice-money';
import { formatGbp, parsePence, penceToDecimal } from './money';
import { plainText } from './plain-text';

/**
 * Card payments (docs/product.md, Card payments; docs/payments.md, Customers' card payments): a
 * business's customers pay its invoices and deposits by card, through one of three providers
 * chosen once at start: the demo (a test page on this server, no money moves), the install's own
 * Stripe account (an install run by one firm), or Stripe Connect (each business connects its own
 * account; direct charges, so the charge, its fees, refunds and disputes are the business's).
 * The rules here are pure and shared by the server, the dashboard and the customer's pages.
 */

export const CARD_PROVIDERS = ['demo', 'own', 'connect'] as const;
export type CardProviderKind = (typeof CARD_PROVIDERS)[number];

/** What the Settings page calls each provider. */
export const CARD_PROVIDER_WORDS: Record<CardProviderKind, string> = {
  demo: 'Demo card payments (no money moves)',
  own: "This install's Stripe account",
  connect: 'Your own Stripe account (Stripe Connect)',
};

/** The most an install may take of each card payment: a platform fee above this is not a fee. */
export const APPLICATION_FEE_MAX_PERCENT = 20;

/** How long after the business hears of a consumer's cancellation a refund is due (CCR 2013 reg. 34). */
export const CANCELLATION_REFUND_DAYS = 14;

/**
 * The install's application fee on a payment of `amountPence`, for a percentage with at most two
 * decimals: rounded down to the penny, so the business never pays more than the stated share.
 */
export function applicationFeePence(amountPence: number, percent: number): number {
  const hundredths = Math.round(percent * 100);
  if (hundredths <= 0 || amountPence <= 0) return 0;
  return Math.floor((amountPence * hundredths) / 10_000);
}

/** A deposit the quote asks on acceptance: a percentage of the accepted total, on totals over `overPence`. */
export interface DepositAsk {
  percent: number;
  overPence: number;
}

/**
 * The deposit a quote asks when the customer accepts for `acceptedGrossPence` (the total with
 * the optional items they chose), in pence; null when it asks none. The same sum the deposit
 * invoice makes (core/invoice-money.ts depositFromPercent).
 */
export function depositOnAcceptance(ask: DepositAsk | null | undefined, acceptedGrossPence: number): number | null {
  if (!ask || ask.percent <= 0 || acceptedGrossPence <= ask.overPence) return null;
  const pence = depositFromPercent(acceptedGrossPence, ask.percent);
  return pence > 0 ? pence : null;
}

/**
 * What a job asks when sent: its own percentage when one was set on it (0: none), else the
 * Settings deposit rule.
 */
export function depositAskOf(jobPercent: number | null, rule: DepositAsk | null): DepositAsk | null {
  if (jobPercent !== null) return jobPercent > 0 ? { percent: jobPercent, overPence: 0 } : null;
  return rule && rule.percent > 0 ? rule : null;
}

/**
 * How a quote's deposit may be paid, as it stood when the quote was sent: by card where the
 * business took card payments then, by bank transfer to its account where it had one (the sort
 * code as it prints, 12-34-56). Absent on copies sent before quotes carried it.
 */
export interface DepositPayBy {
  card: boolean;
  bank: { accountName: string; sortCode: string; accountNumber: string } | null;
}

/** The deposit ask as the customer's copy carries it: text, so the copy's canonical JSON holds no fractions. */
export const depositAskText = (ask: DepositAsk & { payBy?: DepositPayBy }): { percent: string; over: string; payBy?: DepositPayBy } => ({
  percent: String(ask.percent),
  over: penceToDecimal(ask.overPence),
  ...(ask.payBy ? { payBy: ask.payBy } : {}),
});

/** How to pay the deposit, as one sentence; the reference is the deposit invoice's number, which accepting makes. */
function depositHowToPay(payBy: DepositPayBy | undefined, business: string): string {
  const bank = payBy?.bank
    ? `by bank transfer to ${payBy.bank.accountName}, sort code ${payBy.bank.sortCode}, account number ${payBy.bank.accountNumber}, with the deposit invoice's number as the reference`
    : null;
  if (payBy?.card && bank) return `Pay it by card from your quote page, or ${bank}.`;
  if (payBy?.card) return 'Pay it by card from your quote page.';
  if (bank) return `Pay it ${bank}.`;
  return `The deposit invoice from ${business} says how to pay it.`;
}

/**
 * The deposit as the customer keeps it (docs/product.md, Card payments: a deposit on acceptance),
 * the same words on the quote's PDF as sent and as accepted and in the quote and acceptance
 * e-mails: how much, when it is due, and how to pay it. `grossPence`: the total it is worked out
 * on (the included items when offered, the accepted total once accepted); `withOptionalPence`:
 * an offered quote's total with every optional item, which may cross the threshold. [] when the
 * quote asks none.
 */
export function depositWords(
  ask: (DepositAsk & { payBy?: DepositPayBy }) | null | undefined,
  totals: { grossPence: number; withOptionalPence?: number },
  state: 'offered' | 'accepted',
  business: string,
): string[] {
  if (!ask) return [];
  const amount = depositOnAcceptance(ask, totals.grossPence);
  const percent = `${ask.percent}%`;
  const over = ask.overPence > 0 ? ` on totals over ${formatGbp(ask.overPence)}` : '';
  let what: string;
  if (state === 'accepted') {
    if (amount === null) return [];
    what = `Deposit: ${formatGbp(amount)} (${percent} of the accepted total), due now that you have accepted. The work is booked once it is paid, and it is taken off the final invoice.`;
  } else if (amount !== null) {
    const optional = totals.withOptionalPence !== undefined && totals.withOptionalPence > totals.grossPence ? ', more if you add optional items' : '';
    what = `Deposit: ${percent} of the accepted total${over}, ${formatGbp(amount)} for the work as quoted${optional}. It is due when you accept, the work is booked once it is paid, and it is taken off the final invoice.`;
  } else if (totals.withOptionalPence !== undefined && depositOnAcceptance(ask, totals.withOptionalPence) !== null) {
    what = `Deposit: ${percent} of the accepted total${over}, if the optional items you add take it over that. It is due when you accept, and taken off the final invoice.`;
  } else {
    return [];
  }
  return [what, depositHowToPay(ask.payBy, business)];
}

/** The last UK day a refund is due after a cancellation on `cancelledOn` ("YYYY-MM-DD"). */
export const refundDueBy = (cancelledOn: string): string => addDays(cancelledOn, CANCELLATION_REFUND_DAYS);

/**
 * Whether a paid Checkout is the payment that was asked: the same amount and currency as the
 * checkout the server started, for the invoice it was started for.
 */
export function paymentMatches(asked: { amountPence: number; invoiceId: number }, paid: { amountPence: number; currency: string; invoiceId: string | undefined }): boolean {
  return paid.currency.toLowerCase() === 'gbp' && paid.amountPence === asked.amountPence && paid.invoiceId === String(asked.invoiceId);
}

/** Why a card payment could not be taken as it came; each is kept and shown as needing a refund. */
export const CARD_PROBLEM_REASONS = ['wrong_amount', 'already_settled', 'more_than_owed', 'wrong_account', 'unknown_payment'] as const;
export type CardProblemReason = (typeof CARD_PROBLEM_REASONS)[number];

export const CARD_PROBLEM_WORDS: Record<CardProblemReason, string> = {
  wrong_amount: 'The amount paid is not the amount asked',
  already_settled: 'The invoice was already paid or credited',
  more_than_owed: 'More was paid than is now owed on the invoice',
  wrong_account: 'The payment was taken on an account that is not this business’s',
  unknown_payment: 'The payment is for no invoice this install knows',
};

/** Stripe's dispute reasons in words (docs.stripe.com/api/disputes/object#dispute_object-reason). */
const DISPUTE_REASON_WORDS: Record<string, string> = {
  bank_cannot_process: 'the bank cannot process the payment',
  credit_not_processed: 'the customer says a refund or credit was promised and not given',
  customer_initiated: 'the customer asked their bank to reverse it',
  debit_not_authorized: 'the customer says they did not authorise the payment',
  duplicate: 'the customer says they were charged twice',
  fraudulent: 'the cardholder says they did not make the payment',
  general: 'no specific reason given',
  incorrect_account_details: 'the account details were wrong',
  insufficient_funds: 'there were not enough funds',
  noncompliant: 'the card network says the payment broke its rules',
  product_not_received: 'the customer says the work was not done',
  product_unacceptable: 'the customer says the work was not as agreed',
  subscription_canceled: 'the customer says they had cancelled',
  unrecognized: 'the customer does not recognise the payment',
};

/** A dispute's reason as a phrase; an unknown one as Stripe names it. */
export const disputeReasonWords = (reason: string): string => DISPUTE_REASON_WORDS[reason] ?? reason.replace(/_/g, ' ');

/** Why card payments refuse what was asked: each sentence says what to do instead. */
export const CARD_MESSAGES = {
  notConfigured: 'Card payments are not set up on this install.',
  notConnected: 'Connect your Stripe account in Settings → Getting paid to take card payments.',
  /** CARD_PAYMENTS=own: the install's own Stripe account takes the admin account's payments only. */
  ownAccountOnly: "Card payments on this install go into its owner's own Stripe account, so they are off for this business: its customers pay by bank transfer.",
  noOnboarding: 'Nothing to set up: card payments on this install go through its own account.',
  refundFailed: (why: string) => `Stripe did not make the refund: ${why}. Nothing was recorded; try again, or refund it in your Stripe dashboard: it is recorded here when Stripe confirms it.`,
  providerDown: 'The card payment service did not answer. Please try again in a minute.',
  demoUnknown: 'This demo payment was not found. Please start again from the invoice.',
  problemResolved: 'This payment was already marked as dealt with.',
} as const;

const reason = z.string('Say why').overwrite(plainText).trim().min(1, 'Say why').max(500, 'At most 500 characters');

/** POST /api/invoices/{id}/payments/{paymentId}/refund: all of what is left (no amount) or a part. */
export const refundCreateSchema = z.object({
  amount: z
    .string()
    .trim()
    .refine((v) => parsePence(v) !== undefined, 'Give the amount in pounds, e.g. 120.00')
    .refine((v) => (parsePence(v) ?? 0) > 0, 'A refund is more than £0.00')
    .optional(),
  reason,
});
export type RefundCreateInput = z.output<typeof refundCreateSchema>;

/** POST /api/card-payment-problems/{id}/resolve: what was done about it. */
export const problemResolveSchema = z.object({ note: reason });

/** GET /api/payments-setup. */
export const paymentsSetupSchema = z.object({
  provider: z.enum(CARD_PROVIDERS),
  connected: z.boolean(),
  chargesEnabled: z.boolean(),
  detailsSubmitted: z.boolean(),
  /** What Stripe still needs before the account can take payments (its requirements.currently_due). */
  requirements: z.array(z.string()),
  /** The install's share of each card payment, as a percentage ("0", "1.5"): the business sees it, its customers never do. */
  applicationFeePercent: z.string(),
  /** The connected account's id, for the business to find it in Stripe; null until connected or for demo and own. */
  accountId: z.string().nullable(),
});
export type PaymentsSetup = z.infer<typeof paymentsSetupSchema>;

export const cardProblemSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  invoiceId: z.number().int().nullable(),
  invoiceNumber: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  reason: z.enum(CARD_PROBLEM_REASONS),
  words: z.string(),
  paymentIntentId: z.string().nullable(),
  account: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolvedNote: z.string().nullable(),
});
export type CardProblem = z.infer<typeof cardProblemSchema>;
export const cardProblemListSchema = z.object({ problems: z.array(cardProblemSchema) });


/** GET /api/refunds-due: a cancelled job with money still kept, what and by which UK day it is due back. */
export const refundDueSchema = z.object({
  jobId: z.number().int(),
  customerName: z.string(),
  /** What is still kept of the job's payments, pounds as text. */
  amount: z.string(),
  /** The UK day the business was told of the cancellation, and the last day to refund. */
  cancelledOn: z.string(),
  refundBy: z.string(),
  withinPeriod: z.boolean(),
});
export type RefundDue = z.infer<typeof refundDueSchema>;
export const refundsDueListSchema = z.object({ refunds: z.array(refundDueSchema) });
export type RefundsDueList = z.infer<typeof refundsDueListSchema>;

/** The words of a refund due after a cancellation: "£120.00 to refund by 12 December 2026". */
export const refundDueWords = (pence: number, byWords: string): string => `${formatGbp(pence)} to refund by ${byWords}`;
