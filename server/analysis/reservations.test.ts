import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { immediate } from '../../db/client';
import { embedAnalysesToday, reserveEmbedAnalysis } from './embed-usage';
import { balanceOf, grantCredits, ledgerSum, reserveAnalysis } from '../credits/ledger';
import { createBusinessFor } from '../../testing/business';
import { analysisForm } from '../../testing/analysis';
import { findUserByUsername } from '../accounts/users';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { recordReservation, recoverReservations } from './reservations';

/**
 * What the next start does with analyses a dead process paid for: each payment is
 * given back exactly once, an embed's daily slot too, and a finished analysis is never touched.
 * The kill -9 and SIGTERM runs of the real server are in crash.test.ts.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const pending = () => server.db.$client.prepare('select count(*) from analysis_reservations').pluck().get() as number;

describe('recoverReservations', () => {
  it('refunds a dashboard analysis and an embed analysis left pending, once, slot included', async () => {
    const { db, clock } = server;
    const { client, account } = await registerClient(server);
    const user = findUserByUsername(db, account.username)!;
    const business = await createBusinessFor(client, { dailyCap: 5 });
    grantCredits(db, clock, user.id, 30, 'grant', 'reservations-test');

    immediate(db, (tx) => {
      const payment = reserveAnalysis(tx, clock, user.id, 'ref-dashboard', 25)!;
      recordReservation(tx, clock, { reference: 'ref-dashboard', userId: user.id, payment, imageName: 'a.jpg' });
    });
    immediate(db, (tx) => {
      const request = { ownerId: user.id, businessId: business.id, dailyCap: 5, reference: 'ref-embed', passDailyCap: 25 };
      const taken = reserveEmbedAnalysis(tx, clock, request);
      if (!taken.ok) throw new Error('the embed reservation was refused');
      recordReservation(tx, clock, { reference: 'ref-embed', userId: user.id, payment: taken.payment, imageName: 'b.jpg', embed: { businessId: business.id, day: taken.day } });
    });
    expect(balanceOf(db, user.id)).toBe(10);
    expect(embedAnalysesToday(db, clock, business.id)).toBe(1);
    expect(pending()).toBe(2);

    expect(await recoverReservations(db, clock, server.photos)).toBe(2);
    expect(balanceOf(db, user.id)).toBe(30);
    expect(ledgerSum(db, user.id)).toBe(30);
    expect(embedAnalysesToday(db, clock, business.id)).toBe(0);
    expect(pending()).toBe(0);

    // A second start finds nothing left to give back.
    expect(await recoverReservations(db, clock, server.photos)).toBe(0);
    expect(balanceOf(db, user.id)).toBe(30);
  });

  it('leaves finished analyses alone: a completed run settles its reservation with the row', async () => {
    const { client, account } = await registerClient(server);
    const user = findUserByUsername(server.db, account.username)!;
    grantCredits(server.db, server.clock, user.id, 10, 'grant', 'reservations-test');
    const res = await client.upload('/api/analyze-tree', analysisForm({ description: 'oak, 14 inch trunk, 35 ft' }));
    expect(res.status).toBe(201);
    expect(pending()).toBe(0);
    expect(await recoverReservations(server.db, server.clock, server.photos)).toBe(0);
    expect(balanceOf(server.db, user.id)).toBe(0);
  });
});
