import type { z } from 'zod';
import { ACCEPTED_IMAGE_TYPES, MAX_DESCRIPTION_CHARS, MAX_UPLOAD_BYTES } from '../../core/analysis';
import { readUserTreeDetails, type UserTreeSizes } from '../../core/normalise';
import type { PhotoMeasurement } from '../../core/photo-measure';
import { siteDetailsInputSchema, type SiteDetails } from '../../core/site';
import { treeDetailsSchema } from '../../core/tree-details';
import { DomainError } from '../../core/errors';
import { SLUG_MAX } from '../../core/embed';
import { detectImageType } from '../../core/image-header';
import { refuseImageShape } from '../images/upload-checks';

export type UploadImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];

/** The first step of an analysis (docs/analysis.md, The pipeline): what the user sent, checked. */
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
  /** The user says sizes the checks found unlikely are right (core/tree-details.ts). */
  sizesConfirmed: boolean;
  businessSlug?: string;
}

/**
 * The text fields of the analysis form and the most UTF-8 bytes each may hold (the HTTP layer
 * reads the form against these, server/http/multipart.ts): a description of at most 2000
 * characters is at most 6000 bytes (3 a UTF-16 unit), the site and tree details are small JSON
 * objects (a few hundred bytes with a measurement's taps), a slug at most 60 characters.
 */
export const UPLOAD_TEXT_FIELDS = {
  description: 3 * MAX_DESCRIPTION_CHARS,
  siteDetails: 2048,
  treeDetails: 4096,
  businessSlug: 4 * SLUG_MAX,
} as const;

/** The form as the HTTP layer read it: the file, if one was sent, and the text fields by name. */
export interface UploadForm {
  file: { bytes: Buffer } | null;
  text: ReadonlyMap<string, string>;
}

export const uploadTooLarge = () => new DomainError('PAYLOAD_TOO_LARGE', 'Image is too large. The maximum file size is 10MB.');
export const unsupportedUpload = () =>
  new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported image type. Please upload a JPEG, PNG or WebP photo.');
export const noPhoto = () => new DomainError('VALIDATION_ERROR', 'Please choose a photo of the tree to analyze.');

/**
 * The upload of POST /api/analyze-tree, checked: field `image` (one non-empty JPEG, PNG or WebP,
 * by its bytes), optional `description`, `siteDetails` and `treeDetails` (JSON text) and
 * `businessSlug`.
 */
export function readUpload(form: UploadForm): UploadInput {
  const bytes = form.file?.bytes;
  if (!bytes || bytes.length === 0) throw noPhoto();
  if (bytes.length > MAX_UPLOAD_BYTES) throw uploadTooLarge();
  const type = detectImageType(bytes);
  if (!type) throw unsupportedUpload();
  // The shape from the header, as soon as the bytes are in: before an image slot is taken or
  // anything decodes it (docs/security.md, Image shapes: a 76 KB PNG of 1 x 39,000,000 px cost libvips 6-9 s).
  // Too large on a side or in all is 413, a shape no photo has 400 (server/images/upload-checks.ts).
  refuseImageShape(bytes, type, 'photo', 'image');

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

/** A text field, trimmed; blank or absent is undefined. */
function optionalText(form: UploadForm, field: keyof typeof UPLOAD_TEXT_FIELDS): string | undefined {
  const trimmed = form.text.get(field)?.trim();
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

/** The site questions arrive as JSON text beside the file; unanswered means {}, and so does "not_sure" for one. */
function parseSiteDetails(text: string | undefined): SiteDetails {
  return text === undefined ? {} : parseJsonField(text, 'siteDetails', 'Site details', siteDetailsInputSchema);
}

/**
 * The tree details (core/tree-details.ts) arrive as JSON text beside the file. Sizes are
 * converted and bounded here, and a photo measurement is recomputed from its taps: a value a
 * client worked out is never trusted. What cannot be used is a 400 in words.
 */
function parseTreeDetails(text: string | undefined): Pick<UploadInput, 'treeDetails' | 'measurement' | 'sizesConfirmed'> {
  if (text === undefined) return { treeDetails: null, measurement: null, sizesConfirmed: false };
  const details = parseJsonField(text, 'treeDetails', 'Tree details', treeDetailsSchema);
  const read = readUserTreeDetails(details);
  if (!read.ok) {
    throw new DomainError('VALIDATION_ERROR', read.problems[0]!, { details: { treeDetails: read.problems } });
  }
  return { treeDetails: read.sizes, measurement: details.measurement ?? null, sizesConfirmed: details.sizesConfirmed === true };
}
