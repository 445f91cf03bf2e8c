import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Analysis } from '../../core/analysis';
import { calibratedFromText, JOB_KIND_PLURALS, type JobKind } from '../../core/calibration';
import { factorForVisitor } from '../../core/embed';
import type { EmbedAnalysis } from '../../core/embed-api';
import { penceToDecimal } from '../../core/money';
import { totalMinutes, type MinuteRange } from '../../core/format';
import { priceFromCost } from '../../core/price';
import { jobPriceSchema } from '../../core/pricing';
import { includedWork } from '../../core/quote';
import { homeownerGuide } from '../../core/homeowner-guide';
import { chosenBands } from '../../core/band-ranges';
import { DEFAULT_UNIT_SYSTEM } from '../../core/units';
import { assumptionSentences } from '../../core/site-assumptions';
import { normaliseConfidence, storedMinutes, wholeSize } from '../../core/normalise';
import { siteDetailsSchema } from '../../core/site';
import { enteredSizesSchema, photoMeasurementSchema, valueSourcesSchema } from '../../core/tree-details';
import { immediate, type Db } from '../../db/client';
import { businesses, treeAnalyses } from '../../db/schema';
import { isPhotoName, photoKey, PhotoStoreError, type PhotoStore } from '../storage/photo-store';
import { namedBy, teamNamesOf } from '../team/names';

/**
 * Storage of analyses and their photos. Photos live in the photo store (server/storage/: DATA_DIR/uploads
 * by default, or object storage) under a server-generated name; they are served only through the
 * owner-checked image route.
 */
export type AnalysisRow = typeof treeAnalyses.$inferSelect;

/** Where the local store keeps photos (server/storage/local-photo-store.ts). */
export function uploadsDir(dataDir: string): string {
  return join(dataDir, 'uploads');
}

export function newImageName(): string {
  return `${randomUUID()}.jpg`;
}

// Names are ours (a UUID and .jpg); anything else is refused here, before the store is touched.
export async function saveImage(photos: PhotoStore, name: string, bytes: Buffer): Promise<void> {
  if (!isPhotoName(name)) throw new PhotoStoreError(new Error('refused a photo name that is not ours'));
  await photos.put(photoKey(name), bytes);
}

export async function deleteImage(photos: PhotoStore, name: string): Promise<void> {
  if (!isPhotoName(name)) return;
  await photos.delete(photoKey(name));
}

export async function readImage(photos: PhotoStore, name: string): Promise<Buffer | null> {
  if (!isPhotoName(name)) return null;
  return photos.get(photoKey(name));
}

/** A finished analysis as the pipeline stores it; its image URL follows from the id it is given. */
export type NewAnalysis = Omit<typeof treeAnalyses.$inferInsert, 'id' | 'imageUrl'>;

/** Where the owner's browser reads an analysis's photo (the owner-checked image route). */
export function imageUrlFor(id: number): string {
  return `/api/analysis/${id}/image`;
}

/**
 * Stores a finished analysis in one write transaction, with its image URL (which names the id
 * SQLite gives the row) and whatever must commit with it: the end of its payment's reservation.
 */
export function storeAnalysis(db: Db, analysis: NewAnalysis, withIt: (tx: Db, id: number) => void): AnalysisRow {
  return immediate(db, (tx) => {
    const { id } = tx.insert(treeAnalyses).values({ ...analysis, imageUrl: '' }).returning({ id: treeAnalyses.id }).get();
    withIt(tx, id);
    return tx.update(treeAnalyses).set({ imageUrl: imageUrlFor(id) }).where(eq(treeAnalyses.id, id)).returning().get()!;
  });
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

/** A stored JSON value if it still fits its schema, else null: an old or odd row never breaks History. */
function fits<T>(schema: z.ZodType<T>, value: unknown): T | null {
  if (value === null || value === undefined) return null;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const texts = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const wholeOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : storedMinutes(value));

/**
 * The API's view of a stored analysis (core/analysis.ts analysisSchema). Any row already
 * stored must load, whatever wrote it: sizes are made whole and bounded (core/normalise.ts;
 * rows from before normalisation held a model's 14.5 in as it was), times whole and not
 * negative, confidence in 0..1, and JSON that no longer fits its schema is left out.
 */
/** An analysis as its own page reads it: toAnalysisView and, in a team, who ran it (team/names.ts). */
export function analysisPageView(db: Db, row: AnalysisRow, businessName: string | null): Analysis {
  return { ...toAnalysisView(row, businessName), ...namedBy(teamNamesOf(db, row.userId), 'runBy', row.runBy) };
}

export function toAnalysisView(row: AnalysisRow, businessName: string | null = null): Analysis {
  const cost =
    row.costMinPence !== null && row.costMaxPence !== null
      ? { min: penceToDecimal(row.costMinPence), max: penceToDecimal(row.costMaxPence) }
      : null;
  const times = {
    cuttingTimeMin: storedMinutes(row.cuttingTimeMin),
    cuttingTimeMax: storedMinutes(row.cuttingTimeMax),
    prepTimeMin: storedMinutes(row.prepTimeMin),
    prepTimeMax: storedMinutes(row.prepTimeMax),
    cleanupTimeMin: storedMinutes(row.cleanupTimeMin),
    cleanupTimeMax: storedMinutes(row.cleanupTimeMax),
  };
  return {
    id: row.id,
    imageUrl: row.imageUrl,
    species: row.species,
    diameter: wholeSize('dbhIn', row.diameter),
    height: wholeSize('heightFt', row.height),
    woodDensity: row.woodDensity,
    ...times,
    factors: texts(row.factors),
    assumptions: assumptionSentences(texts(row.factors)),
    safetyWarnings: texts(row.safetyWarnings),
    confidence: normaliseConfidence(row.confidence),
    method: row.method,
    siteVisitReason: row.siteVisitReason,
    calibratedFromJobs: wholeOrNull(row.calibratedFromJobs),
    calibratedFrom: calibratedFrom(row),
    provider: row.provider ?? 'local',
    description: row.description,
    siteDetails: fits(siteDetailsSchema, row.siteDetails),
    hourlyRate: penceToDecimal(row.hourlyRatePence),
    cost,
    price: storedPrice(row, totalMinutes(times)),
    actualCuttingTime: wholeOrNull(row.actualCuttingTime),
    actualPrepTime: wholeOrNull(row.actualPrepTime),
    actualCleanupTime: wholeOrNull(row.actualCleanupTime),
    feedback: row.feedback,
    businessName,
    sources: fits(valueSourcesSchema, row.valueSources),
    measurement: fits(photoMeasurementSchema, row.measurement),
    sizeWarnings: texts(row.sizeWarnings),
    source: row.source,
    units: row.units ?? null,
    enteredSizes: fits(enteredSizesSchema, enteredOf(row.valueSources)),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The sizes as typed, kept inside the value sources (core/tree-details.ts StoredValueSources). */
function enteredOf(sources: unknown): unknown {
  return typeof sources === 'object' && sources !== null && 'entered' in sources ? sources.entered : null;
}

/**
 * The price stored with the analysis; one stored before pricing rules (or whose price no longer
 * reads) is its cost as the only line, with nothing said about VAT, as it was shown then.
 */
export function storedPrice(
  row: Pick<AnalysisRow, 'costMinPence' | 'costMaxPence' | 'hourlyRatePence'> & { price: unknown },
  minutes: MinuteRange,
): Analysis['price'] {
  const stored = fits(jobPriceSchema, typeof row.price === 'string' ? parseJson(row.price) : row.price);
  if (stored) return stored;
  const cost = row.costMinPence !== null && row.costMaxPence !== null ? { minPence: row.costMinPence, maxPence: row.costMaxPence } : null;
  return priceFromCost(cost, minutes, row.hourlyRatePence);
}

/** A JSON column read raw (the History page's statement) is text. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The results' "Calibrated from ..." of a stored analysis. One stored before calibration by kind
 * of job (no kind count) says how many of the user's jobs, as it always did.
 */
function calibratedFrom(row: AnalysisRow): string | null {
  const accountJobs = wholeOrNull(row.calibratedFromJobs) ?? 0;
  const installAccounts = wholeOrNull(row.calibratedInstallAccounts);
  const kind = row.method !== null && row.method in JOB_KIND_PLURALS ? (row.method as JobKind) : null;
  const kindJobs = kind ? Math.min(accountJobs, wholeOrNull(row.calibratedKindJobs) ?? 0) : 0;
  // With no jobs of its kind the text names no kind, so any stands in for a missing one.
  return calibratedFromText(kind ?? 'straight_fell', kindJobs, accountJobs, installAccounts);
}

/**
 * What a visitor on a business's site sees of their estimate: the analysis's own fields, the
 * cost and what it includes, never the owner's photo route, notes, calibration or settings.
 */
export function toEmbedAnalysis(row: AnalysisRow, roundingPence: number): EmbedAnalysis {
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
    factors: view.factors.map(factorForVisitor),
    assumptions: view.assumptions,
    safetyWarnings: view.safetyWarnings,
    confidence: view.confidence,
    siteVisitReason: view.siteVisitReason,
    hourlyRate: view.hourlyRate,
    cost: view.cost,
    price: view.price,
    // Worked out here, so the widget carries no quote rules (its first chunk is budgeted).
    included: includedWork(view.siteDetails, view.factors),
    sizeWarnings: view.sizeWarnings,
    enteredSizes: view.enteredSizes,
    guide: homeownerGuide({
      price: view.price,
      minutes: totalMinutes(view),
      site: view.siteDetails,
      factors: view.factors,
      heightFt: view.height,
      dbhIn: view.diameter,
      visitRecommended: view.siteVisitReason !== null,
      at: row.createdAt,
      roundingPence,
    }),
    chosenBands: chosenBands({ heightFt: view.height, dbhIn: view.diameter, sources: view.sources }, view.units ?? DEFAULT_UNIT_SYSTEM),
  };
}

/** The quote reference printed on reports: TA-000123. */
export function referenceFor(id: number): string {
  return `TA-${String(id).padStart(6, '0')}`;
}
