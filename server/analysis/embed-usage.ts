import { and, eq, sql } from 'drizzle-orm';
import { immediate, type Db } from '../../db/client';
import { embedUsage } from '../../db/schema';
import type { Clock } from '../clock';
import { refundAnalysis, reserveAnalysisIn, type AnalysisPayment } from '../credits/ledger';

/**
 * The daily cap of a business's public estimator. A public endpoint that spends the
 * owner's credits is an abuse target, so each business runs at most `dailyCap` embed
 * analyses per UTC day. The count is taken in the same BEGIN IMMEDIATE transaction as
 * the owner's credits, by a conditional upsert, so it holds under any concurrency.
 */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Seconds until the next UTC midnight, when the cap starts again (Retry-After). */
export function secondsUntilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

export function embedAnalysesToday(db: Db, clock: Clock, businessId: number): number {
  return (
    db
      .select({ count: embedUsage.count })
      .from(embedUsage)
      .where(and(eq(embedUsage.businessId, businessId), eq(embedUsage.day, utcDay(clock.now()))))
      .get()?.count ?? 0
  );
}

export interface EmbedReservationRequest {
  ownerId: number;
  businessId: number;
  dailyCap: number;
  reference: string;
  passDailyCap: number;
}

export type EmbedReservation =
  | { ok: true; payment: AnalysisPayment; day: string }
  | { ok: false; reason: 'busy' | 'unpaid' };

/** Takes one of today's slots and the owner's payment together, or neither. */
export function reserveEmbedAnalysis(db: Db, clock: Clock, request: EmbedReservationRequest): EmbedReservation {
  return immediate(db, (tx) => {
    const day = utcDay(clock.now());
    const counted = tx
      .insert(embedUsage)
      .values({ businessId: request.businessId, day, count: 1 })
      .onConflictDoUpdate({
        target: [embedUsage.businessId, embedUsage.day],
        set: { count: sql`${embedUsage.count} + 1` },
        setWhere: sql`${embedUsage.count} < ${request.dailyCap}`,
      })
      .run().changes;
    if (counted === 0) return { ok: false, reason: 'busy' };
    const payment = reserveAnalysisIn(tx, clock, request.ownerId, request.reference, request.passDailyCap);
    if (!payment) {
      releaseSlot(tx, request.businessId, day);
      return { ok: false, reason: 'unpaid' };
    }
    return { ok: true, payment, day };
  });
}

/** A failed embed analysis gives back its slot and its payment. */
export function refundEmbedAnalysis(
  db: Db,
  clock: Clock,
  request: Pick<EmbedReservationRequest, 'ownerId' | 'businessId' | 'reference'>,
  reservation: { payment: AnalysisPayment; day: string },
): void {
  immediate(db, (tx) => {
    releaseSlot(tx, request.businessId, reservation.day);
    refundAnalysis(tx, clock, request.ownerId, request.reference, reservation.payment);
  });
}

function releaseSlot(tx: Db, businessId: number, day: string): void {
  tx.update(embedUsage)
    .set({ count: sql`${embedUsage.count} - 1` })
    .where(and(eq(embedUsage.businessId, businessId), eq(embedUsage.day, day), sql`${embedUsage.count} > 0`))
    .run();
}
