import type { z } from 'zod';
import { ACCEPTED_IMAGE_TYPES, MAX_DESCRIPTION_CHARS, MAX_UPLOAD_BYTES } from '../../core/analysis';
import { readUserTreeDetails, type UserTreeSizes } from '../../core/normalise';
import type { PhotoMeasurement } from '../../core/photo-measure';
import { siteDetailsSchema, type SiteDetails } from '../../core/site';
import { treeDetailsSchema } from '../../core/tree-details';
import { DomainError } from '../../core/errors';

export type UploadImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/** The first step of an analysis (DECISIONS, Analysis): what the user sent, checked. */
export interface UploadInput {
  bytes: Buffer;
  /** Decided by the file's bytes, never its name or the part's Content-Type. */
  type: UploadImageType;
  description?: string;
  siteDetails: SiteDetails;
  /** The tree details, converted to whole feet and inches with their sources; null when none were sent. */
  treeDetails: UserTreeSizes | null;
  /** The taps the sizes were measured with, as sent (the sizes themselves are recomputed). */
  measurement: PhotoMeasurement | null;
  businessSlug?: string;
}

/**
 * Room for the multipart framing and the text fields beside a 10 MB image: boundaries and
 * part headers are a few hundred bytes, a 2000-character description at most 8 KB of UTF-8.
 */
export const MULTIPART_OVERHEAD_BYTES = 256 * 1024;
export const MAX_UPLOAD_REQUEST_BYTES = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES;

/**
 * An upload that sends nothing for this long is given up (408): a phone that lost its signal,
 * or a client that opens the request and trickles. 15 s is far longer than any pause of a
 * working connection, and nothing is reserved or held for an upload in progress meanwhile.
 */
export const UPLOAD_IDLE_MS = 15_000;

const stalled = () =>
  new DomainError('REQUEST_TIMEOUT', 'The upload stalled. Please check your connection and try again.');
const tooLarge = () => new DomainError('PAYLOAD_TOO_LARGE', 'Image is too large. The maximum file size is 10MB.');
const unsupported = () =>
  new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported image type. Please upload a JPEG, PNG or WebP photo.');
const noPhoto = () => new DomainError('VALIDATION_ERROR', 'Please choose a photo of the tree to analyze.');

/** True when the request declares a body larger than an upload may be (checked before reading). */
export function declaresTooLarge(request: Request): boolean {
  return declaredLength(request) > MAX_UPLOAD_REQUEST_BYTES;
}

/** The 413 for an upload over the limit, for the HTTP layer's early check. */
export const uploadTooLarge = tooLarge;

/**
 * Reads the multipart upload of POST /api/analyze-tree: field `image` (exactly one file),
 * optional `description`, `siteDetails` and `treeDetails` (JSON text) and `businessSlug`. The body is
 * counted as it streams and refused at once past the limit, so no request is ever buffered
 * beyond 10 MB plus framing, whether it declares a Content-Length or arrives chunked.
 * The route must not sit behind a smaller body limit (app.ts's 64 KB JSON limit).
 */
export async function readUpload(request: Request, idleMs = UPLOAD_IDLE_MS): Promise<UploadInput> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw unsupported();

  const form = parseMultipart(await readBoundedBody(request, idleMs), contentType);
  const images = form.get('image') ?? [];
  const file = images[0];
  if (images.length !== 1 || typeof file === 'string' || file === undefined || file.bytes.length === 0) throw noPhoto();
  if (file.bytes.length > MAX_UPLOAD_BYTES) throw tooLarge();

  const bytes = file.bytes;
  const type = detectImageType(bytes);
  if (!type) throw unsupported();

  const description = optionalText(form, 'description');
  if (description !== undefined && description.length > MAX_DESCRIPTION_CHARS) {
    throw new DomainError('VALIDATION_ERROR', `Project details must be at most ${MAX_DESCRIPTION_CHARS} characters`, {
      details: { description: [`At most ${MAX_DESCRIPTION_CHARS} characters`] },
    });
  }
  const businessSlug = optionalText(form, 'businessSlug');
  const siteDetails = parseSiteDetails(optionalText(form, 'siteDetails'));
  const tree = parseTreeDetails(optionalText(form, 'treeDetails'));
  return {
    bytes,
    type,
    ...(description !== undefined && { description }),
    siteDetails,
    ...tree,
    ...(businessSlug !== undefined && { businessSlug }),
  };
}

/**
 * The image type by its magic numbers: JPEG SOI marker FF D8 FF (ITU T.81), the PNG
 * signature (RFC 2083 section 3.1), WebP's RIFF container with form type WEBP (RFC 9649).
 */
export function detectImageType(bytes: Uint8Array): UploadImageType | undefined {
  const starts = (signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (bytes.length >= 12 && starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/**
 * The request body, refused with 413 as soon as it is known to be too large: at once from
 * a declared Content-Length (before a byte is read), else when the streamed count passes it;
 * and with 408 when `idleMs` pass without a byte (the timer restarts on every chunk).
 */
async function readBoundedBody(request: Request, idleMs: number): Promise<Buffer> {
  if (declaredLength(request) > MAX_UPLOAD_REQUEST_BYTES) throw tooLarge();
  if (!request.body) throw noPhoto();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  // One timer, restarted per chunk; when it fires, the pending read loses the race.
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(stalled()), idleMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), idle]);
      if (done) break;
      timer?.refresh();
      received += value.byteLength;
      if (received > MAX_UPLOAD_REQUEST_BYTES) throw tooLarge();
      chunks.push(value);
    }
  } catch (error) {
    // Stop reading, without waiting on a client that may never send again: the adapter
    // drains or closes the connection once our answer is out.
    void reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // Joined only once complete: until then a slow or stalled client holds just what it sent.
  return Buffer.concat(chunks, received);
}

/** The Content-Length a client declared; NaN (never too large) when it sent none. */
function declaredLength(request: Request): number {
  return Number(request.headers.get('content-length') ?? Number.NaN);
}

/** A file part of a form: its bytes are a view into the request body, not a copy. */
export interface FilePart {
  filename: string;
  bytes: Buffer;
}
export type FormFields = Map<string, (string | FilePart)[]>;

const unreadableForm = () => new DomainError('VALIDATION_ERROR', 'The upload could not be read. Please choose the photo again.');
const CRLF_CRLF = Buffer.from('\r\n\r\n');

/**
 * multipart/form-data (RFC 7578 over RFC 2046 section 5.1.1) read in place. The photo comes
 * back as a view into the body, so an upload waiting for its image slot holds its 10 MB once,
 * where the platform's FormData held the body, a File copy and an ArrayBuffer copy of it.
 * Each part: a delimiter line `--boundary` (transport padding allowed), headers, an empty
 * line, the content up to CRLF and the next delimiter; `--boundary--` ends the body, and the
 * preamble before the first delimiter and the epilogue after the last are ignored. A part
 * with a `filename` parameter is a file, any other a UTF-8 text field.
 */
export function parseMultipart(body: Buffer, contentType: string): FormFields {
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s"]{1,70}))/i.exec(contentType);
  if (!boundary) throw unreadableForm();
  const dashBoundary = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const delimiter = Buffer.concat([Buffer.from('\r\n'), dashBoundary]);
  const fields: FormFields = new Map();

  // The first delimiter starts the body or a line after the preamble.
  let at = 0;
  if (!body.subarray(0, dashBoundary.length).equals(dashBoundary)) {
    const first = body.indexOf(delimiter);
    if (first < 0) throw unreadableForm();
    at = first + 2;
  }
  for (;;) {
    at += dashBoundary.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return fields; // `--`: the close delimiter
    while (body[at] === 0x20 || body[at] === 0x09) at += 1;
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) throw unreadableForm();
    at += 2;
    const end = body.indexOf(delimiter, at);
    const headersEnd = body.indexOf(CRLF_CRLF, at);
    if (end < 0 || headersEnd < 0 || headersEnd + 4 > end) throw unreadableForm();
    const disposition = formDataDisposition(body.toString('utf8', at, headersEnd));
    if (!disposition) throw unreadableForm();
    const content = body.subarray(headersEnd + 4, end);
    const value = disposition.filename === undefined ? content.toString('utf8') : { filename: disposition.filename, bytes: content };
    fields.set(disposition.name, [...(fields.get(disposition.name) ?? []), value]);
    at = end + 2;
  }
}

/** The field name and, for a file, its filename, from a part's `Content-Disposition: form-data` header. */
function formDataDisposition(headers: string): { name: string; filename?: string } | undefined {
  const line = /^content-disposition:[ \t]*form-data[ \t]*(;.*)?$/im.exec(headers);
  if (!line) return undefined;
  const params = new Map<string, string>();
  // Quoted values may hold `;`; browsers percent-encode `"` and line breaks, RFC 2045 allows `\"`.
  for (const [, key, quoted, token] of (line[1] ?? '').matchAll(/;[ \t]*([^=;\s]+)[ \t]*=[ \t]*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g)) {
    params.set(key!.toLowerCase(), quoted === undefined ? token! : quoted.replace(/\\(.)/g, '$1'));
  }
  const name = params.get('name');
  if (name === undefined) return undefined;
  const filename = params.get('filename') ?? params.get('filename*');
  return filename === undefined ? { name } : { name, filename };
}

/** A text field, trimmed; blank or absent is undefined. A file in a text field is refused. */
function optionalText(form: FormFields, field: string): string | undefined {
  const values = form.get(field) ?? [];
  if (values.length === 0) return undefined;
  const value = values[0];
  if (values.length > 1 || typeof value !== 'string') {
    throw new DomainError('VALIDATION_ERROR', `The ${field} field must be a single text value`, {
      details: { [field]: ['Must be a single text value'] },
    });
  }
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A JSON text field checked against its schema; 400 with per-field details when it is not. */
function parseJsonField<T>(text: string, field: string, title: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new DomainError('VALIDATION_ERROR', `${title} must be valid JSON`, { details: { [field]: ['Must be valid JSON'] } });
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message,
  );
  throw new DomainError('VALIDATION_ERROR', `${title} are not valid (${problems.join('; ')})`, { details: { [field]: problems } });
}

/** The site questions arrive as JSON text beside the file; unanswered means {}. */
function parseSiteDetails(text: string | undefined): SiteDetails {
  return text === undefined ? {} : parseJsonField(text, 'siteDetails', 'Site details', siteDetailsSchema);
}

/**
 * The tree details (core/tree-details.ts) arrive as JSON text beside the file. Sizes are
 * converted and bounded here, and a photo measurement is recomputed from its taps: a value a
 * client worked out is never trusted. What cannot be used is a 400 in words.
 */
function parseTreeDetails(text: string | undefined): Pick<UploadInput, 'treeDetails' | 'measurement'> {
  if (text === undefined) return { treeDetails: null, measurement: null };
  const details = parseJsonField(text, 'treeDetails', 'Tree details', treeDetailsSchema);
  const read = readUserTreeDetails(details);
  if (!read.ok) {
    throw new DomainError('VALIDATION_ERROR', read.problems[0]!, { details: { treeDetails: read.problems } });
  }
  return { treeDetails: read.sizes, measurement: details.measurement ?? null };
}
