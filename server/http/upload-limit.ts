import type { MiddlewareHandler } from 'hono';
import { declaresTooLarge, uploadTooLarge } from '../analysis/upload';

/**
 * Route middleware: refuses a body that declares more than the upload limit before the
 * handler runs. readUpload checks this again and counts chunked bodies as they stream,
 * so it is safe alone; this only answers sooner.
 */
export const uploadBodyLimit: MiddlewareHandler = async (c, next) => {
  if (declaresTooLarge(c.req.raw)) throw uploadTooLarge();
  await next();
};
