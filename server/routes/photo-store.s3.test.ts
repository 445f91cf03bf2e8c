import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeResponseSchema } from '../../core/analysis';
import { findUserByUsername } from '../accounts/users';
import { uploadsDir } from '../analysis/store';
import { immediate } from '../../db/client';
import { recordReservation, recoverReservations } from '../analysis/reservations';
import { newImageName } from '../analysis/store';
import { balanceOf, grantCredits, ledgerSum, reserveAnalysis } from '../credits/ledger';
import { logosDir } from '../settings/logo';
import { analyze, grantTo } from '../../testing/analysis';
import { startFakeOpenAI, type FakeOpenAI } from '../../testing/fake-openai';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { logoForm, testLogoPng } from '../../testing/logo';
import { startLocalS3, type LocalS3 } from '../../testing/s3-server';

/**
 * Photos and logos in object storage (docs/operations.md, Photos in object storage): the real app
 * with PHOTO_STORE_URL pointing at a real S3 API (s3rver on loopback), read back through the
 * same owner-checked routes as the local folders.
 */
let s3: LocalS3;
let server: TestServer;
beforeAll(async () => {
  s3 = await startLocalS3();
  server = await startTestServer(s3.env('install-1'));
});
afterAll(async () => {
  await server.close();
  await s3.close();
});

const imagePathOf = (id: number) => (server.db.$client.prepare('select image_path as p from tree_analyses where id = ?').get(id) as { p: string }).p;
const credits = (s: TestServer, username: string) => {
  const id = findUserByUsername(s.db, username)!.id;
  return { balance: balanceOf(s.db, id), ledger: ledgerSum(s.db, id) };
};

describe('with PHOTO_STORE_URL=s3://bucket/prefix', () => {
  it("puts the analysis's photo in the bucket and serves it to its owner only; nothing is written under DATA_DIR", async () => {
    expect(server.photos.kind).toBe('s3');
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    const res = await analyze(client, { description: 'oak, 14 inch trunk, 35 ft' });
    expect(res.status).toBe(201);
    const { analysis } = analyzeResponseSchema.parse(await res.json());
    const key = `uploads/${imagePathOf(analysis.id)}`;
    expect(await server.photos.list('uploads')).toContain(key);
    expect(existsSync(uploadsDir(server.dataDir))).toBe(false);

    const image = await client.get(`/api/analysis/${analysis.id}/image`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await image.arrayBuffer()).equals((await server.photos.get(key))!)).toBe(true);
    // The owner's quote PDF prints it from the store too.
    expect((await client.get(`/api/analysis/${analysis.id}/report.pdf`)).status).toBe(200);

    const other = await registerClient(server);
    expect((await other.client.get(`/api/analysis/${analysis.id}/image`)).status).toBe(404);
  });

  it('a row naming anything but one of our photo keys reads nothing from the bucket: 404', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    expect((await client.upload('/api/system-settings/logo', logoForm(await testLogoPng()))).status).toBe(200);
    const { analysis } = analyzeResponseSchema.parse(await (await analyze(client, { description: 'oak, 14 inch trunk, 35 ft' })).json());
    const logoName = (await server.photos.list('logos')).at(-1)!.slice('logos/'.length);
    const setImagePath = server.db.$client.prepare('update tree_analyses set image_path = ? where id = ?');
    for (const path of [`../logos/${logoName}`, logoName, `${imagePathOf(analysis.id)}/../../logos/${logoName}`, '../../install-2/uploads/x.jpg']) {
      setImagePath.run(path, analysis.id);
      expect((await client.get(`/api/analysis/${analysis.id}/image`)).status, path).toBe(404);
    }
  });

  it('stores, serves, replaces and removes a logo in the bucket', async () => {
    const { client } = await registerClient(server);
    const others = new Set(await server.photos.list('logos'));
    const mine = async () => (await server.photos.list('logos')).filter((key) => !others.has(key));
    const first = await client.upload('/api/system-settings/logo', logoForm(await testLogoPng()));
    expect(first.status).toBe(200);
    const logos = await mine();
    expect(logos).toHaveLength(1);
    expect(existsSync(logosDir(server.dataDir))).toBe(false);
    const served = await client.get('/api/system-settings/logo');
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals((await server.photos.get(logos[0]!))!)).toBe(true);
    expect((await (await registerClient(server)).client.get('/api/system-settings/logo')).status).toBe(404);

    expect((await client.upload('/api/system-settings/logo', logoForm(await testLogoPng()))).status).toBe(200);
    const replaced = await mine();
    expect(replaced).toHaveLength(1);
    expect(replaced[0]).not.toBe(logos[0]);

    expect((await client.request('DELETE', '/api/system-settings/logo')).status).toBe(200);
    expect(await mine()).toEqual([]);
    expect((await client.get('/api/system-settings/logo')).status).toBe(404);
  });

  it("erasing an account removes its photos and logo from the bucket, and no one else's", async () => {
    const other = await registerClient(server);
    grantTo(server, other.account.username, 10);
    const kept = analyzeResponseSchema.parse(await (await analyze(other.client, { description: 'elm, 12 inch trunk, 30 ft' })).json()).analysis;
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 10);
    const logosBefore = new Set(await server.photos.list('logos'));
    const gone = analyzeResponseSchema.parse(await (await analyze(client, { description: 'ash, 10 inch trunk, 25 ft' })).json()).analysis;
    expect((await client.upload('/api/system-settings/logo', logoForm(await testLogoPng()))).status).toBe(200);
    const goneKey = `uploads/${imagePathOf(gone.id)}`;
    const keptKey = `uploads/${imagePathOf(kept.id)}`;
    const logo = (await server.photos.list('logos')).find((key) => !logosBefore.has(key))!;

    expect((await client.request('DELETE', '/api/account', { password: account.password })).status).toBe(200);
    const left = await server.photos.list('uploads');
    expect(left).not.toContain(goneKey);
    expect(left).toContain(keptKey);
    expect(await server.photos.list('logos')).not.toContain(logo);
  });

  it('S3 unreachable: the analysis fails with a clear 502 in bounded time, the credits come back, and a photo read is a polite error', async () => {
    const { client, account } = await registerClient(server);
    grantTo(server, account.username, 20);
    const stored = analyzeResponseSchema.parse(await (await analyze(client, { description: 'birch, 8 inch trunk, 20 ft' })).json()).analysis;
    await s3.stop();
    try {
      const started = Date.now();
      const res = await analyze(client, { description: 'oak, 14 inch trunk, 35 ft' });
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(res.status).toBe(502);
      const body = await res.json();
      expect(body).toMatchObject({ code: 'ANALYSIS_FAILED', message: 'The photo could not be saved just now. Your credits were refunded; please try again in a minute.' });
      expect(credits(server, account.username)).toEqual({ balance: 10, ledger: 10 });

      const image = await client.get(`/api/analysis/${stored.id}/image`);
      expect(image.status).toBe(500);
      const text = await image.text();
      expect(JSON.parse(text)).toEqual({ code: 'INTERNAL_ERROR', message: 'Photo storage could not be reached just now. Please try again in a minute.' });
      expect(text).not.toMatch(/ECONNREFUSED|at .*\.ts:|S3RVER/);
    } finally {
      await s3.start();
    }
    expect((await client.get(`/api/analysis/${stored.id}/image`)).status).toBe(200);
  });
});

describe('with S3, an analysis that never finished', () => {
  it('is refunded at the next start and its photo, written just before the process died, removed from the bucket', async () => {
    const { account } = await registerClient(server);
    const user = findUserByUsername(server.db, account.username)!;
    grantCredits(server.db, server.clock, user.id, 10, 'grant', 'photo-store-test');
    const imageName = newImageName();
    immediate(server.db, (tx) => {
      const payment = reserveAnalysis(tx, server.clock, user.id, 'ref-died', 25)!;
      recordReservation(tx, server.clock, { reference: 'ref-died', userId: user.id, payment, imageName });
    });
    await server.photos.put(`uploads/${imageName}`, Buffer.from('a photo written just before the crash'));
    expect(await server.photos.list('uploads')).toContain(`uploads/${imageName}`);

    expect(await recoverReservations(server.db, server.clock, server.photos)).toBe(1);
    expect(credits(server, account.username)).toEqual({ balance: 10, ledger: 10 });
    expect(await server.photos.list('uploads')).not.toContain(`uploads/${imageName}`);
  });
});

describe('with S3 and a model that fails', () => {
  let fake: FakeOpenAI;
  let modelServer: TestServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
    modelServer = await startTestServer({ ...s3.env('install-2'), OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-key', OPENAI_MODEL: 'tree-vision', OPENAI_TIMEOUT_MS: '500' });
  });
  afterAll(async () => {
    await modelServer.close();
    await fake.close();
  });

  it('a refunded analysis leaves no object in the bucket', async () => {
    fake.setMode('error500');
    const { client, account } = await registerClient(modelServer);
    grantTo(modelServer, account.username, 10);
    const res = await analyze(client, { description: 'oak' });
    expect(res.status).toBe(502);
    expect(credits(modelServer, account.username)).toEqual({ balance: 10, ledger: 10 });
    expect(await modelServer.photos.list('uploads')).toEqual([]);
  });
});
