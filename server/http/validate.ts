import type { Context } from 'hono';
import type { z } from 'zod';
import { bodyIdleMs, readBodyText } from './body';
import type { AppEnv } from './context';
import { ApiError, validationError } from './errors';

/** JSON bodies are small; uploads get their own limit on their own route. */
export const JSON_BODY_LIMIT = 64 * 1024;
export const jsonTooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large');

/** application/json, with or without parameters, or a +json type. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON body and validates it with a core/ schema. Malformed JSON is a 400
 * VALIDATION_ERROR with a plain message; schema failures carry per-field details. The body is
 * read with the uploads' idle timeout (408) and at most JSON_BODY_LIMIT bytes (413), counted as
 * it streams, so a body without a length is bounded too (body.ts).
 */
export async function readJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  // JSON routes take JSON only: a cross-site form can send text/plain or
  // urlencoded bodies without a preflight, never application/json.
  const type = c.req.header('content-type');
  const notJson = () => new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON (Content-Type: application/json)');
  if (type !== undefined && !JSON_TYPE.test(type)) throw notJson();
  const text = await readBodyText(c.req.raw, { maxBytes: JSON_BODY_LIMIT, idleMs: bodyIdleMs(c), tooLarge: jsonTooLarge });
  let raw: unknown;
  try {
    if (type === undefined && text.trim() !== '') throw notJson();
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError('VALIDATION_ERROR', 'Request body must be valid JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
