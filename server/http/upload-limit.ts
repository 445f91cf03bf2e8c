import type { MiddlewareHandler } from 'hono';
import { MAX_UPLOAD_BYTES } from '../../core/analysis';
import { noPhoto, readUpload, unsupportedUpload, UPLOAD_TEXT_FIELDS, uploadTooLarge, type UploadInput } from '../analysis/upload';
import { declaresMoreThan, formLimits, readMultipartForm, type FormSpec } from './multipart';

/** The analysis form: one photo of at most 10 MB and the text fields the analysis takes. */
export const ANALYSIS_FORM: FormSpec = {
  file: 'image',
  maxFileBytes: MAX_UPLOAD_BYTES,
  text: UPLOAD_TEXT_FIELDS,
  tooLarge: uploadTooLarge,
  notMultipart: unsupportedUpload,
  missingFile: noPhoto,
  retry: 'Please choose the photo again.',
};

/** The most a request to the analysis route may send: the photo, the text fields and their framing. */
export const MAX_UPLOAD_REQUEST_BYTES = formLimits(ANALYSIS_FORM).requestBytes;

/**
 * Route middleware: refuses a body that declares more than the upload limit before the
 * handler runs. readMultipartForm checks this again and counts chunked bodies as they stream,
 * so it is safe alone; this only answers sooner (before the rate limits and the line).
 */
export const uploadBodyLimit: MiddlewareHandler = async (c, next) => {
  if (declaresMoreThan(c.req.raw, MAX_UPLOAD_REQUEST_BYTES)) throw uploadTooLarge();
  await next();
};

/** The analysis upload read from the request and checked (server/analysis/upload.ts). */
export async function readAnalysisUpload(request: Request, idleMs?: number): Promise<UploadInput> {
  return readUpload(await readMultipartForm(request, ANALYSIS_FORM, idleMs));
}
