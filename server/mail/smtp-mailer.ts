import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';
import { loadNodemailer } from './nodemailer';
import { mailOptions } from './sender';

/** Sends by SMTP with nodemailer; SMTP_URL such as smtp://user:pass@host:587 or smtps://host:465. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  let transport: Transporter | undefined;
  return {
    kind: 'smtp',
    async send(message: MailMessage) {
      transport ??= (await loadNodemailer()).createTransport(smtpUrl);
      await transport.sendMail(mailOptions(message, from));
    },
    close: () => transport?.close(),
  };
}
