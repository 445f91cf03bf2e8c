import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Reads the newest message written to the outbox and returns its raw text (quoted-printable decoded). */
export function newestOutboxMessage(dataDir: string): string {
  const dir = join(dataDir, 'outbox');
  const files = readdirSync(dir).sort();
  const last = files[files.length - 1];
  if (!last) throw new Error('outbox is empty');
  return decodeQuotedPrintable(readFileSync(join(dir, last), 'utf8'));
}

/**
 * Every message in the outbox, oldest first: as written (`raw`, base64 parts such as an attached
 * PDF intact) and as `text` (quoted-printable decoded, read as UTF-8).
 */
export function outboxMessages(dataDir: string): { raw: string; text: string }[] {
  const dir = join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((file) => {
    const raw = readFileSync(join(dir, file), 'utf8');
    return { raw, text: Buffer.from(decodeQuotedPrintable(raw), 'latin1').toString('utf8') };
  });
}

export function outboxCount(dataDir: string): number {
  try {
    return readdirSync(join(dataDir, 'outbox')).length;
  } catch {
    return 0;
  }
}

export function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The reset token from the link in a reset e-mail. */
export function resetTokenFrom(message: string): string {
  const match = message.match(/reset-password\?token=([A-Za-z0-9_%-]+)/);
  if (!match?.[1]) throw new Error('no reset link in message');
  return decodeURIComponent(match[1]);
}

/**
 * Waits until the app's background work is done: its mail (password resets, lead e-mails) sent or
 * given up, whatever else it started in the background finished (server/ops/background.ts).
 */
export function mailSettled(server: { app: { idle(): Promise<void> } }): Promise<void> {
  return server.app.idle();
}

/**
 * The lead e-mail to `ownerEmail` that names `visitor`, once background mail has settled, as
 * UTF-8 text (quoted-printable decodes to bytes; the £ sign is two of them).
 */
export async function leadMailFor(server: { app: { idle(): Promise<void> }; dataDir: string }, ownerEmail: string, visitor: string): Promise<string> {
  await mailSettled(server);
  const dir = join(server.dataDir, 'outbox');
  for (const file of readdirSync(dir)) {
    const raw = Buffer.from(decodeQuotedPrintable(readFileSync(join(dir, file), 'utf8')), 'latin1').toString('utf8');
    if (addressedTo(raw, ownerEmail) && raw.includes(`from ${visitor}`)) return raw;
  }
  throw new Error(`no lead e-mail from ${visitor}`);
}

/**
 * Whether a message's own To header names `email`. A plain `includes('To: …')` also matches the
 * Reply-To header, which names the business owner on every customer's e-mail.
 */
export function addressedTo(message: string, email: string): boolean {
  const headers = message.split(/\r?\n\r?\n/, 1)[0] ?? '';
  return /^To: (.*)$/m.exec(headers)?.[1]?.includes(email) ?? false;
}
