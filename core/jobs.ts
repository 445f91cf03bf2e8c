import { z } from 'zod';
import { plainLine, plainText } from './plain-text';
import { LEAD_LIMITS } from './embed';
import { parsePence } from './money';
import { jobPriceSchema } from './pricing';
import { VAT_MODES } from './price';
import { QUOTE_SITE_ADDRESS_MAX } from './quote';
import { QUOTE_CHANGE_KINDS } from './quote-changes';
import { byNameSchema } from './team';
import { jobFinishSchema, jobPhotoSchema, siteNotesResponseSchema, treeActualsSchema, workSummarySchema } from './crew-day';

/**
 * Jobs as the API takes and answers them (docs/product.md, Jobs and quotes): a job groups an
 * account's analyses (trees) and typed lines into one quote with prices the surgeon sets. Money
 * is pounds text ("600.00") like the rest of the API, integer pence inside.
 */

/** Where a job is on its way from a quote to a booked, done job. */
export const JOB_STATUSES = ['draft', 'sent', 'viewed', 'accepted', 'declined', 'changes_requested', 'expired', 'booked', 'done', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * Once the customer has accepted, the quote is a record: its items, prices and words no longer
 * change and it is not sent again. A cancelled agreement stays as it was when cancelled.
 */
export const LOCKED_STATUSES: ReadonlySet<JobStatus> = new Set(['accepted', 'booked', 'done', 'cancelled']);
export const JOB_LOCKED_MESSAGE = 'This quote has been accepted, so its items and prices can no longer change.';
/** A sent quote waiting for the customer's answer: their link opens a version they can still accept. */
/** A job in these is no longer to be done: nothing waits on it (protected trees' lookups and holds). */
export const ENDED_STATUSES = ['done', 'cancelled', 'declined'] as const satisfies readonly JobStatus[];

export const AWAITING_ANSWER_STATUSES = ['sent', 'viewed', 'changes_requested'] as const satisfies readonly JobStatus[];

export const JOB_CANCELLED_MESSAGE = 'This agreement has been cancelled, so its quote can no longer change. Make a new job to quote again.';

/** Why a locked job refuses a change (409). */
export const lockedMessage = (status: JobStatus): string => (status === 'cancelled' ? JOB_CANCELLED_MESSAGE : JOB_LOCKED_MESSAGE);

/** How a cancellation reached the business: online from the customer's page, or told to the surgeon. */
export const CANCELLATION_VIAS = ['online', 'email', 'letter', 'phone', 'in_person'] as const;
export type CancellationVia = (typeof CANCELLATION_VIAS)[number];
/** What the surgeon can record (the customer's own page records 'online'). */
export const RECORDED_CANCELLATION_VIAS = ['email', 'letter', 'phone', 'in_person'] as const;

export const JOB_ITEM_KINDS = ['tree', 'line'] as const;
export type JobItemKind = (typeof JOB_ITEM_KINDS)[number];

/** Sizes that keep one job readable on a phone and bound the work a request can ask for. */
export const JOB_LIMITS = { items: 50, description: 500, priceMaxPence: 100_000_000 } as const;

export const JOB_NOT_FOUND = 'Job not found';

/** "600", "600.5" or "600.50": pounds and at most 2 decimals, from 0 to £1,000,000. */
export const priceText = z
  .string()
  .trim()
  .refine((v) => {
    const pence = parsePence(v);
    return pence !== undefined && pence >= 0 && pence <= JOB_LIMITS.priceMaxPence;
  }, 'Price must be an amount in pounds from 0 to 1000000, with at most 2 decimals');

/** Optional text about the customer: control and bidi characters dropped, lines kept (core/plain-text.ts). */
const optionalText = (max: number, message: string) =>
  z
    .string()
    .overwrite(plainText)
    .trim()
    .max(max, message)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null));

export const jobCustomerSchema = z.object({
  name: z.string('Customer name is required').overwrite(plainLine).min(1, 'Customer name is required').max(LEAD_LIMITS.name, `Customer name must be at most ${LEAD_LIMITS.name} characters`),
  email: optionalText(LEAD_LIMITS.email, 'E-mail address is too long').refine((v) => v === null || z.email().safeParse(v).success, 'Enter a valid e-mail address'),
  phone: optionalText(LEAD_LIMITS.phone, `Phone must be at most ${LEAD_LIMITS.phone} characters`),
  siteAddress: optionalText(QUOTE_SITE_ADDRESS_MAX, `Site address must be at most ${QUOTE_SITE_ADDRESS_MAX} characters`),
});
export type JobCustomer = z.output<typeof jobCustomerSchema>;

const idList = z.array(z.number().int().positive(), 'analysisIds must be a list of analysis ids').max(JOB_LIMITS.items, `A job holds at most ${JOB_LIMITS.items} items`);

/**
 * POST /api/jobs: from a lead (its tree and the customer's details), from History (ticked
 * analyses), or empty (a customer and lines added after). A lead's details fill in what
 * `customer` leaves out.
 */
export const jobCreateSchema = z
  .object({
    analysisIds: idList.default([]),
    leadId: z.number().int().positive().optional(),
    customer: jobCustomerSchema.optional(),
  })
  .refine((v) => v.customer !== undefined || v.leadId !== undefined, { message: 'Customer name is required', path: ['customer', 'name'] });
export type JobCreateInput = z.input<typeof jobCreateSchema>;

/** POST /api/jobs/{id}/trees: more of the account's analyses as trees of the job. */
export const jobTreesSchema = z.object({
  analysisIds: idList.min(1, 'Choose at least one analysis'),
});

/** POST /api/jobs/{id}/lines: work the photo cannot price (a hedge, a stump alone). */
export const jobLineSchema = z.object({
  description: z.string('Describe the work').overwrite(plainText).trim().min(1, 'Describe the work').max(JOB_LIMITS.description, `At most ${JOB_LIMITS.description} characters`),
  price: priceText,
  optional: z.boolean().default(false),
});

/** PATCH /api/jobs/{id}: the customer, and each item's price, words and whether it is optional. */
export const jobUpdateSchema = z.object({
  customer: jobCustomerSchema.optional(),
  items: z
    .array(
      z.object({
        id: z.number().int().positive(),
        price: priceText.optional(),
        description: z.string().overwrite(plainText).trim().min(1, 'Describe the work').max(JOB_LIMITS.description, `At most ${JOB_LIMITS.description} characters`).optional(),
        optional: z.boolean().optional(),
      }),
    )
    .max(JOB_LIMITS.items)
    .optional(),
  removeItemIds: z.array(z.number().int().positive()).max(JOB_LIMITS.items).optional(),
  /** Rounds every item's price to the account's rule (Pricing: the nearest £1, £5 or £10). */
  roundPrices: z.boolean().optional(),
  /**
   * The deposit this job's quote asks on acceptance, a percentage of the accepted total (0: none);
   * null follows the Settings deposit rule. Goes into the copy when the quote is sent.
   */
  depositPercent: z
    .number('The deposit is a percentage from 0 to 100')
    .min(0, 'The deposit is 0% (none) or more')
    .max(100, 'The deposit is at most 100%')
    .multipleOf(0.01, 'At most two decimals')
    .nullable()
    .optional(),
});

const moneyText = z.string();

export const jobItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(JOB_ITEM_KINDS),
  /** The tree's analysis; null for a typed line (or a tree whose analysis was deleted). */
  analysisId: z.number().int().nullable(),
  description: z.string(),
  /** The surgeon's price, as the customer reads it (including VAT when the quote shows it so). */
  price: moneyText,
  optional: z.boolean(),
  /** A tree's estimate, beside the price for the surgeon to compare; null for a line. */
  estimate: z
    .object({
      species: z.string().nullable(),
      imageUrl: z.string().nullable(),
      price: jobPriceSchema.nullable(),
    })
    .nullable(),
});

const totalsSchema = z.object({ net: moneyText, vat: moneyText, gross: moneyText });

export const jobSchema = z.object({
  id: z.number().int(),
  /** The quote's number, e.g. Q-000012. */
  reference: z.string(),
  status: z.enum(JOB_STATUSES),
  customer: z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable(), siteAddress: z.string().nullable() }),
  businessId: z.number().int().nullable(),
  leadId: z.number().int().nullable(),
  /** How VAT is shown and charged on this quote (taken from the pricing rules when it was made). */
  vatMode: z.enum(VAT_MODES),
  items: z.array(jobItemSchema),
  /** The included items plus the optional ones the customer chose (none before acceptance). */
  totals: totalsSchema,
  /** The same with every optional item, for the surgeon's "up to" figure. */
  totalsWithOptional: totalsSchema,
  /** The versions sent, newest first, with the customer's answers. */
  versions: z.array(
    z.object({
      version: z.number().int(),
      sentTo: z.string(),
      sentAt: z.string(),
      expiresAt: z.string(),
      viewedAt: z.string().nullable(),
      revokedAt: z.string().nullable(),
      replacedAt: z.string().nullable(),
      /** SHA-256 of the content as sent. */
      contentHash: z.string(),
      /** Who sent it (byNameSchema). */
      sentBy: byNameSchema,
      answers: z.array(z.object({ kind: z.enum(['accepted', 'declined', 'changes_requested']), at: z.string(), name: z.string().nullable(), message: z.string().nullable() })),
    }),
  ),
  /**
   * The evidence of the customer's acceptance, when there is one. `contentHash` is the SHA-256
   * of the customer's copy as they were shown it (core/quote-copy.ts); `cancellableUntil` the
   * last UK day a consumer may cancel (null for a trade quote).
   */
  acceptance: z
    .object({
      version: z.number().int(),
      name: z.string(),
      at: z.string(),
      optionalItemIds: z.array(z.number().int()),
      startEarly: z.boolean(),
      contentHash: z.string(),
      address: z.string(),
      userAgent: z.string().nullable(),
      cancellableUntil: z.string().nullable(),
    })
    .nullable(),
  /**
   * The deposit: the job's own percentage (null: the Settings rule), and what the quote asks on
   * acceptance, as sent (the latest version's copy) or, before sending, as it would be sent: a
   * percentage of the accepted total for totals over `over` (pounds); null for none.
   */
  deposit: z.object({ percent: z.number().nullable(), asked: z.object({ percent: z.number(), over: z.string() }).nullable() }),
  /** The agreement's cancellation, when there is one: online by the customer, or recorded by the surgeon. */
  cancellation: z
    .object({
      at: z.string(),
      /** The UK day the business was told. */
      receivedOn: z.string(),
      via: z.enum(CANCELLATION_VIAS),
      name: z.string().nullable(),
      note: z.string().nullable(),
      /** Whether it came within the customer's 14 days (the refund duty then applies). */
      withinPeriod: z.boolean(),
      contentHash: z.string(),
      address: z.string().nullable(),
      userAgent: z.string().nullable(),
    })
    .nullable(),
  /**
   * While a sent quote waits for its answer: what the job says now that the version the customer
   * can accept does not (core/quote-changes.ts); null when nothing changed or nothing is open.
   */
  changedSinceSent: z
    .object({
      version: z.number().int(),
      changes: z.array(z.object({ kind: z.enum(QUOTE_CHANGE_KINDS), item: z.string().nullable(), before: z.string().nullable(), after: z.string().nullable(), words: z.string() })),
    })
    .nullable(),
  /**
   * A consumer's 14-day cancellation period after acceptance (core/cancellation-period.ts): its
   * last UK day, the first day work may be booked without their request, and when the customer
   * asked for an early start (at acceptance or from their page) or the surgeon last asked them.
   * Null for a trade quote, before acceptance and once cancelled.
   */
  cancellationPeriod: z
    .object({
      lastDay: z.string(),
      firstDay: z.string(),
      earlyStartRequestedAt: z.string().nullable(),
      earlyStartAskedAt: z.string().nullable(),
    })
    .nullable(),
  /** When the work is booked, UK wall clock (core/job-booking.ts); null until booked. */
  booking: z
    .object({
      date: z.string(),
      startTime: z.string(),
      days: z.number().int(),
      siteVisit: z.object({ date: z.string(), time: z.string() }).nullable(),
      note: z.string().nullable(),
      bookedAt: z.string(),
      /** The crew it is booked on (docs/product.md, Schedule), or null for none. */
      crewId: z.number().int().nullable(),
      /** Who booked it, or last moved it (byNameSchema). */
      bookedBy: byNameSchema,
    })
    .nullable(),
  /** When the job was marked done. */
  doneAt: z.string().nullable(),
  /** Who marked it done (byNameSchema). */
  doneBy: byNameSchema,
  /**
   * The crew's timer on a booked or done job (docs/product.md, The crew's day): minutes on site by
   * UK day, pauses left out, and a start without a complete site check with its reason; null before
   * booking. Optional: answers from before the crew's day parse.
   */
  work: workSummarySchema.nullable().optional(),
  /** A done job's finish from the crew's phone or its corrected times, named; null otherwise. */
  finish: jobFinishSchema.nullable().optional(),
  /** Each tree's actual times as stored (the finish's split, the done form or a correction), for a done job. */
  actuals: z.array(treeActualsSchema).optional(),
  /** The crew's before and after photos, oldest first. */
  photos: z.array(jobPhotoSchema).optional(),
  /** The office's notes for the crew's job sheet (PATCH /api/jobs/{id}/site-notes), as typed: no customer's answer filled in. */
  siteNotes: siteNotesResponseSchema.shape.siteNotes.optional(),
  createdAt: z.string(),
  /** Who made the job (byNameSchema). */
  createdBy: byNameSchema,
  updatedAt: z.string(),
});
export type Job = z.infer<typeof jobSchema>;
export type JobItem = z.infer<typeof jobItemSchema>;

export const jobResponseSchema = z.object({ job: jobSchema });
export const jobListSchema = z.object({ jobs: z.array(jobSchema) });

/** The quote's number as printed: Q-000012. */
export function jobReference(id: number): string {
  return `Q-${String(id).padStart(6, '0')}`;
}

const cancelNote = z.string().trim().max(1000, 'At most 1000 characters').optional().nullable().transform((v) => (v ? v : null));

/** POST /api/jobs/{id}/cancel: the surgeon records a cancellation the customer sent another way. */
export const jobCancelSchema = z.object({
  receivedOn: z
    .string('Enter the date you were told, as YYYY-MM-DD')
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the date you were told, as YYYY-MM-DD')
    .refine((v) => !Number.isNaN(Date.parse(`${v}T12:00:00Z`)) && new Date(`${v}T12:00:00Z`).toISOString().startsWith(v), 'Enter the date you were told, as YYYY-MM-DD'),
  via: z.enum(RECORDED_CANCELLATION_VIAS, 'Say how the customer told you: email, letter, phone or in_person'),
  note: cancelNote,
});
export type JobCancelInput = z.input<typeof jobCancelSchema>;
