import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, validationError } from './errors';

/**
 * Reads a JSON body and validates it with a core/ schema. Malformed JSON is a 400
 * VALIDATION_ERROR with a plain message; schema failures carry per-field details.
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError('VALIDATION_ERROR', 'Request body must be valid JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
