import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../log';
import type { Mailer, MailMessage } from './mailer';
import { loadNodemailer } from './nodemailer';
import { mailOptions } from './sender';

/**
 * With no SMTP server configured, each message is built by nodemailer exactly as it
 * would be sent and written to DATA_DIR/outbox/ as an .eml file (opens in any mail app),
 * readable only by the server's user. The log says where each one is, never what it says:
 * a password reset's link stays in the file.
 */
export function createOutboxMailer(outboxDir: string, from: string, logger: Logger): Mailer {
  let transport: Transporter | undefined;
  return {
    kind: 'outbox',
    async send(message: MailMessage) {
      transport ??= (await loadNodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await transport.sendMail(mailOptions(message, from));
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = join(outboxDir, name);
      // Written whole beside the outbox, then renamed in: a reader (a mail app, the operator, a
      // test) never finds half a message there.
      const partial = join(dirname(outboxDir), '.outbox-partial');
      await mkdir(partial, { recursive: true, mode: 0o700 });
      await writeFile(join(partial, name), info.message as Buffer, { mode: 0o600 });
      await rename(join(partial, name), file);
      logger.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox (set SMTP_URL to send it)');
    },
  };
}
