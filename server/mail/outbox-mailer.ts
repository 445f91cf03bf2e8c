import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';
import { loadNodemailer } from './nodemailer';

/**
 * With no SMTP server configured, each message is built by nodemailer exactly as it
 * would be sent and written to DATA_DIR/outbox/ as an .eml file (opens in any mail app).
 */
export function createOutboxMailer(outboxDir: string, from: string): Mailer {
  let transport: Transporter | undefined;
  return {
    kind: 'outbox',
    async send(message: MailMessage) {
      transport ??= (await loadNodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await transport.sendMail({ from, ...message });
      await mkdir(outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = join(outboxDir, name);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      console.log(JSON.stringify({ level: 'info', msg: 'mail written to outbox', to: message.to, subject: message.subject, file }));
    },
  };
}
