import { randomUUID } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface MailCatcher {
  port: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback that accepts every message and writes its raw text
 * to `mailDir`, one `.eml` file per message. File names start with the receipt time
 * (zero-padded milliseconds) so sorting them by name sorts them by arrival.
 * No TLS and no required auth: the app's nodemailer transport talks plain SMTP to it.
 * Addresses at refused.test are refused (451) for good.
 */
export async function startMailCatcher(mailDir: string): Promise<MailCatcher> {
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'e2e' });
    },
    // A mailbox whose server is busy: every message to an address at refused.test is refused with a
    // temporary error, as a real server under load or greylisting answers (e2e/mail-outbox.spec.ts).
    onRcptTo(address, _session, callback) {
      if (address.address.toLowerCase().endsWith('@refused.test')) {
        return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const name = `${String(Date.now()).padStart(15, '0')}-${randomUUID()}.eml`;
        const partial = join(mailDir, `.${name}.part`);
        // Write then rename, so a reader polling the folder never sees half a message.
        writeFile(partial, Buffer.concat(chunks))
          .then(() => rename(partial, join(mailDir, name)))
          .then(() => callback(), callback);
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
