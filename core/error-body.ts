import type { ErrorCode } from './errors';
import { isRecord } from './is-record';

/**
 * The rule for reading a failed answer (docs/product.md, Messages), shared by the dashboard's
 * client and the widget's: the message is the body's `message`, else the raw body text, else
 * the status text, else "HTTP {status}"; `code`, the analysis route's `error` and a validation
 * error's per-field `details` travel with it. No zod: the widget's bundle is budgeted.
 */
export interface ErrorAnswer {
  message: string;
  code: string | undefined;
  error: string | undefined;
  details: Record<string, string[]> | undefined;
}

/**
 * The one error the dashboard's and the widget's API calls throw, read from the server's
 * `{ message, code }` answer (server/http/errors.ts renders it). Screens switch on `code`
 * (core/errors.ts), never on the status or the words. `status` is 0 when nothing answered
 * (no connection), the one case without a code.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  /** POST /api/analyze-tree and the embed analysis: `message` again, under the name the first embeds read. */
  readonly error: string | undefined;
  /** Per-field messages of a 400 VALIDATION_ERROR. */
  readonly details: Record<string, string[]> | undefined;
  /** A 429's or 503's Retry-After in seconds; undefined when absent. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    status: number,
    extra: { code?: ErrorCode; error?: string; details?: Record<string, string[]>; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = extra.code;
    this.error = extra.error;
    this.details = extra.details;
    this.retryAfterSeconds = extra.retryAfterSeconds;
  }
}

/** The status of an ApiError when the server could not be reached at all. */
export const NO_ANSWER_STATUS = 0;

/** Retry-After as whole seconds; our server sends seconds, never an HTTP date. */
function seconds(header: string | null): number | undefined {
  return header && /^\d+$/.test(header.trim()) ? Number(header) : undefined;
}

/** The ApiError for a failed answer: its body text, status line and Retry-After header. */
export function apiErrorFromAnswer(raw: string, status: number, statusText: string, retryAfter: string | null = null): ApiError {
  const { message, code, error, details } = readErrorAnswer(raw, status, statusText);
  // The code comes from our own server (core/errors.ts). It is not checked against the list
  // here, which would take zod into a first load; an unknown one matches no case.
  return new ApiError(message, status, { code: code as ErrorCode | undefined, error, details, retryAfterSeconds: seconds(retryAfter) });
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function readDetails(value: unknown): Record<string, string[]> | undefined {
  if (!isRecord(value)) return undefined;
  const details: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) details[field] = messages.filter((m): m is string => typeof m === 'string');
  }
  return details;
}

export function readErrorAnswer(raw: string, status: number, statusText: string): ErrorAnswer {
  let body: unknown;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {
    body = undefined;
  }
  const fields = isRecord(body) ? body : {};
  return {
    message: text(fields.message) ?? (raw || undefined) ?? text(statusText) ?? `HTTP ${status}`,
    code: text(fields.code),
    error: text(fields.error),
    details: readDetails(fields.details),
  };
}
