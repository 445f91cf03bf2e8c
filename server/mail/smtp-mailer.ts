import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';
import { loadNodemailer } from './nodemailer';
import { mailOptions } from './sender';

/**
 * Sends by SMTP with nodemailer; SMTP_URL such as smtp://user:pass@host:587 or smtps://host:465.
 * A conversation waits on the server at most `timeoutMs` at each step (nodemailer's own defaults
 * are 2 minutes to connect and 10 of silence), so the outbox's claim on a message outlasts it
 * (server/mail/outbox-worker.ts).
 */
export function createSmtpMailer(smtpUrl: string, from: string, timeoutMs = 60_000): Mailer {
  let transport: Transporter | undefined;
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      transport ??= (await loadNodemailer()).createTransport({ url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
      await transport.sendMail(mailOptions(message, from));
    },
    close: () => transport?.close(),
  };
}
