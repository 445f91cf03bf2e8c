import { z } from 'zod';

/**
 * The outbox of e-mails as the API shows them (docs/product.md, E-mail that cannot be lost):
 * every outgoing message is a row, delivered by a worker and tried again for 48 hours, then given
 * up. Settings lists the account's messages not yet delivered and those given up, with "Send again".
 */

/**
 * composing: written, its attachment (a PDF) still being made; queued: waiting for its next try;
 * sending: claimed by a worker, in an SMTP conversation; sent: the mail server took it (250);
 * failed: given up after the schedule, or refused for good.
 */
export const MAIL_STATUSES = ['composing', 'queued', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** A message as the outbox keeps it: nodemailer's fields, attachments as base64. */
export interface StoredMail {
  to: string;
  from?: string;
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; contentType: string; base64: string }[];
}

/** How long a message is tried before it is given up (the "at least 48 hours"). */
export const MAIL_GIVE_UP_AFTER_MS = 48 * 60 * 60 * 1000;

/**
 * The wait before the try after `tries` failed ones: one minute, doubling, at most four hours.
 * RFC 5321 4.5.4.1 asks a sender to wait at least 30 minutes between tries to one place once it
 * has failed; the first few are sooner because a mail server refusing for a moment (a greylist,
 * a restart) usually takes the message a minute later, and a customer waits on it.
 */
export function mailRetryDelayMs(tries: number, firstMs = 60_000): number {
  const capMs = 4 * 60 * 60 * 1000;
  return Math.min(capMs, firstMs * 2 ** Math.max(0, Math.min(tries - 1, 30)));
}

/** One message in Settings' list: to whom, what, how often tried, why not yet, and when next. */
export const outboxMailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  /** waiting: not delivered yet, tried again by itself; failed: given up, sent only by "Send again". */
  state: z.enum(['waiting', 'failed']),
  tries: z.number().int(),
  lastError: z.string().nullable(),
  /** ISO time of the next try; null once given up. */
  nextTryAt: z.string().nullable(),
  createdAt: z.string(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const outboxListSchema = z.object({ mails: z.array(outboxMailSchema) });
export type OutboxList = z.infer<typeof outboxListSchema>;

/** The state shown for a row's status: everything not sent and not given up is waiting. */
export function outboxState(status: MailStatus): OutboxMail['state'] | null {
  if (status === 'sent') return null;
  return status === 'failed' ? 'failed' : 'waiting';
}
