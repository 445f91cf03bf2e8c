/**
 * SPEC 8's rule for reading a failed answer, shared by the dashboard's client and the
 * widget's: the message is the body's `message`, else the raw body text, else the status
 * text, else "HTTP {status}"; `code`, the analysis route's `error` and a validation
 * error's per-field `details` travel with it. No zod: the widget's bundle is budgeted.
 */
export interface ErrorAnswer {
  message: string;
  code: string | undefined;
  error: string | undefined;
  details: Record<string, string[]> | undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
