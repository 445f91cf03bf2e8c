import { readdirSync, readFileSync } from 'node:fs';
import { LEAD_MAIL_WINDOW_MS, sendHeldLeadUpdates } from '../businesses/lead-mail';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadListSchema } from '../../core/business';
import { EMBED_BUSY_MESSAGE, ESTIMATE_NOT_FOUND, LEAD_THANKS } from '../../core/embed';
import { errorBodySchema } from '../../core/errors';
import { findUserByUsername } from '../accounts/users';
import { estimateTokens } from '../../db/schema';
import { balanceOf } from '../credits/ledger';
import { ESTIMATE_TOKEN_TTL_MS } from '../analysis/estimate-tokens';
import { RateLimits } from '../http/rate-limit';
import { grantTo, photo } from '../../testing/analysis';
import { createBusinessFor, visitorAnalyze, visitorLead } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { addressedTo, decodeQuotedPrintable, mailSettled, outboxCount } from '../../testing/mail';

/*
 * The public estimator as an attacker tries it: a quote request for a guessed estimate id, a
 * token of another estimate or business, junk bodies meant to spend a business's limits, and
 * addresses from one IPv6 network. Visitors are told apart by X-Forwarded-For behind a trusted
 * proxy, with the production limits.
 */
const SMALL_PHOTO = photo('redbud-small-tree.jpg');

let server: TestServer;
let owner: TestClient;
let ownerName: string;
let ownerEmail: string;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true' }, { rateLimits: new RateLimits() });
  const registered = await registerClient(server);
  owner = registered.client;
  ownerName = registered.account.username;
  ownerEmail = registered.account.email;
  grantTo(server, ownerName, 2000);
});
afterAll(() => server.close());

const from = (address: string) => ({ 'x-forwarded-for': address, origin: 'https://oakandash.example' });

/** A visitor's estimate from `address`, with the token the widget keeps. */
async function estimate(slug: string, address: string): Promise<{ analysisId: number; leadToken: string }> {
  const res = await visitorAnalyze(server, slug, { image: SMALL_PHOTO }, from(address));
  expect(res.status, await res.clone().text()).toBe(201);
  const body = (await res.json()) as { analysis: { id: number }; leadToken: string };
  return { analysisId: body.analysis.id, leadToken: body.leadToken };
}

async function leadsOf(businessId: number) {
  return leadListSchema.parse(await (await owner.get(`/api/businesses/${businessId}/leads`)).json()).leads;
}

describe("a stranger cannot take a visitor's quote request", () => {
  it('refuses a guessed id, a made-up token and another estimate\'s token with one and the same 404; the real visitor still sends theirs', async () => {
    const business = await createBusinessFor(owner);
    const real = await estimate(business.slug, '203.0.113.20');
    const other = await estimate(business.slug, '203.0.113.21');
    const stranger = from('198.51.100.66');
    const spam = { name: 'Spam', email: 'spam@example.com' };

    // The measured attack: the id alone (as it was enough before).
    const bare = await visitorLead(server, business.slug, { analysisId: real.analysisId, ...spam }, stranger);
    expect(bare.status).toBe(400);
    expect(Object.keys(errorBodySchema.parse(await bare.json()).details ?? {})).toContain('leadToken');

    const answers: unknown[] = [];
    for (const attempt of [
      { analysisId: real.analysisId, leadToken: 'A'.repeat(43) },
      { analysisId: real.analysisId, leadToken: other.leadToken },
      { analysisId: 9_999_999, leadToken: real.leadToken.slice(0, -1) + 'x' },
      { analysisId: real.analysisId + 1000, leadToken: real.leadToken },
    ]) {
      const res = await visitorLead(server, business.slug, { ...attempt, ...spam }, stranger);
      expect(res.status).toBe(404);
      answers.push(await res.json());
    }
    // No oracle: an existing id of this business reads exactly like one nobody has.
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({ message: ESTIMATE_NOT_FOUND, code: 'NOT_FOUND' });
    expect(await leadsOf(business.id)).toEqual([]);

    const sent = await visitorLead(server, business.slug, { ...real, name: 'Real Visitor', email: 'real@example.com' }, from('203.0.113.20'));
    expect(sent.status).toBe(201);
    expect(await sent.json()).toEqual({ message: LEAD_THANKS, outsideArea: false, reference: expect.stringMatching(/^R-\d{6}$/) });
    expect((await leadsOf(business.id)).map((l) => l.name)).toEqual(['Real Visitor']);
  });

  it("refuses another business's estimate with its own token, as the same 404", async () => {
    const mine = await createBusinessFor(owner);
    const theirs = await createBusinessFor(owner);
    const proof = await estimate(theirs.slug, '203.0.113.30');
    const res = await visitorLead(server, mine.slug, { ...proof, name: 'Jo', email: 'jo@example.com' }, from('203.0.113.30'));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: ESTIMATE_NOT_FOUND, code: 'NOT_FOUND' });
    expect(await leadsOf(mine.id)).toEqual([]);
    expect(await leadsOf(theirs.id)).toEqual([]);
  });

  it('keeps only a hash of the token, and a token past its day proves nothing', async () => {
    const business = await createBusinessFor(owner);
    const proof = await estimate(business.slug, '203.0.113.40');
    expect(proof.leadToken).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits, base64url
    const stored = server.db.select().from(estimateTokens).all();
    expect(stored.some((row) => row.tokenHash === proof.leadToken)).toBe(false);
    expect(JSON.stringify(stored)).not.toContain(proof.leadToken);

    server.clock.advance(ESTIMATE_TOKEN_TTL_MS + 1000);
    try {
      const late = await visitorLead(server, business.slug, { ...proof, name: 'Late', email: 'late@example.com' }, from('203.0.113.40'));
      expect(late.status).toBe(404);
      expect(await late.json()).toEqual({ message: ESTIMATE_NOT_FOUND, code: 'NOT_FOUND' });
    } finally {
      server.clock.advance(-(ESTIMATE_TOKEN_TTL_MS + 1000));
    }
  });

  it('a second request for the same estimate updates the first: one lead, the new details, the owner told again when the ten minutes of the first e-mail have passed', async () => {
    const business = await createBusinessFor(owner);
    const proof = await estimate(business.slug, '203.0.113.50');
    await mailSettled(server);
    const mails = outboxCount(server.dataDir);
    const first = await visitorLead(server, business.slug, { ...proof, name: 'Sam', phone: '07700 900111' }, from('203.0.113.50'));
    expect(first.status).toBe(201);
    const again = await visitorLead(server, business.slug, { ...proof, name: 'Sam Birch', phone: '07700 900222', note: 'Mornings' }, from('203.0.113.50'));
    expect(again.status).toBe(200);
    const leads = await leadsOf(business.id);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ name: 'Sam Birch', phone: '07700 900222', note: 'Mornings', analysisId: proof.analysisId });
    await mailSettled(server);
    // Told of the update once ten minutes have passed since the first e-mail (server/businesses/lead-mail.ts).
    expect(outboxCount(server.dataDir)).toBe(mails + 1);
    server.clock.advance(LEAD_MAIL_WINDOW_MS);
    expect(sendHeldLeadUpdates(server)).toBe(1);
    await mailSettled(server);
    expect(outboxCount(server.dataDir)).toBe(mails + 2);
    const updatedMail = readOutbox(server.dataDir).find((m) => m.includes('Subject: Updated quote request') && m.includes('from Sam Birch'));
    expect(updatedMail).toContain('they replace the ones sent before');
    expect(updatedMail).toContain('07700 900222');
    // The funnel counts the lead once.
    const funnel = (await (await owner.get(`/api/businesses/${business.id}/funnel?days=1`)).json()) as { days: { leads: number }[] };
    expect(funnel.days[0]!.leads).toBe(1);
  });
});

describe('junk spends no estimate limit', () => {
  it('30 junk bodies from three addresses leave the business available, and a real visitor still gets a price', async () => {
    const business = await createBusinessFor(owner);
    const ownerId = findUserByUsername(server.db, ownerName)!.id;
    const before = balanceOf(server.db, ownerId);
    const junk = ['192.0.2.1', '192.0.2.2', '192.0.2.3'];
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i += 1) {
      const res = await fetch(`${server.url}/api/analyze-tree?businessSlug=${business.slug}`, {
        method: 'POST',
        headers: { ...from(junk[i % 3]!), 'content-type': 'text/plain' },
        body: 'not a form',
      });
      statuses.add(res.status);
    }
    expect([...statuses]).toEqual([415]);
    expect(balanceOf(server.db, ownerId)).toBe(before);

    const lookup = await fetch(`${server.url}/api/businesses/${business.slug}`, { headers: from('203.0.113.60') });
    expect((await lookup.json()).status).toBe('available');
    // A real visitor, and one of the junk addresses itself once it sends a real photo.
    await estimate(business.slug, '203.0.113.60');
    await estimate(business.slug, junk[0]!);
    expect(balanceOf(server.db, ownerId)).toBe(before - 20);
  });

  it('an address sending junk meets its own limit, before its bodies are read; other visitors do not', async () => {
    const business = await createBusinessFor(owner);
    const sender = from('192.0.2.77');
    let last: Response | undefined;
    for (let i = 0; i < 31; i += 1) {
      last = await fetch(`${server.url}/api/analyze-tree?businessSlug=${business.slug}`, {
        method: 'POST',
        headers: { ...sender, 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x\r\nContent-Disposition: form-data; name="unknown"\r\n\r\nz\r\n--x--\r\n',
      });
      if (last.status === 429) break;
    }
    expect(last?.status).toBe(429);
    expect(errorBodySchema.parse(await last!.json()).code).toBe('RATE_LIMITED');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Its quote requests and events are refused too, while it is limited.
    expect((await visitorLead(server, business.slug, { analysisId: 1, leadToken: 'x', name: 'Jo', email: 'jo@example.com' }, sender)).status).toBe(429);
    // Another address, same business: a price.
    await estimate(business.slug, '203.0.113.61');
  });

  it('an image that passes its header but will not decode gives the visitor and the business their points back', async () => {
    const limits = new RateLimits({ embedAnalysesPerAddress: { points: 2, windowSeconds: 3600 } });
    const strict = await startTestServer({ TRUST_PROXY: 'true' }, { rateLimits: limits });
    try {
      const { client, account } = await registerClient(strict);
      grantTo(strict, account.username, 100);
      const business = await createBusinessFor(client);
      // A JPEG cut off after its first 2 KB: the header is whole, the pixels are not.
      const broken = SMALL_PHOTO.subarray(0, 2048);
      for (let i = 0; i < 3; i += 1) {
        const res = await visitorAnalyze(strict, business.slug, { image: broken }, from('203.0.113.70'));
        expect(res.status).toBe(400);
      }
      expect(await limits.count('embedAnalysesPerAddress', '203.0.113.70')).toBe(0);
      expect(await limits.count('embedAnalysesPerBusiness', String(business.id))).toBe(0);
      expect((await visitorAnalyze(strict, business.slug, { image: SMALL_PHOTO }, from('203.0.113.70'))).status).toBe(201);
    } finally {
      await strict.close();
    }
  });
});

describe('addresses counted as networks', () => {
  it('every address of one IPv6 /64 shares one visitor limit; the next /64 is another visitor', async () => {
    const business = await createBusinessFor(owner);
    for (let i = 1; i <= 10; i += 1) {
      const res = await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, from(`2001:db8:aa:1::${i.toString(16)}`));
      expect(res.status).toBe(201);
    }
    const refused = await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, from('2001:db8:aa:1:ffff:1234:5678:9abc'));
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe('VISITOR_LIMIT');
    expect((await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, from('2001:db8:aa:2::1'))).status).toBe(201);
  });
});

describe('the owner is told when the estimator turns visitors away', () => {
  it("says busy while the business's rate is spent, and e-mails the owner once a day with the counts", async () => {
    const busy = await startTestServer(
      { TRUST_PROXY: 'true' },
      { rateLimits: new RateLimits({ embedAnalysesPerBusiness: { points: 2, windowSeconds: 600 } }) },
    );
    try {
      const { client, account } = await registerClient(busy);
      grantTo(busy, account.username, 100);
      const business = await createBusinessFor(client, { name: 'Busy Birches' });
      const status = async () => ((await (await fetch(`${busy.url}/api/businesses/${business.slug}`)).json()) as { status: string }).status;
      for (const address of ['203.0.113.81', '203.0.113.82']) {
        expect((await visitorAnalyze(busy, business.slug, { image: SMALL_PHOTO }, from(address))).status).toBe(201);
      }
      expect(await status()).toBe('busy');
      await mailSettled(busy);
      const mailsBefore = outboxCount(busy.dataDir);
      for (const address of ['203.0.113.83', '203.0.113.84', '203.0.113.85']) {
        const refused = await visitorAnalyze(busy, business.slug, { image: SMALL_PHOTO }, from(address));
        expect(refused.status).toBe(429);
        expect((await refused.json()).message).toBe(EMBED_BUSY_MESSAGE);
      }
      await mailSettled(busy);
      expect(outboxCount(busy.dataDir)).toBe(mailsBefore + 1);
      const mail = noticeFor(busy.dataDir, account.email);
      expect(mail).toContain('Subject: Your estimator for Busy Birches is turning visitors away');
      expect(mail).toContain('reached its limit of 2 estimates in 10 minutes');
      expect(mail).toMatch(/Estimates \(10 credits each\): 2/);
      expect(mail).toMatch(/Visitors turned away so far: 1/);
      const funnel = (await (await client.get(`/api/businesses/${business.id}/funnel?days=1`)).json()) as { days: { turnedAway: number }[] };
      expect(funnel.days[0]!.turnedAway).toBe(3);

      // The next UTC day, a new notice may go.
      busy.clock.advance(24 * 60 * 60 * 1000);
      // Still busy (the in-memory window does not follow the injected clock): refused again, told again.
      expect((await visitorAnalyze(busy, business.slug, { image: SMALL_PHOTO }, from('203.0.113.86'))).status).toBe(429);
      await mailSettled(busy);
      expect(outboxCount(busy.dataDir)).toBe(mailsBefore + 2);
    } finally {
      await busy.close();
    }
  });

  it('e-mails the owner when the daily cap is reached, once', async () => {
    const business = await createBusinessFor(owner, { name: 'Capped Cedars', dailyCap: 1 });
    await estimate(business.slug, '203.0.113.90');
    await mailSettled(server);
    const before = outboxCount(server.dataDir);
    for (const address of ['203.0.113.91', '203.0.113.92']) {
      expect((await visitorAnalyze(server, business.slug, { image: SMALL_PHOTO }, from(address))).status).toBe(429);
    }
    await mailSettled(server);
    expect(outboxCount(server.dataDir)).toBe(before + 1);
    const mail = noticeFor(server.dataDir, ownerEmail, 'Capped Cedars');
    expect(mail).toContain('reached its daily cap of 1 estimate today');
    expect(mail).toContain('Allowed site origins');
  });
});

/** The newest limit notice to `to` (about `business` when given), as text. */
function noticeFor(dataDir: string, to: string, business?: string): string {
  const found = readOutbox(dataDir).filter((m) => addressedTo(m, to) && m.includes('turning visitors away') && (!business || m.includes(business)));
  if (found.length === 0) throw new Error('no limit notice');
  return found[found.length - 1]!;
}

function readOutbox(dataDir: string): string[] {
  const dir = join(dataDir, 'outbox');
  return readdirSync(dir)
    .sort()
    .map((file) => Buffer.from(decodeQuotedPrintable(readFileSync(join(dir, file), 'utf8')), 'latin1').toString('utf8').replace(/\r?\n[ \t]/g, ' '));
}
