import { costRange, totalMinutes, type TimeBreakdown } from '../../core/format';
import { equipmentFor, priceJob, type PricingRules } from '../../core/price';
import { enteredSizesOf, type UserTreeSizes } from '../../core/normalise';
import { confidenceWithSizeWarnings } from '../../core/plausibility';
import type { PhotoMeasurement } from '../../core/photo-measure';
import type { SiteDetails } from '../../core/site';
import type { NeedsDetails } from '../../core/tree-details';
import { unitsOfAnalysis, type UnitSystem } from '../../core/units';
import type { AppDeps } from '../deps';
import { DomainError } from '../../core/errors';
import { issueEstimateToken } from './estimate-tokens';
import { decideAbstention } from './abstain';
import { loadCalibration } from './calibration';
import { parseDescription } from './description-parser';
import { buildEstimate, targetsNear } from './estimate';
import { hazardEffects } from './hazards';
import { normaliseImage } from '../images/normalise';
import { AnalysisPayment } from './payment';
import { assessSafety } from './safety';
import type { ImageSlots } from './slots';
import { newImageName, saveImage, storeAnalysis, type AnalysisRow } from './store';
import { deleteLeftover, photoKey, PhotoStoreError } from '../storage/photo-store';
import { checkSizes } from './size-check';
import { resolveTreeValues } from './tree-values';
import { VisionError, type VisionInput } from './types';

/**
 * One analysis end to end (docs/analysis.md, The pipeline): normalise the image, perceive, decide whether
 * there is enough to quote, estimate, calibrate, assess safety, store. Credits are reserved
 * before a model is asked and refunded if it fails or there is nothing to quote; the local
 * provider is deterministic and free, so it is asked first and nothing is taken unless there
 * will be an estimate. A failed or abstained analysis never costs anything. Paying (the check,
 * the reservation, its end and the refund) is payment.ts's; the analysis is stored by store.ts.
 *
 * The upload is complete before this runs (the route reads it without holding anything). Only
 * the image work takes one of the app's image slots; the model is asked after the slot is given
 * back, so a model's 10-30 s holds no one else back. A request refused for a full line (503
 * BUSY) has reserved nothing: the reservation comes after the image work.
 */
export interface AnalysisRequest {
  /** The account that pays and owns the result (a business's owner for embeds). */
  userId: number;
  /** The team member who ran it (tree_analyses.run_by, credit_ledger.by_user_id); absent for a visitor. */
  runBy?: number | null;
  businessId?: number | null;
  bytes: Buffer;
  description?: string;
  siteDetails: SiteDetails;
  /** The user's tree details, converted and normalised (core/normalise.ts readUserTreeDetails). */
  treeDetails: UserTreeSizes | null;
  /** The user's taps on the photo, stored to draw on the results and the quote. */
  measurement: PhotoMeasurement | null;
  /** The user has seen the size checks' warnings and says the sizes are right. */
  sizesConfirmed?: boolean;
  instructions?: string;
  hourlyRatePence: number;
  /** The rules the price is built with beside the rate (the account's, or the business's for an embed). */
  pricing: PricingRules;
  /** The account's or business's units, for an analysis whose sizes were not typed. */
  units: UnitSystem;
  /** Aborts the model call when the client goes away (the credits are refunded). */
  signal?: AbortSignal;
  /** A visitor on a business's site: the owner pays, within the business's daily cap. */
  embed?: { businessId: number; dailyCap: number };
}

/** An estimate; a visitor's carries the token that proves it in a quote request (estimate-tokens.ts). */
export type AnalysisOutcome = { outcome: 'estimate'; row: AnalysisRow; leadToken?: string } | NeedsDetails;

export async function runAnalysis(deps: AppDeps, slots: ImageSlots, request: AnalysisRequest): Promise<AnalysisOutcome> {
  const { db, clock, vision, photos } = deps;
  // Before any charge: a bad image costs nothing. Whoever could pay when the upload began may
  // not by the time a slot is free (others in line spent the credits): refused without a decode.
  const imageName = newImageName();
  const payment = new AnalysisPayment(deps, { userId: request.userId, embed: request.embed, by: request.runBy ?? null }, imageName);
  const image = await slots.run(async () => {
    payment.refuseIfUnpayable();
    return normaliseImage(request.bytes);
  }, { bytes: request.bytes.length, signal: request.signal });
  const parsed = parseDescription(request.description);
  const input: VisionInput = {
    image: image.forModel,
    description: request.description,
    siteDetails: request.siteDetails,
    treeDetails: request.treeDetails,
    instructions: request.instructions,
    photoChecks: image.checks,
  };

  try {
    // A model that costs is paid for before it is asked; the local provider is free and
    // deterministic, so for it nothing is taken unless there will be an estimate.
    if (vision.name !== 'local') payment.reserve();
    // The client leaving or the server stopping ends the wait; either way the credits go back.
    const signals = [request.signal, deps.stopping].filter((s): s is AbortSignal => s !== undefined);
    const perception = await vision.perceive(input, signals.length > 0 ? AbortSignal.any(signals) : undefined);
    const values = resolveTreeValues(request.treeDetails, perception, parsed);
    const sizeCheck = checkSizes(values, request.measurement, request.sizesConfirmed === true);
    const sizesNotSure = request.treeDetails?.notSure;
    const abstention =
      decideAbstention(values, perception, image.checks, request.embed ? 'visitor' : 'owner', sizesNotSure !== undefined) ?? sizeCheck.ask;
    if (abstention) {
      payment.refund();
      return abstention;
    }
    payment.reserve();

    const hazards = hazardEffects(parsed.hazards);
    const calibration = loadCalibration(db, request.userId);
    const estimate = buildEstimate({
      values,
      perception,
      answers: request.siteDetails,
      described: parsed.site,
      hazardTimes: hazards.times,
      calibration,
      sizesNotSure,
    });
    // Sizes confirmed despite a warning lower the confidence (and so may recommend a site visit).
    const confidence = confidenceWithSizeWarnings(Math.min(1, Math.max(0, perception.confidence)), sizeCheck.warnings);
    const safety = assessSafety({
      date: clock.now(),
      site: estimate.site,
      targetsNear: targetsNear(estimate.site, parsed.targets),
      hazards,
      method: estimate.method,
      dbhIn: estimate.usedDbhIn,
      heightFt: estimate.usedHeightFt,
      confidence,
      sizesNotKnown: estimate.rangedSizes,
      powerLinesAssumed: request.siteDetails.powerLines === undefined && parsed.site.powerLines === undefined && perception.site.powerLines === undefined,
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
    const price = priceJob({
      minutes: totalMinutes(timeFields),
      hourlyRatePence: request.hourlyRatePence,
      rules: request.pricing,
      greenTonnes: estimate.greenMassKg / 1000,
      wasteRemoval: estimate.site.wasteRemoval,
      stumpGrinding: estimate.site.stumpGrinding,
      ...equipmentFor(estimate.site, estimate.method),
    });
    const entered = enteredSizesOf(request.treeDetails, estimate.sources, parsed.written, request.units);

    await saveImage(photos, imageName, image.stored);
    // The analysis, the end of its reservation and a visitor's lead token commit together.
    let leadToken: string | undefined;
    const row = storeAnalysis(
      db,
      {
        userId: request.userId,
        runBy: request.runBy ?? null,
        businessId: request.businessId ?? null,
        imagePath: imageName,
        species: estimate.species,
        diameter: estimate.dbhIn,
        height: estimate.heightFt,
        woodDensity: estimate.woodDensity,
        ...timeFields,
        // Photo problems are facts of the pixels, whatever the provider said.
        factors: unique([...hazards.factors, ...estimate.factors, ...parsed.factors, ...image.checks.issues]),
        safetyWarnings: unique([...safety.warnings, ...perception.safetyWarnings]),
        confidence,
        provider: vision.name,
        description: request.description ?? null,
        siteDetails: request.siteDetails,
        hourlyRatePence: request.hourlyRatePence,
        costMinPence: cost?.minPence ?? null,
        costMaxPence: cost?.maxPence ?? null,
        price,
        method: estimate.method,
        siteVisitReason: safety.siteVisitReason,
        baseTimes: estimate.baseTimes,
        // What the results say it was calibrated from (store.ts toAnalysisView words it).
        calibratedFromJobs: estimate.calibration?.accountJobs || null,
        calibratedKindJobs: estimate.calibration ? estimate.calibration.kindJobs : null,
        calibratedInstallAccounts: estimate.calibration?.installAccounts ?? null,
        valueSources: entered ? { ...estimate.sources, entered } : estimate.sources,
        units: unitsOfAnalysis(entered, request.units),
        measurement: request.measurement,
        sizeWarnings: sizeCheck.warnings.length > 0 ? sizeCheck.warnings : null,
        source: request.embed ? 'embed' : 'dashboard',
        createdAt: clock.now(),
      },
      (tx, id) => {
        payment.settle(tx);
        if (request.embed) leadToken = issueEstimateToken(tx, clock, id, request.embed.businessId);
      },
    );
    return { outcome: 'estimate', row, ...(leadToken !== undefined && { leadToken }) };
  } catch (err) {
    payment.refund();
    // The photo, if it was written, goes with the refund. When the store itself failed, the
    // removal is tried without holding the answer (a second timeout's wait for the user); a
    // put that timed out may still have landed. deleteLeftover logs whatever it leaves.
    const removal = deleteLeftover(photos, photoKey(imageName), deps.logger);
    if (!(err instanceof PhotoStoreError)) await removal;
    // The cause (the model's error, a wrong OPENAI_MODEL, a timeout, an unreachable photo store)
    // goes to the log with the request's id (renderError); the user gets the polite message.
    if (err instanceof VisionError) throw new DomainError('ANALYSIS_FAILED', err.message, { cause: err });
    if (err instanceof PhotoStoreError) {
      throw new DomainError('ANALYSIS_FAILED', 'The photo could not be saved just now. Your credits were refunded; please try again in a minute.', { cause: err });
    }
    if (err instanceof DomainError) throw err;
    throw new DomainError('ANALYSIS_FAILED', 'The analysis failed. Your credits were refunded; please try again.', { cause: err });
  }
}

function unique(items: string[]): string[] {
  return [...new Set(items.map((s) => s.trim()).filter(Boolean))];
}
