import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { DomainError, statusForCode, type ErrorBody, type ErrorCode } from '../../core/errors';
import { describeError } from '../log';
import type { AppEnv } from './context';
import { loggedPath } from './access-log';

/**
 * The one error type of the API (CONVENTIONS 4) is core's DomainError: domain modules
 * throw it without knowing HTTP, and `renderError` turns it into `{ message, code }` with
 * the code's status. `ApiError` is its name in the HTTP layer (routes, middleware).
 */
export { DomainError as ApiError };

export const notFound = (what = 'Not found') => new DomainError('NOT_FOUND', what);

/**
 * A zod failure as a 400 with per-field details, keyed by the field's path ("name", or
 * "companyProfile.vatNumber" for a nested field, so a form can put each message under its
 * own input); list positions are left out ("allowedOrigins", not "allowedOrigins.3"). The
 * first message becomes the summary.
 */
export function validationError(error: z.ZodError): DomainError {
  const details: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.filter((part) => typeof part === 'string').join('.') || '_form';
    (details[key] ??= []).push(issue.message);
  }
  const first = error.issues[0]?.message ?? 'Invalid request';
  return new DomainError('VALIDATION_ERROR', first, { details });
}

/** Hono's own HTTP errors (bad JSON, body limits) mapped onto our codes. */
function codeForStatus(status: number): ErrorCode {
  const match = (Object.entries(statusForCode) as [ErrorCode, number][]).find(([, s]) => s === status);
  return match?.[0] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_ERROR');
}

/** Server-side failures, with their cause and the request's id; a client's mistakes (4xx) are only in the access line. */
function logFailure(err: Error, context: Context, code: string): void {
  // Apps built without deps (a unit test's bare Hono) have no logger to write to.
  const c = context as unknown as Context<AppEnv>;
  const deps = c.get('deps');
  if (!deps) return;
  deps.logger.error({ requestId: c.get('requestId'), method: c.req.method, path: loggedPath(c.req.path), code, error: describeError(err) }, 'request failed');
}

/**
 * The single error renderer (app.onError). Known errors keep their message; anything
 * else is logged server-side and answered as a bare 500, never a stack or SQL text.
 */
export function renderError(err: Error, c: Context): Response {
  if (err instanceof DomainError && err.status >= 500) logFailure(err, c, err.code);
  if (err instanceof DomainError) {
    const body: ErrorBody = { message: err.message, code: err.code };
    if (err.details) body.details = err.details;
    // docs/product.md, Messages: the analysis route repeats the text as `error` (the widget reads it).
    if (c.req.path === '/api/analyze-tree') body.error = err.message;
    return c.json(body, err.status as ContentfulStatusCode, err.headers);
  }
  if (err instanceof HTTPException && err.status < 500) {
    const code = codeForStatus(err.status);
    const message = err.status === 413 ? 'Request body is too large' : err.message || 'Bad request';
    return c.json({ message, code } satisfies ErrorBody, err.status);
  }
  logFailure(err, c, 'INTERNAL_ERROR');
  return c.json({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' } satisfies ErrorBody, 500);
}
