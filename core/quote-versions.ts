import { z } from 'zod';
import { plainLine, plainText } from './plain-text';
import { CANCELLATION_VIAS, JOB_ITEM_KINDS } from './jobs';
import { VAT_MODES, type VatMode } from './price';

/**
 * A quote as it is sent to a customer, and their answers (docs/product.md, Jobs and quotes;
 * CONVENTIONS 14): the content of a version is frozen when it is sent and hashed, so what the
 * customer accepted can be shown to be what they were sent. Money in pence inside, pounds text
 * in the API.
 */

/** What a customer may answer: accept, decline, or ask for a change. */
export const QUOTE_ANSWER_KINDS = ['accepted', 'declined', 'changes_requested'] as const;
export type QuoteAnswerKind = (typeof QUOTE_ANSWER_KINDS)[number];

/** The customer's copy of one version, frozen when sent. */
export interface QuoteContent {
  reference: string;
  version: number;
  issuedAt: string;
  validUntil: string;
  business: { name: string; address: string; phone: string; email: string; vatNumber: string; accentColor: string | null };
  customer: { name: string; email: string | null; phone: string | null; siteAddress: string | null };
  vatMode: VatMode;
  vatRatePercent: number;
  items: { id: number; kind: (typeof JOB_ITEM_KINDS)[number]; analysisId: number | null; description: string; pricePence: number; optional: boolean }[];
  terms: string;
  /**
   * Whether the customer is taken to be a consumer, owed the 14-day cancellation notice (Consumer
   * Contracts Regulations 2013): yes unless the quote is priced for trade (VAT shown on top).
   */
  consumer: boolean;
  /**
   * The deposit asked when the customer accepts (core/card-payments.ts depositOnAcceptance): from
   * the job, else the Settings rule, as it was when sent; null for none. Absent on versions sent
   * before quotes carried it, which follow the Settings rule as it stands.
   */
  deposit?: { percent: number; overPence: number; payBy?: { card: boolean; bank: { accountName: string; sortCode: string; accountNumber: string } | null } } | null;
  /**
   * The protected trees' line for the customer (core/protection.ts customerProtectionLine), as it
   * stood when sent; absent when none, so copies without one keep their fingerprint.
   */
  protectionNotice?: string;
}

/** How long a quote link may be, read before any lookup: our tokens are 43 characters. */
export const QUOTE_TOKEN_MAX = 200;

/** The link states a customer can meet, each said plainly. */
export const QUOTE_LINK_MESSAGES = {
  unknown: 'This quote link is not valid. Please open the latest link from your e-mail, or contact the business that sent it.',
  revoked: 'This quote has been withdrawn by the business that sent it. Please contact them for a new one.',
  replaced: 'This quote has been replaced by a newer version, which was sent to you by e-mail. Please open the link in that e-mail.',
  expired: 'This quote has expired. Please ask the business that sent it for a new one.',
} as const;

export const QUOTE_ALREADY_ANSWERED = 'This quote has already been answered. Please contact the business if something has changed.';

/** POST /api/jobs/{id}/send: to the customer's e-mail on the job, or a typed address. */
export const quoteSendSchema = z.object({
  email: z
    .string()
    .trim()
    .max(254, 'E-mail address is too long')
    .refine((v) => z.email().safeParse(v).success, 'Enter a valid e-mail address')
    .optional(),
});

/** The customer's name as they type it to answer: one plain line, no control or bidi character (core/plain-text.ts). */
const nameSchema = z.string('Type your full name').overwrite(plainLine).min(2, 'Type your full name').max(100, 'Your name must be at most 100 characters');

/** POST /api/quotes/{token}/accept. */
export const quoteAcceptSchema = z.object({
  name: nameSchema,
  acceptTerms: z.literal(true, 'Please tick to accept the terms'),
  optionalItemIds: z.array(z.number().int().positive()).max(50).default([]),
  /** A consumer asks for the work to start within the 14 days they may cancel in. */
  startWithinCancellationPeriod: z.boolean().default(false),
  /** Where the quote asks a deposit: pay it now by card (the default: the answer gives where), or by bank transfer. */
  payDeposit: z.enum(['card', 'bank'], "payDeposit must be 'card' or 'bank'").default('card'),
});

/** POST /api/quotes/{token}/cancel: the consumer cancels the agreement within their 14 days (the model form's words). */
export const quoteCancelSchema = z.object({
  name: nameSchema,
  confirm: z.literal(true, 'Please tick to confirm you are cancelling'),
});

/** Why a cancellation is refused: not an accepted agreement (409), done (409), or too late (410). */
export const QUOTE_CANCEL_MESSAGES = {
  notAccepted: 'Only an accepted quote can be cancelled. If you do not want this quote, you can decline it.',
  notConsumer: 'This quote was made to a business customer, so it cannot be cancelled online. Please contact the business that sent it.',
  alreadyCancelled: 'This agreement has already been cancelled.',
  done: 'The work is complete, so this agreement can no longer be cancelled. Please contact the business that sent it.',
  periodOver: (lastDay: string) => `The 14-day cancellation period ended on ${lastDay}, so this agreement can no longer be cancelled online. Please contact the business that sent it.`,
} as const;

/** POST /api/quotes/{token}/decline. */
export const quoteDeclineSchema = z.object({
  reason: z.string().overwrite(plainText).trim().max(1000, 'At most 1000 characters').optional(),
});

/** POST /api/quotes/{token}/changes. */
export const quoteChangesSchema = z.object({
  message: z.string('Say what you would like changed').overwrite(plainText).trim().min(1, 'Say what you would like changed').max(2000, 'At most 2000 characters'),
});

const money = z.object({ net: z.string(), vat: z.string(), gross: z.string() });

/** GET /api/quotes/{token}: the customer's copy, and their answer once given. */
export const publicQuoteSchema = z.object({
  reference: z.string(),
  version: z.number().int(),
  issuedAt: z.string(),
  validUntil: z.string(),
  business: z.object({ name: z.string(), address: z.string(), phone: z.string(), email: z.string(), vatNumber: z.string(), accentColor: z.string().nullable() }),
  customer: z.object({ name: z.string(), siteAddress: z.string().nullable() }),
  vatMode: z.enum(VAT_MODES),
  items: z.array(z.object({ id: z.number().int(), kind: z.enum(JOB_ITEM_KINDS), description: z.string(), price: z.string(), optional: z.boolean() })),
  /** The included items; the optional ones are added as the customer ticks them. */
  totals: money,
  totalsWithOptional: money,
  terms: z.string(),
  consumer: z.boolean(),
  /**
   * The deposit asked on acceptance, when there is one: a percentage of the accepted total, for
   * totals over `over` (pounds). Absent when none is asked, so copies without one keep their fingerprint.
   */
  deposit: z
    .object({
      percent: z.string(),
      over: z.string(),
      /** How it may be paid, as it stood when sent (core/card-payments.ts DepositPayBy); absent on older copies. */
      payBy: z
        .object({ card: z.boolean(), bank: z.object({ accountName: z.string(), sortCode: z.string(), accountNumber: z.string() }).nullable() })
        .optional(),
    })
    .optional(),
  /**
   * Where the site's protection applies, one plain line, e.g. "The site is in a conservation area:
   * we give the council six weeks' notice before the work, so the earliest start is 12 March 2027".
   * Absent when none, so copies without one keep their fingerprint.
   */
  protectionNotice: z.string().optional(),
  answer: z
    .object({
      kind: z.enum(QUOTE_ANSWER_KINDS),
      at: z.string(),
      name: z.string().nullable(),
      optionalItemIds: z.array(z.number().int()),
      startEarly: z.boolean(),
      /** For an acceptance: the total with the optional items chosen. */
      totals: money.nullable(),
      /**
       * For an acceptance: the SHA-256 of this copy without its answer, as recorded when the
       * customer accepted (core/quote-copy.ts says how to check it).
       */
      contentHash: z.string().nullable(),
      /** For a consumer's acceptance: the last UK day ("YYYY-MM-DD") they may cancel; null otherwise. */
      cancellableUntil: z.string().nullable(),
      /** Whether the customer may cancel online now (within the 14 days, not cancelled, the work not done). */
      canCancel: z.boolean(),
      /** The agreement's cancellation, once there is one. */
      cancellation: z.object({ at: z.string(), via: z.enum(CANCELLATION_VIAS), name: z.string().nullable() }).nullable(),
      /**
       * For a consumer's acceptance: the business's ask to start inside the cancellation period
       * and the customer's request from this page (name typed), once asked; null otherwise.
       */
      earlyStart: z.object({ askedAt: z.string(), requestedAt: z.string().nullable(), name: z.string().nullable() }).nullable(),
    })
    .nullable(),
});
export type PublicQuote = z.infer<typeof publicQuoteSchema>;
export const publicQuoteResponseSchema = z.object({ quote: publicQuoteSchema });

/**
 * POST /api/quotes/{token}/accept: the copy with the acceptance and, where the quote asks a deposit
 * for the accepted total, the deposit invoice made from it and where to pay it by card (null when
 * paying by bank transfer or the business takes no card payments).
 */
export const quoteAcceptedSchema = publicQuoteResponseSchema.extend({
  deposit: z.object({ amount: z.string(), invoiceId: z.number().int(), payUrl: z.string().nullable() }).optional(),
});
export type QuoteAccepted = z.infer<typeof quoteAcceptedSchema>;
