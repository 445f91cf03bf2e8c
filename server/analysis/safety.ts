import { POWER_LINE_CLEARANCE } from '../../core/help-text';
import { isNestingSeason, LARGE_TREE } from '../../core/homeowner-guide';
import type { SiteDetails, Targets } from '../../core/site';
import type { Method } from '../../core/time-model';
import type { HazardEffects } from './hazards';

/**
 * Safety warnings and abstention (docs/product.md, Analysis): UK flags where they apply, and
 * "Site visit recommended" when the estimate should not be trusted from a photo alone.
 */
export interface SafetyInput {
  date: Date;
  site: Required<Pick<SiteDetails, 'targets' | 'powerLines'>>;
  /**
   * Everything within falling distance. The site answer holds one target (the time model's),
   * but a description may name a building and a road: both get their warnings.
   */
  targetsNear: readonly Targets[];
  /** What the hazards named in the details call for (hazards.ts). */
  hazards: Pick<HazardEffects, 'noClimbing' | 'warnings' | 'siteVisitReasons'>;
  method: Method;
  dbhIn: number;
  heightFt: number;
  confidence: number;
  /** Sizes nobody could give, priced across a typical garden tree's range (estimate.ts sizeRanges): a visit pins them down. */
  sizesNotKnown?: readonly ('height' | 'diameter')[];
  /** Nobody said whether there are power lines: priced as near (core/site-assumptions.ts), and the warning says "may be". */
  powerLinesAssumed?: boolean;
}

export interface SafetyResult {
  warnings: string[];
  siteVisitReason: string | null;
}

/** Below this confidence the result asks for a site visit. Assumption: the local provider tops out at 0.5. */
export const LOW_CONFIDENCE = 0.35;
/** "Large" for abstention (core/homeowner-guide.ts LARGE_TREE: 50 ft tall or a 24 in trunk). Assumption, the price guides' large-tree band. */
const LARGE_HEIGHT_FT = LARGE_TREE.heightFt;
const LARGE_DBH_IN = LARGE_TREE.dbhIn;

export function assessSafety(input: SafetyInput): SafetyResult {
  const { site } = input;
  const warnings = [
    // Town and Country Planning Act 1990 s.198 / s.211: consent or six weeks' notice first.
    'Check with your local council for a Tree Preservation Order or conservation area before felling.',
  ];
  if (isNestingSeason(input.date)) {
    warnings.push(
      'Bird nesting season (March to August): check the tree for active nests before work; disturbing them is an offence under the Wildlife and Countryside Act 1981.',
    );
  }
  if (site.powerLines) {
    const lines = input.powerLinesAssumed ? 'Power lines may be near the tree (not yet confirmed)' : 'Power lines near the tree';
    warnings.push(`${lines}: only a competent, authorised contractor may do this work. ${POWER_LINE_CLEARANCE}`);
  }
  if (site.targets === 'road' || input.targetsNear.includes('road')) {
    warnings.push('Road or footpath in falling distance: traffic management is needed, and the highway authority may need to be told.');
  }
  // Compromised wood is not climbed at all; its own warning says how the work is done instead.
  if (input.method === 'climb_dismantle' && !input.hazards.noClimbing) {
    warnings.push('Climbing and rigging: use a qualified climber with a ground-based rescue plan (LOLER-inspected equipment).');
  }
  warnings.push(...input.hazards.warnings);
  warnings.push('Do not work in winds above 25 mph.');

  const reasons: string[] = [];
  if (input.confidence < LOW_CONFIDENCE) {
    reasons.push(`the estimate has low confidence (${Math.round(input.confidence * 100)}%)`);
  }
  const large = input.heightFt >= LARGE_HEIGHT_FT || input.dbhIn >= LARGE_DBH_IN;
  const near = site.powerLines ? 'power lines' : site.targets === 'building' ? 'a building' : site.targets === 'road' ? 'a road or footpath' : null;
  if (large && near) reasons.push(`a large tree ${near === 'power lines' && input.powerLinesAssumed ? 'that may be near' : 'near'} ${near} needs an on-site risk assessment`);
  else if (large && input.targetsNear.includes('road')) reasons.push('a large tree near a road or footpath needs an on-site risk assessment');
  reasons.push(...input.hazards.siteVisitReasons);
  const notKnown = input.sizesNotKnown ?? [];
  if (notKnown.length > 0) {
    const what = notKnown.length === 2 ? "the tree's height and trunk size were" : notKnown[0] === 'height' ? "the tree's height was" : "the trunk's size was";
    reasons.push(`${what} not known, so the price covers a typical garden tree; a visit will confirm the size`);
  }
  const siteVisitReason = reasons.length > 0 ? capitalise(reasons.join('; ')) : null;
  return { warnings, siteVisitReason };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
