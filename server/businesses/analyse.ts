import { EMBED_RETRY_MESSAGE } from '../../core/embed';
import { DomainError } from '../../core/errors';
import type { PricingRules } from '../../core/price';
import type { UnitSystem } from '../../core/units';
import { findBusinessNamed, pricingFor, type BusinessRow } from './businesses';
import { countFunnelStep } from './funnel';
import type { AppDeps } from '../deps';
import { getSettings } from '../settings/settings';
import { visitorPayer } from '../analysis/payment';
import { runAnalysis, type AnalysisOutcome, type AnalysisRequest } from '../analysis/pipeline';
import type { ImageSlots } from '../analysis/slots';
import type { UploadInput } from '../analysis/upload';

/**
 * Who an analysis is for, and so whose rate, rules and instructions it is made with and who
 * pays (docs/product.md, Analysis; Embed widget): the signed-in account, with its Settings or,
 * previewing one of its own businesses' estimators, that business's; or a visitor on a
 * business's site, with the business's, its owner paying.
 */
interface MadeFor {
  userId: number;
  business: BusinessRow | null;
  instructions: string | null;
  hourlyRatePence: number;
  pricing: PricingRules;
  units: UnitSystem;
  embed?: AnalysisRequest['embed'];
}

function requestFor(made: MadeFor, upload: UploadInput, signal: AbortSignal | undefined): AnalysisRequest {
  return {
    userId: made.userId,
    businessId: made.business?.id ?? null,
    bytes: upload.bytes,
    description: upload.description,
    siteDetails: upload.siteDetails,
    treeDetails: upload.treeDetails,
    measurement: upload.measurement,
    sizesConfirmed: upload.sizesConfirmed,
    instructions: made.instructions || undefined,
    hourlyRatePence: made.hourlyRatePence,
    pricing: made.pricing,
    units: made.units,
    signal,
    embed: made.embed,
  };
}

/** The account's own rate, rules and instructions (its Settings). */
function accountTerms(deps: AppDeps, userId: number): Omit<MadeFor, 'userId'> {
  const settings = getSettings(deps.db, userId);
  return { business: null, instructions: settings.aiInstructions, hourlyRatePence: settings.hourlyRatePence, pricing: settings.pricing, units: settings.units };
}

/** A business's own rate, rules and instructions. */
function businessTerms(deps: AppDeps, business: BusinessRow): Omit<MadeFor, 'userId'> {
  return {
    business,
    instructions: business.aiInstructions,
    hourlyRatePence: business.hourlyRatePence,
    pricing: pricingFor(deps.db, business),
    units: business.units,
  };
}

/**
 * The signed-in account's analysis, at its Settings; an upload naming a business previews that
 * business's estimator, which must be the account's own (else the 404 of a missing one).
 * `who`: the team's account, which pays and owns it, and the person running it (named on the
 * analysis and the ledger's row).
 */
export async function analyseForAccount(
  deps: AppDeps,
  slots: ImageSlots,
  who: { userId: number; by: number | null },
  upload: UploadInput,
  signal?: AbortSignal,
): Promise<{ outcome: AnalysisOutcome; businessName: string | null }> {
  const { userId } = who;
  const business = upload.businessSlug ? findBusinessNamed(deps.db, upload.businessSlug, userId) : null;
  const terms = business ? businessTerms(deps, business) : accountTerms(deps, userId);
  const outcome = await runAnalysis(deps, slots, { ...requestFor({ userId, ...terms }, upload, signal), runBy: who.by });
  return { outcome, businessName: business?.name ?? null };
}

/**
 * A visitor's analysis on a business's estimator: the business's rate, rules and instructions
 * whatever the client sent, its owner paying within its daily cap, stored under the business
 * and counted in its funnel. A failure on our side is told in the visitor's words: what to do,
 * not what broke (the cause is logged).
 */
export async function analyseForVisitor(
  deps: AppDeps,
  slots: ImageSlots,
  business: BusinessRow,
  upload: UploadInput,
  signal?: AbortSignal,
): Promise<AnalysisOutcome> {
  if (upload.businessSlug !== undefined && upload.businessSlug !== business.slug) {
    throw new DomainError('VALIDATION_ERROR', 'The businessSlug field does not match the one in the address');
  }
  const made = { ...visitorPayer(business), ...businessTerms(deps, business) };
  const outcome = await runAnalysis(deps, slots, requestFor(made, upload, signal)).catch((error: unknown) => {
    if (error instanceof DomainError && error.code === 'ANALYSIS_FAILED') throw new DomainError('ANALYSIS_FAILED', EMBED_RETRY_MESSAGE, { cause: error });
    throw error;
  });
  // Neither the owner's credits nor the day's slot were taken for an answer that is not a quote.
  countFunnelStep(deps.db, deps.clock, business.id, outcome.outcome === 'needs_details' ? 'needsDetails' : 'estimates');
  return outcome;
}
