import { z } from 'zod';

/**
 * Every error code the API can answer with, shared by server, dashboard and
 * widget so clients switch on `code`, never on message text (docs/product.md, Messages).
 */
export const errorCodeSchema = z.enum([
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'INSUFFICIENT_TOKENS',
  /** A card payment was declined (402). */
  'PAYMENT_FAILED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  /**
   * A visitor's own analyses from one address used up (429, with Retry-After): theirs to wait
   * out, unlike RATE_LIMITED on a business's estimator, which is busy for everyone.
   */
  'VISITOR_LIMIT',
  'INTERNAL_ERROR',
  'ANALYSIS_FAILED',
  /** The payment provider failed or could not be reached (502). */
  'PAYMENT_PROVIDER_ERROR',
  'PAYMENTS_NOT_CONFIGURED',
  /** An upload sent no bytes for the idle timeout (408). */
  'REQUEST_TIMEOUT',
  /** Every analysis slot is taken and the line for them is full (503, with Retry-After). */
  'BUSY',
  /** A quote link that was real but is no longer: withdrawn, replaced by a newer version or expired (410). */
  'QUOTE_GONE',
  /**
   * A booking before a protected tree's earliest start, or while the council's consent or a notice
   * is missing (409, with `details.earliestStart` and `details.missing`): core/protection.ts.
   */
  'PROTECTION_NOTICE',
  /**
   * Work booked inside a consumer's 14-day cancellation period without their request to start
   * early (409, with `details.firstDay`: the first UK day after the period): core/cancellation-period.ts.
   */
  'CANCELLATION_PERIOD',
  /**
   * The signed-in person's role may not use this part of the product (403); the message names who
   * can (core/permissions.ts). A record outside their reach is NOT_FOUND, as another team's is.
   */
  'ROLE_FORBIDDEN',
  /** A team invitation link that was used, withdrawn, replaced by a resend, expired or never made (410). */
  'INVITATION_GONE',
  /**
   * Work started on a day whose site check is not complete and signed by everyone on site (409,
   * with `details.missing`): core/crew-day.ts; a reason from the lead lets it start.
   */
  'SITE_CHECK_MISSING',
]);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const statusForCode: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_TOKENS: 402,
  PAYMENT_FAILED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  VISITOR_LIMIT: 429,
  INTERNAL_ERROR: 500,
  ANALYSIS_FAILED: 502,
  PAYMENT_PROVIDER_ERROR: 502,
  PAYMENTS_NOT_CONFIGURED: 503,
  REQUEST_TIMEOUT: 408,
  BUSY: 503,
  QUOTE_GONE: 410,
  PROTECTION_NOTICE: 409,
  CANCELLATION_PERIOD: 409,
  ROLE_FORBIDDEN: 403,
  INVITATION_GONE: 410,
  SITE_CHECK_MISSING: 409,
};

/** The body of every error answer: `{ message, code }`, plus per-field `details` for validation. */
export const errorBodySchema = z.object({
  message: z.string(),
  code: errorCodeSchema,
  details: z.record(z.string(), z.array(z.string())).optional(),
  /** POST /api/analyze-tree only: `message` again, under the name the first embeds read. */
  error: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/**
 * The error a domain module (server/accounts, analysis, payments, businesses, settings)
 * throws: a code, a message a user may read, and optionally per-field details, headers
 * the answer needs (Retry-After) and the underlying cause for the operator's log. It
 * knows nothing of HTTP; the HTTP layer's one renderer maps it to `{ message, code }`
 * with `statusForCode[code]` (server/http/errors.ts).
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: Record<string, string[]>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, string[]>; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.status = statusForCode[code];
    this.details = options.details;
    this.headers = options.headers;
  }
}
