import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { INSUFFICIENT_TOKENS_MESSAGE } from '../../core/analysis';
import { EMBED_BUSY_MESSAGE, EMBED_UNAVAILABLE_MESSAGE } from '../../core/embed';
import { costRange, totalMinutes, type TimeBreakdown } from '../../core/format';
import type { SiteDetails } from '../../core/site';
import { treeAnalyses } from '../../db/schema';
import { refundEmbedAnalysis, reserveEmbedAnalysis, secondsUntilNextUtcDay } from '../businesses/usage';
import { refundAnalysis, reserveAnalysis } from '../credits/ledger';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { loadCalibration } from './calibration';
import { buildEstimate } from './estimate';
import { normaliseImage } from './image';
import { assessSafety } from './safety';
import { deleteImage, newImageName, saveImage, type AnalysisRow } from './store';
import { VisionError } from './types';

/**
 * One analysis end to end (DECISIONS, Analysis): normalise the image, reserve the
 * credits, perceive, estimate, calibrate, assess safety, store. Any failure after the
 * reservation refunds it, so a failed analysis never costs anything.
 */
export interface AnalysisRequest {
  /** The account that pays and owns the result (a business's owner for embeds). */
  userId: number;
  businessId?: number | null;
  bytes: Buffer;
  description?: string;
  siteDetails: SiteDetails;
  instructions?: string;
  hourlyRatePence: number;
  /** Aborts the model call when the client goes away (the credits are refunded). */
  signal?: AbortSignal;
  /** A visitor on a business's site: the owner pays, within the business's daily cap. */
  embed?: { businessId: number; dailyCap: number };
}

export async function runAnalysis(deps: AppDeps, request: AnalysisRequest): Promise<AnalysisRow> {
  const { db, clock, config, vision } = deps;
  // Before any charge: a bad image costs nothing.
  const image = await normaliseImage(request.bytes);

  const reference = randomUUID();
  const { refund } = reserve(deps, request, reference);

  const imageName = newImageName();
  try {
    const perception = await vision.perceive({
      image: image.forModel,
      description: request.description,
      siteDetails: request.siteDetails,
      instructions: request.instructions,
      photoChecks: image.checks,
    }, request.signal);
    const calibration = loadCalibration(db, request.userId);
    const estimate = buildEstimate(perception, request.siteDetails, calibration);
    const confidence = Math.min(1, Math.max(0, perception.confidence));
    const safety = assessSafety({
      date: clock.now(),
      site: estimate.site,
      method: estimate.method,
      dbhIn: estimate.usedDbhIn,
      heightFt: estimate.usedHeightFt,
      confidence,
    });
    const timeFields: TimeBreakdown = {
      cuttingTimeMin: estimate.times.cutting.min,
      cuttingTimeMax: estimate.times.cutting.max,
      prepTimeMin: estimate.times.prep.min,
      prepTimeMax: estimate.times.prep.max,
      cleanupTimeMin: estimate.times.cleanup.min,
      cleanupTimeMax: estimate.times.cleanup.max,
    };
    const cost = costRange(totalMinutes(timeFields), request.hourlyRatePence);

    await saveImage(config.dataDir, imageName, image.stored);
    const inserted = db
      .insert(treeAnalyses)
      .values({
        userId: request.userId,
        businessId: request.businessId ?? null,
        imageUrl: '',
        imagePath: imageName,
        species: estimate.species,
        diameter: estimate.dbhIn,
        height: estimate.heightFt,
        woodDensity: estimate.woodDensity,
        ...timeFields,
        // Photo problems are facts of the pixels, whatever the provider said.
        factors: unique([...estimate.factors, ...image.checks.issues]),
        safetyWarnings: unique([...safety.warnings, ...perception.safetyWarnings]),
        confidence,
        provider: vision.name,
        description: request.description ?? null,
        siteDetails: request.siteDetails,
        hourlyRatePence: request.hourlyRatePence,
        costMinPence: cost?.minPence ?? null,
        costMaxPence: cost?.maxPence ?? null,
        method: estimate.method,
        siteVisitReason: safety.siteVisitReason,
        baseTimes: estimate.baseTimes,
        calibratedFromJobs: calibration?.jobs ?? null,
        source: request.embed ? 'embed' : 'dashboard',
        createdAt: clock.now(),
      })
      .returning()
      .get();
    return db
      .update(treeAnalyses)
      .set({ imageUrl: `/api/analysis/${inserted.id}/image` })
      .where(eq(treeAnalyses.id, inserted.id))
      .returning()
      .get();
  } catch (err) {
    refund();
    await deleteImage(config.dataDir, imageName);
    if (err instanceof VisionError) throw new ApiError('ANALYSIS_FAILED', err.message);
    if (err instanceof ApiError) throw err;
    console.error(JSON.stringify({ level: 'error', msg: 'analysis failed', error: String((err as Error)?.stack ?? err) }));
    throw new ApiError('ANALYSIS_FAILED', 'The analysis failed. Your credits were refunded; please try again.');
  }
}

/**
 * Pays for the analysis before the model is asked, and returns how to give it back. An
 * embed also takes one of the business's daily slots; its visitor is told only that the
 * estimator is unavailable or busy, never the owner's balance.
 */
function reserve(deps: AppDeps, request: AnalysisRequest, reference: string): { refund: () => void } {
  const { db, clock, config } = deps;
  if (request.embed) {
    const embedRequest = { ownerId: request.userId, ...request.embed, reference, passDailyCap: config.passDailyCap };
    const reservation = reserveEmbedAnalysis(db, clock, embedRequest);
    if (!reservation.ok && reservation.reason === 'busy') throw embedBusy(clock.now());
    if (!reservation.ok) throw new ApiError('INSUFFICIENT_TOKENS', EMBED_UNAVAILABLE_MESSAGE);
    return { refund: () => refundEmbedAnalysis(db, clock, embedRequest, reservation) };
  }
  const payment = reserveAnalysis(db, clock, request.userId, reference, config.passDailyCap);
  if (!payment) throw new ApiError('INSUFFICIENT_TOKENS', INSUFFICIENT_TOKENS_MESSAGE);
  return { refund: () => refundAnalysis(db, clock, request.userId, reference, payment) };
}

/** 429 until the next UTC day, when the business's cap starts again. */
export function embedBusy(now: Date): ApiError {
  return new ApiError('RATE_LIMITED', EMBED_BUSY_MESSAGE, {
    headers: { 'Retry-After': String(secondsUntilNextUtcDay(now)) },
  });
}

function unique(items: string[]): string[] {
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))];
}
