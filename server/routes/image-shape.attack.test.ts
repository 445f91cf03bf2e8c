import { existsSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsResponseSchema } from '../../core/settings';
import { PHOTO_SHAPE } from '../../core/image-shape';
import { findUserByUsername } from '../accounts/users';
import { MAX_INPUT_PIXELS } from '../images/normalise';
import { uploadsDir } from '../analysis/store';
import { embedAnalysesToday } from '../analysis/embed-usage';
import { balanceOf, ledgerSum } from '../credits/ledger';
import { RateLimits } from '../http/rate-limit';
import { getCompanyProfile } from '../settings/settings';
import { logosDir } from '../settings/logo';
import { grantTo, photo } from '../../testing/analysis';
import { createBusinessFor } from '../../testing/business';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { multipartBody, send, type Answer, type RawPart } from '../../testing/hostile-upload';
import { pixelFlood } from '../../testing/images';
import { logoForm, testLogoPng } from '../../testing/logo';
import { cpuMsWhile } from '../../testing/cpu-time';

/*
 * Image shapes refused before decoding (docs/security.md, Image shapes), against the
 * real server over HTTP. The attacker's file: a valid PNG of 1 x 39,000,000 px (76 KB), which
 * passed the 40-megapixel check and cost libvips 6-12 s to decode, and its wide twin of
 * 39,000,000 x 1 px (5 KB, 1-2 s). Sent as a visitor's photo through a business's estimator,
 * as a signed-in user's photo and as a logo, each must be refused with its 4xx within a few
 * normal uploads' time, charging and storing nothing, and a paid analysis timed while bombs
 * keep arriving must leave each bomb as cheap. Every figure is CPU time, a ratio to a normal
 * paid analysis measured in this run: the work a request costs, which a busy box does not
 * change (the wall-clock pace under attack is bench/attacks.bench.ts's).
 */

/** A refusal may cost this many normal paid analyses' CPU; before the header check the tall PNG took about 130 (12.3 s against 96 ms). */
const NORMAL_UPLOADS = 3;
const CONCURRENT_BOMBS = 6;

const TALL = pixelFlood(1, 39_000_000);
const WIDE = pixelFlood(39_000_000, 1);
/** Within every edge limit, but 90 times as long as it is wide: no photo's shape. */
const NEEDLE = pixelFlood(100, 9_000);

let server: TestServer;
let limits: RateLimits;
let owner: TestClient;
let ownerId: number;
let businessId: number;
let slug: string;
/** The CPU time of a normal paid analysis, median of three: the yardstick. */
let normalMs: number;

const JPEG = photo('elm-beside-building.jpg');
const DESCRIPTION = 'oak, 16 inch trunk, 40 ft tall';

beforeAll(async () => {
  // The visitor's limits raised so the attack reaches the upload reader every time, as the fuzz
  // suite does (malformedPerAddress would otherwise turn the visitor's bombs away unread after
  // 30, which is its job but not what is measured here); the logo's limit is the real one.
  const plenty = { points: 100_000, windowSeconds: 3600 };
  limits = new RateLimits({ embedAnalysesPerAddress: plenty, embedAnalysesPerBusiness: plenty, malformedPerAddress: plenty });
  server = await startTestServer({}, { rateLimits: limits });
  const registered = await registerClient(server);
  owner = registered.client;
  ownerId = findUserByUsername(server.db, registered.account.username)!.id;
  grantTo(server, registered.account.username, 100_000);
  const business = await createBusinessFor(owner, { dailyCap: 1000 });
  slug = business.slug;
  businessId = business.id;
  normalMs = median(await timePaidAnalyses(3));
});
afterAll(() => server.close());

const signedIn = () => ({ cookie: owner.cookieHeader(), origin: server.origin, 'sec-fetch-site': 'same-origin' });
const WAYS = {
  visitor: () => ({ url: `${server.url}/api/analyze-tree?businessSlug=${slug}`, headers: { origin: 'https://anywhere.example' }, field: 'image' }),
  account: () => ({ url: `${server.url}/api/analyze-tree`, headers: signedIn(), field: 'image' }),
  logo: () => ({ url: `${server.url}/api/system-settings/logo`, headers: signedIn(), field: 'logo' }),
} as const;
type Way = keyof typeof WAYS;

function upload(way: Way, image: Buffer): Promise<Answer> {
  const { url, headers, field } = WAYS[way]();
  const parts: RawPart[] = [{ name: field, filename: 'image.png', headers: ['Content-Type: image/png'], content: image }];
  if (way !== 'logo') parts.push({ name: 'description', content: DESCRIPTION });
  return send(url, headers, multipartBody(parts));
}

/** A normal paid analysis on the dashboard, the yardstick: `count` of them one after another, each one's CPU time. */
async function timePaidAnalyses(count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const { value: answer, cpuMs } = await cpuMsWhile(() =>
      send(WAYS.account().url, signedIn(), multipartBody([
        { name: 'image', filename: 'tree.jpg', headers: ['Content-Type: image/jpeg'], content: JPEG },
        { name: 'description', content: DESCRIPTION },
      ])),
    );
    expect(answer.status, answer.body).toBe(201);
    times.push(cpuMs);
  }
  return times;
}

function median(times: number[]): number {
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** What a refused image must leave as it was: credits, analyses, reservations, the day's count, the business's rate, stored files, the logo. */
async function state() {
  const count = (table: string) => server.db.$client.prepare(`select count(*) from ${table}`).pluck().get() as number;
  const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).length : 0);
  return {
    balance: balanceOf(server.db, ownerId),
    ledger: ledgerSum(server.db, ownerId),
    analyses: count('tree_analyses'),
    reservations: count('analysis_reservations'),
    embedToday: embedAnalysesToday(server.db, server.clock, businessId),
    businessRate: await limits.count('embedAnalysesPerBusiness', String(businessId)),
    logoUploads: await limits.count('logoUploadsPerAccount', String(ownerId)),
    photos: files(uploadsDir(server.dataDir)),
    logos: files(logosDir(server.dataDir)),
    logoPath: getCompanyProfile(server.db, ownerId).logoPath,
  };
}

async function expectRefused(way: Way, image: Buffer, status: number, message: RegExp) {
  const before = await state();
  const { value: answer, cpuMs } = await cpuMsWhile(() => upload(way, image));
  expect(answer.status, answer.body).toBe(status);
  const body = JSON.parse(answer.body) as { code: string; message: string };
  expect(body.code).toBe(status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR');
  expect(body.message).toMatch(message);
  expect(cpuMs, `refused for ${Math.round(cpuMs)} ms of CPU; a normal paid analysis took ${Math.round(normalMs)} ms`).toBeLessThan(NORMAL_UPLOADS * normalMs);
  expect(await state()).toEqual(before);
}

describe('the attacker shapes, refused from the header', () => {
  it('are small files, as the attacker sends them', () => {
    expect(TALL.length).toBeLessThan(100 * 1024);
    expect(WIDE.length).toBeLessThan(10 * 1024);
    // Each passes the old 40-megapixel check: only the edge and aspect limits refuse it.
    expect(39_000_000).toBeLessThan(MAX_INPUT_PIXELS);
    expect(PHOTO_SHAPE.maxPixels).toBe(MAX_INPUT_PIXELS);
  });

  it.each(['visitor', 'account'] as const)('as a photo on the %s path: 413 at once, nothing charged or stored', async (way) => {
    await expectRefused(way, TALL, 413, /^This image is 1 x 39,000,000 pixels\. A photo may be at most 12,000 pixels on each side/);
    await expectRefused(way, WIDE, 413, /^This image is 39,000,000 x 1 pixels\. A photo may be at most 12,000 pixels on each side/);
    await expectRefused(way, NEEDLE, 400, /long side may be at most 8 times its short side: please crop it closer to the tree/);
  });

  it('as a logo: 413 at once, nothing stored, no point of the logo limit spent', async () => {
    await expectRefused('logo', TALL, 413, /A logo may be at most 4,000 pixels on each side/);
    await expectRefused('logo', WIDE, 413, /A logo may be at most 4,000 pixels on each side/);
    await expectRefused('logo', pixelFlood(4000, 300), 400, /long side may be at most 10 times its short side/);
    await expectRefused('logo', pixelFlood(3000, 3000), 413, /A logo may be at most 8 megapixels/);
  });

  it('an unreadable header is a 400 in words, before any decode', async () => {
    const noHeader = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);
    await expectRefused('account', noHeader, 400, /^We couldn't read that image\. Please upload a JPEG, PNG or WebP photo\.$/);
    await expectRefused('logo', noHeader, 400, /^We couldn't read that image\. Please upload a PNG, JPEG or WebP logo\.$/);
  });

  it('a real photo and a real logo still pass', async () => {
    const visitor = await send(WAYS.visitor().url, WAYS.visitor().headers, multipartBody([
      { name: 'image', filename: 'tree.jpg', headers: ['Content-Type: image/jpeg'], content: JPEG },
      { name: 'description', content: DESCRIPTION },
    ]));
    expect(visitor.status, visitor.body).toBe(201);
    const res = await owner.upload('/api/system-settings/logo', logoForm(await testLogoPng()));
    expect(res.status).toBe(200);
    expect(settingsResponseSchema.parse(await res.json()).companyProfile.logoUrl).toMatch(/^\/api\/system-settings\/logo\?v=/);
  });
});

describe('a paid analysis while bombs keep arriving', () => {
  it(`goes on, and each of ${CONCURRENT_BOMBS} bombs at a time on every way in costs less than ${NORMAL_UPLOADS} normal analyses' CPU`, async () => {
    const before = await state();
    const bombs: [Way, Buffer][] = [['visitor', TALL], ['account', TALL], ['logo', TALL], ['visitor', WIDE], ['account', WIDE], ['logo', WIDE]];
    let attacking = true;
    let sent = 0;
    const statuses = new Set<number>();
    const attackers = Array.from({ length: CONCURRENT_BOMBS }, async (_, i) => {
      for (let k = i; attacking; k += 1) {
        const [way, bomb] = bombs[k % bombs.length]!;
        statuses.add((await upload(way, bomb)).status);
        sent += 1;
      }
    });
    const { cpuMs } = await cpuMsWhile(async () => {
      // Let the attack get going, then three paid analyses while it goes on.
      while (sent < CONCURRENT_BOMBS) await new Promise((resolve) => setTimeout(resolve, 5));
      await timePaidAnalyses(3);
      attacking = false;
      await Promise.all(attackers);
    });

    expect([...statuses]).toEqual([413]);
    // What the attack window cost beyond the three analyses, per bomb. Decoding one cost about a
    // hundred analyses before the header check.
    const perBomb = Math.max(0, cpuMs - 3 * normalMs) / sent;
    expect(
      perBomb,
      `${sent} bombs and 3 paid analyses cost ${Math.round(cpuMs)} ms of CPU; one analysis alone ${Math.round(normalMs)} ms`,
    ).toBeLessThan(NORMAL_UPLOADS * normalMs);
    // Only the three paid analyses were charged and stored.
    const after = await state();
    expect(after.analyses).toBe(before.analyses + 3);
    expect(after.balance).toBe(before.balance - 30);
    expect(after).toMatchObject({ embedToday: before.embedToday, businessRate: before.businessRate, logoUploads: before.logoUploads, logos: before.logos });
  });
});

describe('the logo upload rate limit', () => {
  it('takes 10 logos an hour per account, counting only logos really decoded, then 429 with Retry-After in words', async () => {
    const { client } = await registerClient(server);
    const logo = logoForm(await testLogoPng());
    // Refused shapes first: they spend nothing.
    for (let i = 0; i < 12; i += 1) {
      const res = await client.upload('/api/system-settings/logo', logoForm(TALL));
      expect(res.status).toBe(413);
    }
    for (let i = 0; i < 10; i += 1) expect((await client.upload('/api/system-settings/logo', logo)).status).toBe(200);
    const refused = await client.upload('/api/system-settings/logo', logo);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { code: string; message: string };
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.message).toMatch(/^You have uploaded several logos in a short time\. Please wait \d+ minutes? before uploading another\.$/);
    // Another account is not held back by this one.
    const { client: other } = await registerClient(server);
    expect((await other.upload('/api/system-settings/logo', logo)).status).toBe(200);
  });
});
