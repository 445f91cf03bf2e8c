import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs (docs/operations.md, Logs), one object a line on standard output, for an operator's
 * `journalctl -o cat | jq` or a log shipper. Lines never carry a password, token, cookie,
 * session or photo: the access line is built from named fields only (method, path without
 * its query, status, duration, user id), and errors log a cause's name, message and code,
 * never a request body. The redact list is a second guard should a field of that name ever
 * be logged by mistake.
 */
export const REDACTED_KEYS = ['password', 'confirmPassword', 'token', 'cookie', 'authorization', 'sessionSecret', 'image', 'photo'];

/**
 * Characters JSON leaves raw that still break or disguise a line for whoever reads the log: DEL
 * and the C1 controls (NEL, U+0085, among them), the line and paragraph separators U+2028 and
 * U+2029, and the bidi controls (core/plain-text.ts says why). Names are cleaned before they are
 * logged; this is the second guard, for any text in any field. They can only stand inside a JSON
 * string, where `\uXXXX` is the same character: the line parses to the same value.
 */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function escapeLineBreakers(line: string): string {
  return line.replace(RAW_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'treeanalyzer' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_KEYS.flatMap((key) => [key, `*.${key}`]), censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: escapeLineBreakers },
    },
    options.destination,
  );
}

/**
 * Standard output (or a file), written in batches: lines gather up to 4 KB and go out in
 * one write, and at least once a second, and whatever is left is written when the process
 * exits (pino flushes an asynchronous destination on exit). One write per line was the
 * largest single cost of a signed-in read on this kind of box, about 40 µs;
 * pino's documentation recommends this for production. A SIGKILL may lose the last second.
 */
export function batchedDestination(dest: number | string = 1, flushEveryMs = 1000) {
  const stream = pino.destination({ dest, sync: false, minLength: 4096 });
  const timer = setInterval(() => {
    // Nothing to write yet (sonic-boom is still opening the file) is not an error.
    try {
      stream.flush();
    } catch {
      // The next tick or the exit flush writes it.
    }
  }, flushEveryMs);
  timer.unref();
  return stream;
}

/** What is safe to log about a thrown value: its name, message, code and HTTP status, and the same of its cause. */
export function describeError(err: unknown, depth = 0): Record<string, unknown> | string {
  if (err !== null && typeof err === 'object' && !(err instanceof Error)) {
    // A provider's summary (e.g. Stripe's type, code, status and request id): its plain values only.
    const plain = Object.entries(err).filter(([key, v]) => !REDACTED_KEYS.includes(key) && ['string', 'number', 'boolean'].includes(typeof v));
    return Object.fromEntries(plain.slice(0, 10));
  }
  if (!(err instanceof Error)) return String(err);
  const fields = err as Error & { code?: unknown; status?: unknown; statusCode?: unknown; cause?: unknown };
  const out: Record<string, unknown> = { name: err.name, message: err.message };
  if (typeof fields.code === 'string' || typeof fields.code === 'number') out.code = fields.code;
  const status = fields.status ?? fields.statusCode;
  if (typeof status === 'number') out.status = status;
  if (fields.cause !== undefined && depth < 3) out.cause = describeError(fields.cause, depth + 1);
  return out;
}
