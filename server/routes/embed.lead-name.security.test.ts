import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantTo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { newAccount, startTestServer, TestClient, type TestServer } from '../../testing/harness';
import { decodeQuotedPrintable, mailSettled } from '../../testing/mail';

/**
 * A name's line separators, controls and bidi characters never reach an e-mail subject or the
 * log (docs/security.md): U+2028, U+0085 and U+202E in a visitor's name passed into the owner's subject
 * and the log line that records it, where U+2028 and U+0085 start a new line in some viewers and
 * U+202E shows what follows it reversed.
 */
/** What must not stand raw in a subject or a log line (C0 controls cannot: JSON escapes them, and a header would be refused). */
const TRICKS = /[\u0085\u2028\u2029\u202e\u200f\u007f-\u009f]/;
let server: TestServer;
/** Every line exactly as the logger wrote it. */
const lines: string[] = [];
let owner: TestClient;
let ownerEmail: string;
let slug: string;

beforeAll(async () => {
  server = await startTestServer({}, {}, { write: (line: string) => void lines.push(line) });
  owner = new TestClient(server);
  // The first account (an admin) with the same tricks in its own name.
  const account = newAccount({ firstName: 'Ash\u2028Grove\u0085', lastName: '\u202eevorG' });
  ownerEmail = account.email;
  expect((await owner.post('/api/auth/register', account)).status).toBe(201);
  grantTo(server, account.username, 100);
  slug = (await createBusinessFor(owner)).slug;
});
afterAll(() => server.close());

/** A visitor's estimate, then "Request a quote" with the estimate's proof (its leadToken, when the answer carries one). */
async function estimateThenLead(name: string) {
  const answer = await visitorAnalyze(server, slug);
  expect(answer.status).toBe(201);
  const estimate = (await answer.json()) as { analysis: { id: number }; leadToken?: string };
  return visitorLead(server, slug, { analysisId: estimate.analysis.id, leadToken: estimate.leadToken, name, email: 'robin@example.com' });
}

const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a visitor named with line separators and bidi controls', () => {
  it('reaches the owner\'s subject and the log as one plain line', async () => {
    const lead = await estimateThenLead('Robin\u2028Bcc: boss@example.com\u0085Hart\u202egpj.exe');
    expect(lead.status).toBe(201);
    await mailSettled(server);

    const subject = 'from Robin Bcc: boss@example.com Hartgpj.exe';
    // The outbox's log line names the subject: cleaned.
    const mailLine = logged().find((line) => typeof line.subject === 'string' && line.subject.startsWith('New quote request'));
    expect(mailLine?.subject).toMatch(new RegExp(`${subject.replace(/[.]/g, '\\.')}$`));
    expect(mailLine?.subject).not.toMatch(TRICKS);
    // The message itself, as the owner's mail app gets it: the Subject header is one plain line.
    const outbox = join(server.dataDir, 'outbox');
    const raw = readdirSync(outbox).map((file) => Buffer.from(decodeQuotedPrintable(readFileSync(join(outbox, file), 'utf8')), 'latin1').toString('utf8'));
    // A long header is folded onto more lines; unfolding takes out the line break only (RFC 5322 2.2.3).
    const header = raw.map((message) => /^Subject: (.*)$/m.exec(message.replace(/\r?\n(?=[ \t])/g, ''))?.[1]).find((s) => s?.startsWith('New quote request'));
    expect(header).toMatch(new RegExp(`${subject.replace(/[.]/g, '\\.')}$`));
    // Not a line the logger wrote holds one of those characters raw.
    for (const line of lines) expect(line.slice(0, -1)).not.toMatch(TRICKS);
  });

  it('and an account\'s name reaches the admin\'s log as one plain line', async () => {
    const res = await owner.get('/api/admin/log-accounts');
    expect(res.status).toBe(200);
    const account = logged().find((line) => line.event === 'admin.account' && line.email === ownerEmail);
    expect(account).toMatchObject({ firstName: 'Ash Grove', lastName: 'evorG', fullName: 'Ash Grove evorG' });
    for (const line of lines) expect(line.slice(0, -1)).not.toMatch(TRICKS);
  });
});
