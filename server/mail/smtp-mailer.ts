import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';

/** Sends by SMTP with nodemailer; SMTP_URL such as smtp://user:pass@host:587 or smtps://host:465. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      await transport.sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}
