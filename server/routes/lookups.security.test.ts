import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protectionResponseSchema, siteNoteSchema } from '../../core/protection';
import { errorBodySchema } from '../../core/errors';
import { createBusinessFor } from '../../testing/business';
import { startFakePlanning, type FakePlanning } from '../../testing/fake-planning';
import { registerClient, startTestServer, type TestClient, type TestServer } from '../../testing/harness';
import { jobOf } from '../../testing/jobs';
import { RateLimits } from '../http/rate-limit';
import { PostcodeLookups } from '../protection/postcode-lookups';

/*
 * The protected-trees lookups from the attacker's side (docs/security.md, The lookups' limits and
 * The lookups' redirects): many asking at once for one postcode make one lookup of the outside
 * services (the public site note: 20 at once; a job's page: 30 at once), an account's lookups are
 * limited, and a redirect to another host is never fetched. The fake services hold their answers
 * until every asker is waiting, so the askers are truly at once.
 */
let fake: FakePlanning;
let server: TestServer;
let owner: TestClient;
const lookups = new PostcodeLookups();
const LIMIT = 4;

beforeAll(async () => {
  fake = await startFakePlanning();
  server = await startTestServer(
    { POSTCODE_LOOKUP_URL: fake.url, PLANNING_DATA_URL: fake.url },
    { postcodeLookups: lookups, rateLimits: new RateLimits({ protectionLookupsPerAccount: { points: LIMIT, windowSeconds: 600 } }) },
  );
  owner = (await registerClient(server)).client;
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

/** Waits (by turns, not by a time limit that decides anything) until `count` askers share the lookup of `postcode`. */
async function untilWaiting(postcode: string, count: number): Promise<void> {
  for (let turn = 0; lookups.waiting(postcode) < count; turn++) {
    if (turn > 2_000) throw new Error(`only ${lookups.waiting(postcode)} of ${count} askers share the lookup of ${postcode}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}


const jobAt = async (client: TestClient, siteAddress: string) => (await jobOf(await client.post('/api/jobs', { customer: { name: 'Sam Hill', siteAddress } }), 201)).id;

describe('one upstream lookup per postcode, however many ask at once', () => {
  it('the public site note: 20 visitors at once for BS8 4AA make one lookup (3 calls), all answered alike', async () => {
    const business = await createBusinessFor(owner);
    const from = fake.requests.length;
    fake.hold();
    const asked = Array.from({ length: 20 }, () => fetch(`${server.url}/api/businesses/${business.slug}/site-note?postcode=${encodeURIComponent('bs84aa')}`));
    await untilWaiting('BS8 4AA', 20);
    fake.release();
    const answers = await Promise.all(asked);
    const notes = await Promise.all(answers.map(async (res) => (expect(res.status).toBe(200), siteNoteSchema.parse(await res.json()).note)));
    expect(new Set(notes).size).toBe(1);
    expect(notes[0]).toMatch(/conservation area/);
    // postcodes.io once, the planning data's point once, the council once.
    expect(fake.requests.slice(from).map((r) => r.split('?')[0])).toEqual(['/postcodes/BS8%204AA', '/entity.json', '/entity/901.json']);
  });

  it("a job's page: 30 at once for one job make one lookup (3 calls) and spend one lookup of the account's allowance", async () => {
    const jobId = await jobAt(owner, '11 Montpellier Walk, Cheltenham GL50 1QA');
    const from = fake.requests.length;
    fake.hold();
    const asked = Array.from({ length: 30 }, () => owner.get(`/api/jobs/${jobId}/protection`));
    await untilWaiting('GL50 1QA', 30);
    fake.release();
    for (const res of await Promise.all(asked)) {
      expect(res.status).toBe(200);
      expect(protectionResponseSchema.parse(await res.json()).protection.lookup.status).toBe('found');
    }
    expect(fake.requests.slice(from).map((r) => r.split('?')[0])).toEqual(['/postcodes/GL50%201QA', '/entity.json', '/entity/902.json']);
    // One of the owner's allowance was spent: LIMIT - 1 more lookups are taken, the next is refused.
    for (let i = 1; i < LIMIT; i++) expect((await owner.get(`/api/jobs/${await jobAt(owner, `${i} Long Lane, Leeds LS6 2AB`)}/protection`)).status).toBe(200);
    expect((await owner.get(`/api/jobs/${await jobAt(owner, '5 Long Lane, Leeds LS6 2AB')}/protection`)).status).toBe(429);
  });
});

describe("an account's lookups are limited", () => {
  it(`past ${LIMIT} lookups in the window the next is a 429 with a sentence and nothing is asked; kept lookups still answer; another account is not held`, async () => {
    const client = (await registerClient(server)).client;
    const postcodes = ['LS6 2AB', 'BS8 4AA', 'GL50 1QA', 'LS6 2AB'];
    const jobs = [];
    for (const [i, postcode] of postcodes.entries()) jobs.push(await jobAt(client, `${i + 1} Long Lane, Leeds ${postcode}`));
    for (const jobId of jobs) expect((await client.get(`/api/jobs/${jobId}/protection`)).status).toBe(200);
    const beyond = await jobAt(client, '9 Park Row, Leeds LS1 5HD');
    const from = fake.requests.length;
    const refused = await client.get(`/api/jobs/${beyond}/protection`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(errorBodySchema.parse(await refused.json())).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/^You have asked for many protected-tree lookups in a short time\. Please wait \d+ minutes? and try again\.$/) });
    expect((await client.post(`/api/jobs/${beyond}/protection/lookup`)).status).toBe(429);
    expect(fake.requests.slice(from)).toEqual([]);
    // A lookup kept from before asks nothing, so it is answered.
    expect((await client.get(`/api/jobs/${jobs[0]}/protection`)).status).toBe(200);
    // The allowance is the account's: another account looks up the same job's postcode.
    const other = (await registerClient(server)).client;
    expect((await other.get(`/api/jobs/${await jobAt(other, '9 Park Row, Leeds LS1 5HD')}/protection`)).status).toBe(200);
  });
});

describe('a redirect from the lookup services', () => {
  it('to another host (a 302 to 127.0.0.1) is not fetched: the job reads "not checked", nothing from that host believed', async () => {
    const victimHits: string[] = [];
    // What the redirect points at: a server that would answer a believable postcode, on 127.0.0.1.
    const victim = createServer((req, res) => {
      victimHits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 200, result: { postcode: 'BS8 4AA', latitude: 51.455913, longitude: -2.620437, admin_district: 'Nowhere' } }));
    });
    await new Promise<void>((resolve) => victim.listen(0, '127.0.0.1', resolve));
    const victimUrl = `http://127.0.0.1:${(victim.address() as AddressInfo).port}`;
    // The "service", answering every lookup with a 302 there.
    const upstream: Server = createServer((req, res) => void res.writeHead(302, { location: `${victimUrl}${req.url}` }).end());
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const redirected = await startTestServer({ POSTCODE_LOOKUP_URL: upstreamUrl, PLANNING_DATA_URL: upstreamUrl });
    try {
      const client = (await registerClient(redirected)).client;
      const jobId = await jobAt(client, '1 Clifton Down Road, Bristol BS8 4AA');
      const res = await client.get(`/api/jobs/${jobId}/protection`);
      expect(res.status).toBe(200);
      const { lookup } = protectionResponseSchema.parse(await res.json()).protection;
      expect(lookup).toMatchObject({ status: 'failed', council: null, conservationAreas: [] });
      expect(victimHits).toEqual([]);
      expect(redirected.logs.some((line) => String(line.err).includes('redirect refused'))).toBe(true);
    } finally {
      await redirected.close();
      for (const s of [upstream, victim]) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    }
  });
});
