import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { immediate } from '../../db/client';
import { analysisReservations } from '../../db/schema';
import { refundEmbedAnalysis } from './embed-usage';
import type { Clock } from '../clock';
import { refundAnalysis, type AnalysisPayment } from '../credits/ledger';
import type { Logger } from '../log';
import { deleteLeftovers, isPhotoName, photoKey, type PhotoStore } from '../storage/photo-store';

/**
 * Paid-for analyses not yet finished. Credits are reserved before a model call that
 * may take a minute; if the process dies meanwhile (a deploy's SIGKILL, a crash, the box
 * rebooting), the row written with the payment is still here at the next start, and the
 * payment is given back then: nothing is lost and the ledger still sums to the balance.
 */
export interface Reservation {
  reference: string;
  userId: number;
  payment: AnalysisPayment;
  imageName: string;
  embed?: { businessId: number; day: string };
}

/** Call inside the transaction that takes the payment. */
export function recordReservation(tx: Db, clock: Clock, r: Reservation): void {
  tx.insert(analysisReservations)
    .values({
      reference: r.reference,
      userId: r.userId,
      payment: r.payment,
      businessId: r.embed?.businessId ?? null,
      day: r.embed?.day ?? null,
      imageName: r.imageName,
      createdAt: clock.now(),
    })
    .run();
}

/** Call inside the transaction that stores the finished analysis or gives the payment back. */
export function settleReservation(tx: Db, reference: string): void {
  tx.delete(analysisReservations).where(eq(analysisReservations.reference, reference)).run();
}

/** Gives a reservation back: the payment (and an embed's daily slot) and the row, in one transaction. */
export function refundReservation(db: Db, clock: Clock, r: Reservation): void {
  immediate(db, (tx) => {
    if (r.embed) {
      refundEmbedAnalysis(tx, clock, { ownerId: r.userId, businessId: r.embed.businessId, reference: r.reference }, { payment: r.payment, day: r.embed.day });
    } else {
      refundAnalysis(tx, clock, r.userId, r.reference, r.payment);
    }
    settleReservation(tx, r.reference);
  });
}

/**
 * At start, before the server takes requests: every reservation left by a previous process is
 * refunded and its photo, if it was written, removed. Returns how many there were. A photo store
 * that cannot be reached does not stop the start: the refund stands and the log names the photo left.
 */
export async function recoverReservations(db: Db, clock: Clock, photos: PhotoStore, logger?: Pick<Logger, 'warn'>): Promise<number> {
  const left = db.select().from(analysisReservations).all();
  for (const row of left) {
    const embed = row.businessId !== null && row.day !== null ? { businessId: row.businessId, day: row.day } : undefined;
    refundReservation(db, clock, { reference: row.reference, userId: row.userId, payment: row.payment, imageName: row.imageName, embed });
  }
  await deleteLeftovers(photos, left.map((row) => row.imageName).filter(isPhotoName).map(photoKey), logger);
  return left.length;
}
