import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { e2eEnv } from './rig/env';

export interface CaughtMail {
  file: string;
  receivedAt: number;
  mail: ParsedMail;
}

function recipients(mail: ParsedMail): string[] {
  const lists: AddressObject[] = [mail.to, mail.cc, mail.bcc]
    .flatMap((a) => (a === undefined ? [] : Array.isArray(a) ? a : [a]));
  return lists.flatMap((list) => list.value.map((v) => (v.address ?? '').toLowerCase()));
}

/**
 * Waits (polling, bounded) for the newest message to `address` that the mail catcher
 * received at or after `since` (epoch ms), and whose subject matches `subject` when given,
 * and returns it parsed (quoted-printable, base64 and multipart decoded by mailparser).
 */
export async function waitForMail(
  address: string,
  { since = 0, timeoutMs = 15_000, subject }: { since?: number; timeoutMs?: number; subject?: RegExp } = {},
): Promise<CaughtMail> {
  const mailDir = e2eEnv('mailDir');
  const wanted = address.toLowerCase();
  const deadline = Date.now() + timeoutMs;
  const checked = new Set<string>();
  for (;;) {
    const files = (await readdir(mailDir)).filter((f) => f.endsWith('.eml')).sort().reverse();
    for (const file of files) {
      const receivedAt = Number(file.split('-')[0]);
      if (receivedAt < since) break;
      if (checked.has(file)) continue;
      checked.add(file);
      const mail = await simpleParser(await readFile(join(mailDir, file)));
      if (recipients(mail).includes(wanted) && (!subject || subject.test(mail.subject ?? ''))) return { file, receivedAt, mail };
    }
    if (Date.now() > deadline) {
      throw new Error(`No e-mail to ${address}${subject ? ` with a subject like ${subject}` : ''} arrived within ${timeoutMs / 1000} s (${files.length} caught in all).`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The password reset link in a mail: the text part first, then the HTML links. */
export function resetLinkIn(mail: ParsedMail): URL {
  const pattern = /https?:\/\/[^\s"'<>]+\/reset-password\?token=[^\s"'<>]+/;
  const html = typeof mail.html === 'string' ? mail.html.replace(/&amp;/g, '&') : '';
  const found = pattern.exec(mail.text ?? '')?.[0] ?? pattern.exec(html)?.[0];
  if (!found) {
    throw new Error(`No reset link in the mail "${mail.subject ?? ''}":\n${mail.text ?? html}`);
  }
  return new URL(found);
}

export async function waitForResetLink(address: string, opts?: { since?: number; timeoutMs?: number }): Promise<URL> {
  const { mail } = await waitForMail(address, opts);
  return resetLinkIn(mail);
}
