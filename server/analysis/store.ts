import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import type { Analysis } from '../../core/analysis';
import type { EmbedAnalysis } from '../../core/embed';
import { penceToDecimal } from '../../core/money';
import type { Db } from '../../db/client';
import { businesses, treeAnalyses } from '../../db/schema';

/**
 * Storage of analyses and their photos. Photos live under DATA_DIR/uploads by a
 * server-generated name; they are served only through the owner-checked image route.
 */
export type AnalysisRow = typeof treeAnalyses.$inferSelect;

export function uploadsDir(dataDir: string): string {
  return join(dataDir, 'uploads');
}

export function newImageName(): string {
  return `${randomUUID()}.jpg`;
}

export async function saveImage(dataDir: string, name: string, bytes: Buffer): Promise<void> {
  await mkdir(uploadsDir(dataDir), { recursive: true });
  await writeFile(join(uploadsDir(dataDir), name), bytes, { mode: 0o600 });
}

export async function deleteImage(dataDir: string, name: string): Promise<void> {
  await rm(join(uploadsDir(dataDir), name), { force: true });
}

export async function readImage(dataDir: string, name: string): Promise<Buffer | null> {
  // Names are ours (a UUID and .jpg); refuse anything else rather than touch the path.
  if (!/^[0-9a-f-]{36}\.jpg$/.test(name)) return null;
  try {
    return await readFile(join(uploadsDir(dataDir), name));
  } catch {
    return null;
  }
}

/** The user's own analysis, or undefined: another user's id is indistinguishable from a missing one. */
export function findOwnAnalysis(db: Db, userId: number, id: number): { row: AnalysisRow; businessName: string | null } | undefined {
  const found = db
    .select({ row: treeAnalyses, businessName: businesses.name })
    .from(treeAnalyses)
    .leftJoin(businesses, eq(businesses.id, treeAnalyses.businessId))
    .where(and(eq(treeAnalyses.id, id), eq(treeAnalyses.userId, userId)))
    .get();
  return found ? { row: found.row, businessName: found.businessName ?? null } : undefined;
}

export function listOwnAnalyses(db: Db, userId: number, limit = 100) {
  return db
    .select({ row: treeAnalyses, businessName: businesses.name })
    .from(treeAnalyses)
    .leftJoin(businesses, eq(businesses.id, treeAnalyses.businessId))
    .where(eq(treeAnalyses.userId, userId))
    .orderBy(desc(treeAnalyses.createdAt), desc(treeAnalyses.id))
    .limit(limit)
    .all();
}

/** The API's view of a stored analysis (core/analysis.ts analysisSchema). */
export function toAnalysisView(row: AnalysisRow, businessName: string | null = null): Analysis {
  const cost =
    row.costMinPence !== null && row.costMaxPence !== null
      ? { min: penceToDecimal(row.costMinPence), max: penceToDecimal(row.costMaxPence) }
      : null;
  return {
    id: row.id,
    imageUrl: row.imageUrl,
    species: row.species,
    diameter: row.diameter,
    height: row.height,
    woodDensity: row.woodDensity,
    cuttingTimeMin: row.cuttingTimeMin ?? 0,
    cuttingTimeMax: row.cuttingTimeMax ?? 0,
    prepTimeMin: row.prepTimeMin ?? 0,
    prepTimeMax: row.prepTimeMax ?? 0,
    cleanupTimeMin: row.cleanupTimeMin ?? 0,
    cleanupTimeMax: row.cleanupTimeMax ?? 0,
    factors: row.factors,
    safetyWarnings: row.safetyWarnings,
    confidence: row.confidence ?? 0,
    method: row.method,
    siteVisitReason: row.siteVisitReason,
    calibratedFromJobs: row.calibratedFromJobs,
    provider: row.provider ?? 'local',
    description: row.description,
    siteDetails: row.siteDetails ?? null,
    hourlyRate: penceToDecimal(row.hourlyRatePence),
    cost,
    actualCuttingTime: row.actualCuttingTime,
    actualPrepTime: row.actualPrepTime,
    actualCleanupTime: row.actualCleanupTime,
    feedback: row.feedback,
    businessName,
    sources: row.valueSources ?? null,
    measurement: row.measurement ?? null,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What a visitor on a business's site sees of their estimate: SPEC 3's analysis fields and
 * the cost, never the owner's photo route, notes, calibration or settings.
 */
export function toEmbedAnalysis(row: AnalysisRow): EmbedAnalysis {
  const view = toAnalysisView(row);
  return {
    id: view.id,
    species: view.species,
    diameter: view.diameter,
    height: view.height,
    woodDensity: view.woodDensity,
    cuttingTimeMin: view.cuttingTimeMin,
    cuttingTimeMax: view.cuttingTimeMax,
    prepTimeMin: view.prepTimeMin,
    prepTimeMax: view.prepTimeMax,
    cleanupTimeMin: view.cleanupTimeMin,
    cleanupTimeMax: view.cleanupTimeMax,
    factors: view.factors,
    safetyWarnings: view.safetyWarnings,
    confidence: view.confidence,
    siteVisitReason: view.siteVisitReason,
    hourlyRate: view.hourlyRate,
    cost: view.cost,
  };
}

/** The quote reference printed on reports: TA-000123. */
export function referenceFor(id: number): string {
  return `TA-${String(id).padStart(6, '0')}`;
}
