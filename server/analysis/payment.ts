import { randomUUID } from 'node:crypto';
import { INSUFFICIENT_TOKENS_MESSAGE } from '../../core/analysis';
import { EMBED_BUSY_MESSAGE, EMBED_UNAVAILABLE_MESSAGE, type EmbedStatus } from '../../core/embed';
import { DomainError } from '../../core/errors';
import { immediate, type Db } from '../../db/client';
import { embedAnalysesToday, reserveEmbedAnalysis, secondsUntilNextUtcDay } from './embed-usage';
import type { Clock } from '../clock';
import { canPayAnalysis, reserveAnalysis } from '../credits/ledger';
import type { AppDeps } from '../deps';
import { recordReservation, refundReservation, settleReservation, type Reservation } from './reservations';

/**
 * Paying for one analysis (docs/product.md, Credits and payments; Embed widget), in one place:
 * whether it can be paid, the reservation, its end when the analysis is stored, and the refund
 * when it is not. The pieces it puts together keep their own rules: the ledger's conditional
 * take of credits or a pass analysis (credits/ledger.ts), a business's daily slot taken with its
 * owner's payment (embed-usage.ts), and the reservation row that a process dying mid-analysis
 * leaves for the next start to refund (reservations.ts).
 */
export interface AnalysisPayer {
  /** The account that pays: the user, or a business's owner for a visitor on its site. */
  userId: number;
  /** A visitor on a business's site: the owner pays, within the business's daily cap. */
  embed?: { businessId: number; dailyCap: number };
  /** The team member spending the account's credits, named on the ledger's row; absent for a visitor. */
  by?: number | null;
}

type PaymentDeps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/** A visitor's analysis on a business's estimator: its owner pays, within its daily cap. */
export function visitorPayer(business: { id: number; ownerId: number; dailyCap: number }): AnalysisPayer {
  return { userId: business.ownerId, embed: { businessId: business.id, dailyCap: business.dailyCap } };
}

/**
 * Whether one more analysis could be paid now, changing nothing: "busy" when a business's day
 * is full, "unavailable" when the payer has neither the credits nor a pass analysis left today.
 */
export function paymentStatus(db: Db, clock: Clock, payer: AnalysisPayer, passDailyCap: number): EmbedStatus {
  if (payer.embed && embedAnalysesToday(db, clock, payer.embed.businessId) >= payer.embed.dailyCap) return 'busy';
  return canPayAnalysis(db, clock, payer.userId, passDailyCap) ? 'available' : 'unavailable';
}

/** 429 until the next UTC day, when the business's cap starts again. */
export function embedBusy(now: Date): DomainError {
  return new DomainError('RATE_LIMITED', EMBED_BUSY_MESSAGE, {
    headers: { 'Retry-After': String(secondsUntilNextUtcDay(now)) },
  });
}

/**
 * A cheap look, changing nothing, that refuses an analysis that could not be paid now: taken
 * before an upload is read and again before its image is decoded. The account is told it needs
 * credits; a visitor only that the estimator is busy (its day is full) or unavailable (its owner
 * cannot pay), never the owner's balance. The reservation still decides, atomically.
 */
export function refuseIfUnpayable(deps: PaymentDeps, payer: AnalysisPayer): void {
  const { db, clock, config } = deps;
  const status = paymentStatus(db, clock, payer, config.passDailyCap);
  if (status === 'busy') throw embedBusy(clock.now());
  if (status === 'unavailable') throw new DomainError('INSUFFICIENT_TOKENS', payer.embed ? EMBED_UNAVAILABLE_MESSAGE : INSUFFICIENT_TOKENS_MESSAGE);
}

/**
 * One analysis's payment, from the look before its image is decoded to its end. Nothing is
 * taken until reserve(); reserve() takes it once, however often it is called; settle() ends it
 * inside the transaction that stores the analysis; refund() gives back whatever was taken, once.
 */
export class AnalysisPayment {
  private readonly reference = randomUUID();
  private reservation: Reservation | null = null;

  constructor(
    private readonly deps: PaymentDeps,
    private readonly payer: AnalysisPayer,
    /** The photo's file name, kept with the reservation so a restart can remove it. */
    private readonly imageName: string,
  ) {}

  refuseIfUnpayable(): void {
    refuseIfUnpayable(this.deps, this.payer);
  }

  /**
   * Pays for the analysis: the owner's credits or a pass analysis, and for a visitor one of the
   * business's daily slots too, with the reservation row, in one transaction, so a process that
   * dies before the analysis is stored leaves a row the next start refunds.
   */
  reserve(): void {
    if (this.reservation) return;
    const { db, clock, config } = this.deps;
    const { reference, payer, imageName } = this;
    this.reservation = immediate(db, (tx): Reservation => {
      if (payer.embed) {
        const taken = reserveEmbedAnalysis(tx, clock, { ownerId: payer.userId, ...payer.embed, reference, passDailyCap: config.passDailyCap });
        if (!taken.ok && taken.reason === 'busy') throw embedBusy(clock.now());
        if (!taken.ok) throw new DomainError('INSUFFICIENT_TOKENS', EMBED_UNAVAILABLE_MESSAGE);
        const r = { reference, userId: payer.userId, payment: taken.payment, imageName, embed: { businessId: payer.embed.businessId, day: taken.day } };
        recordReservation(tx, clock, r);
        return r;
      }
      const payment = reserveAnalysis(tx, clock, payer.userId, reference, config.passDailyCap, payer.by ?? null);
      if (!payment) throw new DomainError('INSUFFICIENT_TOKENS', INSUFFICIENT_TOKENS_MESSAGE);
      const r = { reference, userId: payer.userId, payment, imageName };
      recordReservation(tx, clock, r);
      return r;
    });
  }

  /**
   * Call inside the transaction that stores the analysis: the payment stands, its reservation is
   * done. Should that transaction roll back, refund() still gives the payment back.
   */
  settle(tx: Db): void {
    settleReservation(tx, this.reference);
  }

  /** Gives back the payment (and a visitor's daily slot) if one was taken; nothing otherwise. */
  refund(): void {
    const reservation = this.reservation;
    if (!reservation) return;
    this.reservation = null;
    refundReservation(this.deps.db, this.deps.clock, reservation);
  }
}
