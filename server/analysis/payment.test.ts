import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INSUFFICIENT_TOKENS_MESSAGE } from '../../core/analysis';
import { EMBED_BUSY_MESSAGE, EMBED_UNAVAILABLE_MESSAGE } from '../../core/embed';
import { immediate } from '../../db/client';
import { findUserByUsername } from '../accounts/users';
import { embedAnalysesToday } from './embed-usage';
import { balanceOf, grantCredits, ledgerSum } from '../credits/ledger';
import { createBusinessFor } from '../../testing/business';
import { registerClient, startTestServer, type TestServer } from '../../testing/harness';
import { AnalysisPayment, paymentStatus, refuseIfUnpayable, visitorPayer, type AnalysisPayer } from './payment';

/**
 * Paying for one analysis, as the pipeline drives it: the look that changes nothing, the
 * reservation taken once, its end with the stored analysis, and the refund given once. How the
 * ledger and the reservation rows behave underneath is pinned in credits and reservations tests.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const pending = () => server.db.$client.prepare('select count(*) from analysis_reservations').pluck().get() as number;

async function owner(credits: number, dailyCap = 2) {
  const { client, account } = await registerClient(server);
  const user = findUserByUsername(server.db, account.username)!;
  const business = await createBusinessFor(client, { dailyCap });
  if (credits > 0) grantCredits(server.db, server.clock, user.id, credits, 'grant', 'payment-test');
  return { userId: user.id, business, visitor: visitorPayer({ id: business.id, ownerId: user.id, dailyCap }) };
}

function refusal(payer: AnalysisPayer) {
  try {
    refuseIfUnpayable(server, payer);
  } catch (err) {
    return err;
  }
  return null;
}

describe('whether an analysis can be paid', () => {
  it('tells an account it needs credits, and a visitor only that the estimator is unavailable', async () => {
    const { userId, visitor } = await owner(0);
    expect(paymentStatus(server.db, server.clock, { userId }, server.config.passDailyCap)).toBe('unavailable');
    expect(refusal({ userId })).toMatchObject({ code: 'INSUFFICIENT_TOKENS', message: INSUFFICIENT_TOKENS_MESSAGE });
    expect(refusal(visitor)).toMatchObject({ code: 'INSUFFICIENT_TOKENS', message: EMBED_UNAVAILABLE_MESSAGE });
    grantCredits(server.db, server.clock, userId, 10, 'grant', 'payment-test');
    expect(refusal({ userId })).toBeNull();
    expect(refusal(visitor)).toBeNull();
    expect(balanceOf(server.db, userId)).toBe(10);
  });

  it('tells a visitor the estimator is busy once its day is full, with when to come back', async () => {
    const { visitor } = await owner(100, 1);
    const payment = new AnalysisPayment(server, visitor, 'a.jpg');
    payment.reserve();
    expect(paymentStatus(server.db, server.clock, visitor, server.config.passDailyCap)).toBe('busy');
    const busy = refusal(visitor);
    expect(busy).toMatchObject({ code: 'RATE_LIMITED', message: EMBED_BUSY_MESSAGE });
    expect(Number((busy as { headers: Record<string, string> }).headers['Retry-After'])).toBeGreaterThan(0);
  });
});

describe('an analysis payment', () => {
  it('is taken once however often it is reserved, and given back once', async () => {
    const { userId } = await owner(30);
    const payment = new AnalysisPayment(server, { userId }, 'a.jpg');
    payment.reserve();
    payment.reserve();
    expect(balanceOf(server.db, userId)).toBe(20);
    expect(pending()).toBe(1);
    payment.refund();
    payment.refund();
    expect(balanceOf(server.db, userId)).toBe(30);
    expect(ledgerSum(server.db, userId)).toBe(30);
    expect(pending()).toBe(0);
  });

  it('takes nothing and gives nothing back when it was never reserved', async () => {
    const { userId } = await owner(10);
    new AnalysisPayment(server, { userId }, 'a.jpg').refund();
    expect(balanceOf(server.db, userId)).toBe(10);
  });

  it("takes a visitor's slot with the owner's credits, and gives both back", async () => {
    const { userId, business, visitor } = await owner(10);
    const payment = new AnalysisPayment(server, visitor, 'a.jpg');
    payment.reserve();
    expect([balanceOf(server.db, userId), embedAnalysesToday(server.db, server.clock, business.id)]).toEqual([0, 1]);
    payment.refund();
    expect([balanceOf(server.db, userId), embedAnalysesToday(server.db, server.clock, business.id)]).toEqual([10, 0]);
  });

  it('refuses, taking nothing, when the reservation finds the credits gone', async () => {
    const { userId, business, visitor } = await owner(10);
    new AnalysisPayment(server, { userId }, 'a.jpg').reserve();
    const late = new AnalysisPayment(server, visitor, 'b.jpg');
    expect(() => late.reserve()).toThrow(EMBED_UNAVAILABLE_MESSAGE);
    expect(() => new AnalysisPayment(server, { userId }, 'c.jpg').reserve()).toThrow(INSUFFICIENT_TOKENS_MESSAGE);
    expect(embedAnalysesToday(server.db, server.clock, business.id)).toBe(0);
    expect(pending()).toBe(1);
  });

  it('stands once settled with the stored analysis; a settle rolled back still refunds', async () => {
    const { userId } = await owner(20);
    const kept = new AnalysisPayment(server, { userId }, 'a.jpg');
    kept.reserve();
    immediate(server.db, (tx) => kept.settle(tx));
    expect([balanceOf(server.db, userId), pending()]).toEqual([10, 0]);

    const failed = new AnalysisPayment(server, { userId }, 'b.jpg');
    failed.reserve();
    expect(() =>
      immediate(server.db, (tx) => {
        failed.settle(tx);
        throw new Error('the analysis could not be stored');
      }),
    ).toThrow();
    expect(pending()).toBe(1);
    failed.refund();
    expect([balanceOf(server.db, userId), ledgerSum(server.db, userId), pending()]).toEqual([10, 10, 0]);
  });
});
