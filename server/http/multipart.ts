import {
  MaxFileSizeExceededError,
  MaxHeaderSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  MultipartParser,
  type MultipartPart,
} from '@remix-run/multipart-parser';
import { DomainError } from '../../core/errors';
import { boundedChunks, declaresMoreThan, UPLOAD_IDLE_MS } from './body';

export { declaresMoreThan, UPLOAD_IDLE_MS };

/**
 * Every multipart upload (the tree photo, the company logo) is read here, by Remix's streaming
 * parser (@remix-run/multipart-parser): it reads the web `Request` Hono hands us as it streams,
 * and it refuses, by throwing at once, a part header over its cap, a part over its size, too many
 * parts and too much content in all. busboy, the older standard, truncates an oversize text field
 * and skips the rest, so a breach is only known when the part ends, and caps part headers at a
 * fixed 16 KB (docs/security.md, Uploads and hostile input).
 *
 * What a form may hold is explicit ({@link FormSpec}): one file part, a few named text parts,
 * each at most once and each with its own cap in bytes. The first breach answers at once and the
 * rest of the body is not parsed (linger.ts reads and discards it, within bounds, so a client
 * still sending hears the answer): nothing is reserved, charged or written before this returns.
 * The work is linear in the bytes read and stops at the first of these caps, so no shape of body,
 * however many parts it claims, holds the event loop.
 */
export interface FormSpec {
  /** The one file part, e.g. `image`. */
  file: string;
  /** Its most bytes, counted as it streams. */
  maxFileBytes: number;
  /** The text parts the form takes, each at most once, with the most UTF-8 bytes each may hold. */
  text: Readonly<Record<string, number>>;
  /** 413 for a file over its size, or a body over what the form can hold. */
  tooLarge: () => DomainError;
  /** 415 for a body that is not multipart/form-data. */
  notMultipart: () => DomainError;
  /** 400 when the file part is sent as text: ask for the file. */
  missingFile: () => DomainError;
  /** What the sender can do about an unreadable form, e.g. "Please choose the photo again." */
  retry: string;
}

/** A read form: the file (if sent) and the text parts by name, as sent (not trimmed). */
export interface MultipartForm {
  file: { filename: string; bytes: Buffer } | null;
  text: ReadonlyMap<string, string>;
}

/**
 * A part's headers: a browser sends a Content-Disposition with the field and file names and a
 * Content-Type, about 100 bytes plus the file name (at most 255 bytes on common file systems,
 * 765 if every character takes three bytes). 1 KB holds any of them.
 */
export const MAX_PART_HEADER_BYTES = 1024;

/** Room for each part's delimiter line, headers and line breaks, and the close delimiter. */
const framingBytes = (parts: number) => parts * (MAX_PART_HEADER_BYTES + 128) + 128;

/** The caps a spec implies: parts, content, and the whole body with its framing. */
export function formLimits(spec: FormSpec) {
  const textBytes = Object.values(spec.text).reduce((sum, bytes) => sum + bytes, 0);
  const parts = 1 + Object.keys(spec.text).length;
  const contentBytes = spec.maxFileBytes + textBytes;
  return {
    parts,
    /** Any one part: the file's cap (a text part's own, smaller cap is checked when it ends). */
    partBytes: Math.max(spec.maxFileBytes, ...Object.values(spec.text)),
    contentBytes,
    requestBytes: contentBytes + framingBytes(parts),
  };
}

const stalled = () =>
  new DomainError('REQUEST_TIMEOUT', 'The upload stalled. Please check your connection and try again.');

/** A 400 naming what is wrong with the form, and what to do. */
const badForm = (problem: string, field?: string) =>
  new DomainError('VALIDATION_ERROR', problem, field === undefined ? {} : { details: { [field]: [problem] } });

/**
 * RFC 2046 section 5.1.1: 1 to 70 characters from a small set, not ending in a space. Checked
 * here, before the parser builds its search tables from it: a long run of one character would
 * make its partial-match search quadratic in the boundary's length.
 */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;
const BOUNDARY_PARAM = /;[ \t]*boundary=(?:"([^"]*)"|([^;\s"]*))/i;

function boundaryOf(contentType: string, spec: FormSpec): string {
  if (!/^multipart\/form-data[ \t]*(?:;|$)/i.test(contentType)) throw spec.notMultipart();
  const match = BOUNDARY_PARAM.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined || !BOUNDARY.test(boundary)) {
    throw badForm(`The upload could not be read: its Content-Type needs a boundary of 1 to 70 letters, digits or '()+_,-./:=? (RFC 2046). ${spec.retry}`);
  }
  return boundary;
}

/**
 * Reads a multipart/form-data body against its spec. The body is counted as it streams and
 * refused with 413 at once past the form's size (from a declared Content-Length before a byte
 * is read); 408 when `idleMs` pass without a byte; 400 naming the problem for a field the form
 * does not take, a field sent twice, a part header over 1 KB, a malformed or unfinished body.
 * Stops at the close delimiter: an epilogue is not read.
 */
export async function readMultipartForm(request: Request, spec: FormSpec, idleMs = UPLOAD_IDLE_MS): Promise<MultipartForm> {
  const boundary = boundaryOf(request.headers.get('content-type') ?? '', spec);
  const limits = formLimits(spec);
  if (declaresMoreThan(request, limits.requestBytes)) throw spec.tooLarge();
  if (!request.body) throw badForm(`The upload was empty. ${spec.retry}`);
  const parser = new MultipartParser(boundary, {
    maxHeaderSize: MAX_PART_HEADER_BYTES,
    maxFileSize: limits.partBytes,
    maxParts: limits.parts,
    maxTotalSize: limits.contentBytes,
  });
  const form = new FormReader(spec);
  let complete = false;
  try {
    for await (const value of boundedChunks(request.body, { maxBytes: limits.requestBytes, idleMs, tooLarge: spec.tooLarge, stalled })) {
      for (const part of parser.write(value)) form.add(part);
      complete = finished(parser);
      // Stops reading, without waiting on a client that may never send again, and without
      // closing the body: after a refusal linger.ts discards the rest within its bounds.
      if (complete) break;
    }
    if (!complete) parser.finish();
  } catch (error) {
    throw asFormError(error, spec);
  }
  return form.result();
}

/** True once the parser has read the close delimiter (its `finish` throws until then). */
function finished(parser: MultipartParser): boolean {
  try {
    parser.finish();
    return true;
  } catch {
    return false;
  }
}

/** The parser's and the decoder's failures, in words; our own errors pass through. */
function asFormError(error: unknown, spec: FormSpec): unknown {
  if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) return spec.tooLarge();
  if (error instanceof MaxHeaderSizeExceededError) {
    return badForm(`A part of the upload has headers over ${MAX_PART_HEADER_BYTES} bytes. ${spec.retry}`);
  }
  if (error instanceof MaxPartsExceededError) return badForm(tooManyParts(spec));
  if (error instanceof MultipartParseError) {
    const reason = /missing initial boundary/i.test(error.message)
      ? 'it does not start with the boundary its Content-Type names'
      : /not finished/i.test(error.message)
        ? 'it ended before its closing boundary'
        : 'it is not well-formed multipart/form-data';
    return badForm(`The upload could not be read: ${reason}. ${spec.retry}`);
  }
  return error;
}

const fieldList = (spec: FormSpec) => [spec.file, ...Object.keys(spec.text)].join(', ');
const tooManyParts = (spec: FormSpec) => `The upload has too many parts. It takes at most one each of: ${fieldList(spec)}.`;

/** A name from the client, safe to quote in a message: at most 40 characters, JSON-quoted. */
const quoted = (name: string) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Checks each part as the parser completes it, against the spec; keeps what the form takes. */
class FormReader {
  private file: MultipartForm['file'] = null;
  private readonly text = new Map<string, string>();
  private readonly seen = new Set<string>();

  constructor(private readonly spec: FormSpec) {}

  add(part: MultipartPart): void {
    const { spec } = this;
    let name: string | undefined;
    let isFile: boolean;
    try {
      name = part.name;
      isFile = part.isFile;
    } catch {
      // The headers are decoded as strict UTF-8.
      throw badForm(`A part of the upload has headers that are not UTF-8 text. ${spec.retry}`);
    }
    if (name === undefined) throw badForm(`A part of the upload has no field name (Content-Disposition: form-data; name="..."). ${spec.retry}`);
    const textCap = Object.hasOwn(spec.text, name) ? spec.text[name] : undefined;
    if (name !== spec.file && textCap === undefined) {
      throw badForm(`The upload has a field it does not take: ${quoted(name)}. It takes: ${fieldList(spec)}.`);
    }
    if (this.seen.has(name)) throw badForm(`The ${name} field was sent more than once.`, name);
    this.seen.add(name);

    if (name === spec.file) {
      if (!isFile) throw spec.missingFile();
      if (part.size > spec.maxFileBytes) throw spec.tooLarge();
      this.file = { filename: part.filename ?? '', bytes: Buffer.concat(part.content) };
      return;
    }
    if (isFile) throw badForm(`The ${name} field must be text, not a file.`, name);
    if (part.size > textCap!) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `The ${name} field is too large (at most ${textCap} bytes).`, {
        details: { [name]: [`At most ${textCap} bytes`] },
      });
    }
    try {
      this.text.set(name, utf8.decode(Buffer.concat(part.content)));
    } catch {
      throw badForm(`The ${name} field is not UTF-8 text.`, name);
    }
  }

  result(): MultipartForm {
    return { file: this.file, text: this.text };
  }
}
