import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, mailSettled, resetTokenFrom } from '../../testing/mail';
import { registerClient, startTestServer, TestClient, type TestServer } from '../../testing/harness';

/** A real SMTP server on loopback that keeps what it receives. */
const received: { to: string[]; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: decodeQuotedPrintable(raw) });
      callback();
    });
  },
});

let server: TestServer;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Trees <no-reply@trees.test>' });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('SMTP mailer', () => {
  it('sends the reset e-mail through SMTP with a working link', async () => {
    const { account } = await registerClient(server, { firstName: 'Rowan' });
    const res = await new TestClient(server).post('/api/auth/forgot-password', { email: account.email });
    expect(res.status).toBe(200);
    expect(server.mailer.kind).toBe('smtp');
    await mailSettled(server);
    const mail = received.find((m) => m.to.includes(account.email));
    expect(mail?.raw).toContain('From: Trees <no-reply@trees.test>');
    expect(mail?.raw).toContain('Subject: Reset your TreeAnalyzer Pro password');
    expect(mail?.raw).toContain('Hello Rowan,');
    const token = resetTokenFrom(mail?.raw ?? '');
    const done = await new TestClient(server).post('/api/auth/reset-password', {
      token,
      password: 'via smtp ok',
      confirmPassword: 'via smtp ok',
    });
    expect(done.status).toBe(200);
  });

  it("sends a business's message as the install's address with the business's name, and replies to the business", async () => {
    await server.mailer.send({ to: 'jo@home.test', from: 'Oak & Ash\r\nBcc: x@evil.test', replyTo: 'office@oakandash.test', subject: 'Your quote request', text: 'Thank you' });
    const mail = received.find((m) => m.to.includes('jo@home.test'));
    // A line break in a name is a space: it adds no header.
    expect(mail?.raw).toContain('From: "Oak & Ash Bcc: x@evil.test" <no-reply@trees.test>');
    expect(mail?.raw).toContain('Reply-To: office@oakandash.test');
    expect(mail?.raw).not.toMatch(/^Bcc:/m);
    expect(mail?.to).toEqual(['jo@home.test']);
  });
});
