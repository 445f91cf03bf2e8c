import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { estimateTokens, treeAnalyses } from '../../db/schema';
import { hashesMatch, randomSecret, sha256 } from '../secrets/tokens';
import type { AnalysisRow } from './store';
import type { Clock } from '../clock';

/**
 * A visitor's proof that they saw an estimate (docs/embedding.md, Leads; CONVENTIONS 13): a
 * random 256-bit token answered with each of a business's public estimates, kept only as its
 * SHA-256, tied to that analysis and that business, and good for a day. A quote request must
 * bring it back: analysis ids are global and sequential, so an id alone let anyone take a
 * business's lead by guessing it. The widget keeps the token in memory only, so it also ends
 * with the page.
 */
export const ESTIMATE_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** Issues the token of a visitor's estimate; call inside the transaction that stores the analysis. */
export function issueEstimateToken(tx: Db, clock: Clock, analysisId: number, businessId: number): string {
  const token = randomSecret();
  tx.insert(estimateTokens)
    .values({ analysisId, businessId, tokenHash: sha256(token), expiresAt: new Date(clock.now().getTime() + ESTIMATE_TOKEN_TTL_MS) })
    .run();
  return token;
}

/**
 * The business's estimate that `token` proves, or undefined for a wrong, expired or unknown
 * token, an id it was not issued for, or another business's estimate: one answer for all, so
 * nothing tells a stranger which ids exist or whose they are. The row is found by the token's
 * hash (a random value, so the lookup's time says nothing of the token) and the stored hash is
 * compared again in constant time.
 */
export function estimateProvenBy(db: Db, clock: Clock, businessId: number, analysisId: number, token: string): AnalysisRow | undefined {
  const hash = sha256(token);
  const found = db
    .select({ tokenHash: estimateTokens.tokenHash, analysis: treeAnalyses })
    .from(estimateTokens)
    .innerJoin(treeAnalyses, eq(treeAnalyses.id, estimateTokens.analysisId))
    .where(
      and(
        eq(estimateTokens.tokenHash, hash),
        eq(estimateTokens.analysisId, analysisId),
        eq(estimateTokens.businessId, businessId),
        gt(estimateTokens.expiresAt, clock.now()),
        eq(treeAnalyses.businessId, businessId),
        eq(treeAnalyses.source, 'embed'),
      ),
    )
    .get();
  if (!found || !hashesMatch(found.tokenHash, hash)) return undefined;
  return found.analysis;
}

/** Housekeeping: tokens past their day are of no use to anyone. */
export function deleteExpiredEstimateTokens(db: Db, clock: Clock): number {
  return db.delete(estimateTokens).where(lt(estimateTokens.expiresAt, clock.now())).run().changes;
}
