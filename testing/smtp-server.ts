import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { decodeQuotedPrintable } from './mail';

/**
 * A real SMTP server on loopback whose answer the test sets: `accept` (250), `refuse` (451, "try
 * again later", a temporary refusal a sender must retry), or `hold` (reads the whole message and
 * never answers, as a mail server hanging mid-conversation: a sender killed then has no 250).
 * `acceptThen(n, mode)` takes the next n messages, then switches. What it took is kept, each
 * with its Message-ID.
 */
export type SmtpMode = 'accept' | 'refuse' | 'hold';

export interface ReceivedMail {
  to: string[];
  messageId: string;
  subject: string;
  /** Quoted-printable decoded. */
  text: string;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** Temporary refusals answered so far. */
  refusals(): number;
  /** Messages read whole and never answered so far. */
  held(): number;
  setMode(mode: SmtpMode): void;
  acceptThen(count: number, mode: SmtpMode): void;
  close(): Promise<void>;
}

const header = (raw: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw.split(/\r?\n\r?\n/, 1)[0] ?? '')?.[1]?.trim() ?? '';

export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  let mode: SmtpMode = 'accept';
  let acceptLeft = Infinity;
  let after: SmtpMode = 'accept';
  let refusals = 0;
  const held: ((err?: Error) => void)[] = [];
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 20 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const now = acceptLeft > 0 ? mode : after;
        if (now === 'refuse') {
          refusals += 1;
          return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        }
        if (now === 'hold') return void held.push(callback);
        acceptLeft -= 1;
        if (acceptLeft === 0) mode = after;
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), messageId: header(raw, 'Message-ID'), subject: header(raw, 'Subject'), text: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refusals: () => refusals,
    held: () => held.length,
    setMode(next) {
      mode = next;
      acceptLeft = Infinity;
    },
    acceptThen(count, next) {
      mode = 'accept';
      acceptLeft = count;
      after = next;
    },
    close() {
      // A held conversation whose sender is still there is answered with a refusal, so closing ends.
      for (const callback of held.splice(0)) callback(Object.assign(new Error('Closing'), { responseCode: 421 }));
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
