import type { PublicUser } from '../../core/accounts';
import type { RegisterValues } from '../../core/account-checks';
import { ApiError, apiErrorFromAnswer, NO_ANSWER_STATUS } from '../../core/error-body';
import type { ErrorCode } from '../../core/errors';
import { takeEarlyRead } from './early-reads';
import { capabilitiesAnswer, messageAnswer, userAnswer, type AnswerReader } from './guest-answers';

/** The one error every API call throws, the widget's too (core/error-body.ts). */
export { ApiError };

export function isApiError(error: unknown, code?: ErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** The text to show for any failure, with a fallback for errors that carry none. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  const raw = await response.text().catch(() => '');
  return apiErrorFromAnswer(raw, response.status, response.statusText, response.headers.get('Retry-After'));
}

type Body = FormData | Record<string, unknown>;

/** A zod schema (signed-in calls) or a hand-written reader (guest-answers.ts): anything with safeParse. */
type Reader = AnswerReader<unknown>;

interface RequestOptions<S extends Reader | undefined> {
  body?: Body;
  /** Validates the JSON answer; without it the body is not read. */
  schema?: S;
}

type Result<S> = S extends AnswerReader<infer T> ? T : void;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Sends one request to our own origin with the session cookie and returns the OK
 * response, or throws the ApiError (docs/product.md, Messages). A plain object is sent as JSON;
 * FormData (image uploads) goes as multipart with the browser's boundary.
 */
async function send(method: Method, path: string, body?: Body, accept = 'application/json'): Promise<Response> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { Accept: accept } };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }

  let response: Response;
  try {
    // My days' first reads may have started with the page (early-reads.ts).
    response = await ((method === 'GET' ? takeEarlyRead(path) : undefined) ?? fetch(path, init));
  } catch {
    throw new ApiError('Could not reach the server. Please check your connection and try again.', NO_ANSWER_STATUS);
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}

/** A JSON call: the answer is validated with `schema`, or not read without one. */
export async function request<S extends Reader | undefined = undefined>(
  method: Method,
  path: string,
  options: RequestOptions<S> = {},
): Promise<Result<S>> {
  const { body, schema } = options;
  const response = await send(method, path, body);
  if (!schema) return undefined as Result<S>;

  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ApiError('The server sent an unreadable answer.', response.status);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError('The server sent an unexpected answer.', response.status);
  }
  return parsed.data as Result<S>;
}

export interface DownloadedFile {
  blob: Blob;
  /** From Content-Disposition, when the server names the file. */
  filename: string | undefined;
}

/** A file answer (the PDF report) as a Blob, with the same error handling as every call. */
export async function download(path: string): Promise<DownloadedFile> {
  const response = await send('GET', path, undefined, '*/*');
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1];
  try {
    return { blob: await response.blob(), filename };
  } catch {
    throw new ApiError('The download was interrupted. Please try again.', response.status);
  }
}

/**
 * The typed calls a guest page makes (and logout); the rest are in
 * signed-in.ts and credits.ts, outside /login's first load.
 */
export const api = {
  /** Public: what this install can do (is a vision model configured). */
  capabilities: {
    get: () => request('GET', '/api/capabilities', { schema: capabilitiesAnswer }),
  },
  auth: {
    me: () => request('GET', '/api/auth/me', { schema: userAnswer }),
    login: (body: { usernameOrEmail: string; password: string }) =>
      request('POST', '/api/auth/login', { body, schema: userAnswer }),
    register: (body: RegisterValues) => request('POST', '/api/auth/register', { body: { ...body }, schema: userAnswer }),
    logout: () => request('POST', '/api/auth/logout'),
    forgotPassword: (body: { email: string }) =>
      request('POST', '/api/auth/forgot-password', { body, schema: messageAnswer }),
    resetPassword: (body: { token: string; password: string; confirmPassword: string }) =>
      request('POST', '/api/auth/reset-password', { body, schema: messageAnswer }),
  },
};

export type { PublicUser };
