import { and, desc, eq, isNull } from 'drizzle-orm';
import { CARD_MESSAGES, CARD_PROBLEM_WORDS, type CardProblem } from '../../core/card-payments';
import { DomainError } from '../../core/errors';
import { penceToDecimal } from '../../core/money';
import { immediate, type Db } from '../../db/client';
import { cardPaymentProblems, invoices } from '../../db/schema';
import type { Clock } from '../clock';

/**
 * Card payments that arrived and could not be taken as they came (events.ts): the owner's list
 * of money to send back (GET /api/card-payment-problems), each kept until they mark it dealt with
 * and say how (POST .../resolve). Another account's problem is a 404.
 */
type ProblemRow = typeof cardPaymentProblems.$inferSelect;

function toView(row: ProblemRow, number: string | null): CardProblem {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    invoiceId: row.invoiceId,
    invoiceNumber: number,
    amount: penceToDecimal(row.amountPence),
    currency: row.currency,
    reason: row.reason,
    words: CARD_PROBLEM_WORDS[row.reason],
    paymentIntentId: row.paymentIntentId,
    account: row.account,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedNote: row.resolvedNote,
  };
}

/** The account's problems, open ones first, newest first; at most 200. */
export function listProblems(db: Db, userId: number): CardProblem[] {
  return db
    .select({ problem: cardPaymentProblems, number: invoices.number })
    .from(cardPaymentProblems)
    .leftJoin(invoices, eq(invoices.id, cardPaymentProblems.invoiceId))
    .where(eq(cardPaymentProblems.userId, userId))
    .orderBy(desc(isNull(cardPaymentProblems.resolvedAt)), desc(cardPaymentProblems.id))
    .limit(200)
    .all()
    .map((row) => toView(row.problem, row.number));
}

/** The account's own problem: another account's, or none, is a 404. */
export function findOwnProblem(db: Db, userId: number, id: number): ProblemRow {
  const row = Number.isSafeInteger(id) ? db.select().from(cardPaymentProblems).where(and(eq(cardPaymentProblems.id, id), eq(cardPaymentProblems.userId, userId))).get() : undefined;
  if (!row) throw new DomainError('NOT_FOUND', 'Payment not found');
  return row;
}

export function resolveProblem(db: Db, clock: Clock, userId: number, id: number, note: string): CardProblem {
  return immediate(db, (tx) => {
    const row = findOwnProblem(tx, userId, id);
    if (row.resolvedAt) throw new DomainError('CONFLICT', CARD_MESSAGES.problemResolved);
    const updated = tx.update(cardPaymentProblems).set({ resolvedAt: clock.now(), resolvedNote: note }).where(eq(cardPaymentProblems.id, row.id)).returning().get()!;
    const number = updated.invoiceId ? (tx.select({ number: invoices.number }).from(invoices).where(eq(invoices.id, updated.invoiceId)).get()?.number ?? null) : null;
    return toView(updated, number);
  });
}
