/**
 * Hazards a customer names in the project details ("ash with ash dieback", "leaning over the
 * road", "ivy-clad", "storm damaged"): each becomes a factor, a safety recommendation and,
 * where it raises the risk of the work, a longer time and "Site visit recommended".
 *
 * Hazards of one kind do not compound: "dead, rotten and full of fungus" is one problem of
 * compromised wood, not three. Kinds multiply, capped at HAZARD_CAP.
 */
export type HazardKey =
  | 'dead'
  | 'dying'
  | 'ash_dieback'
  | 'decay'
  | 'fungus'
  | 'hollow'
  | 'deadwood'
  | 'split'
  | 'storm_damage'
  | 'leaning'
  | 'over_road'
  | 'ivy';

type HazardGroup = 'compromised' | 'deadwood' | 'damaged' | 'lean' | 'road' | 'ivy';

export interface TimeMultipliers {
  cutting: number;
  prep: number;
  cleanup: number;
}

interface GroupRule {
  /** What the words mean for the job, in the factor list. */
  meaning: string;
  warning: string;
  times: TimeMultipliers;
  /** Why a site visit is needed, or null when the hazard does not call for one. */
  siteVisit: string | null;
}

/** What each word is, in the product's words. */
export const HAZARD_WORDS: Record<HazardKey, { label: string; group: HazardGroup }> = {
  dead: { label: 'dead', group: 'compromised' },
  dying: { label: 'dying', group: 'compromised' },
  ash_dieback: { label: 'ash dieback', group: 'compromised' },
  decay: { label: 'decay', group: 'compromised' },
  fungus: { label: 'fungus', group: 'compromised' },
  hollow: { label: 'hollow', group: 'compromised' },
  deadwood: { label: 'dead branches', group: 'deadwood' },
  split: { label: 'split or cracked', group: 'damaged' },
  storm_damage: { label: 'storm damage', group: 'damaged' },
  leaning: { label: 'leaning', group: 'lean' },
  over_road: { label: 'over the road', group: 'road' },
  ivy: { label: 'ivy-clad', group: 'ivy' },
};

/*
 * The multipliers are assumptions, set from what the guidance requires the crew to do:
 * - Compromised wood: HSE AFAG401 "Tree-climbing operations" applies only where a risk
 *   assessment finds climbing the right access; dead, decayed, hollow or fungus-infected wood
 *   can fail at low and unpredictable loads, so it is not climbed or rigged from in the normal
 *   way but dismantled from a MEWP (HSE AFAG403) or felled with a winch or pulling line from a
 *   distance. Ash with ash dieback (Hymenoscyphus fraxineus) goes brittle quickly; the Tree
 *   Council's Ash Dieback Action Plan Toolkit and the Arboricultural Association's notes to
 *   contractors say the same. Slower cutting (x1.5) and a longer set-up for the platform or
 *   the pulling rig (x1.3).
 * - Split and storm-damaged wood holds tension and compression that release without warning
 *   (HSE AFAG303 "Chainsaw clearance of windblow"): relief cuts and restraint, x1.3 and x1.2.
 * - A lean decides the fall: pulling lines or wedging against it, x1.15 cutting, x1.1 set-up.
 * - Ivy is cut and stripped before the stem can be inspected or cut, and adds brush: x1.2
 *   cutting, x1.1 cleanup.
 * - Dead branches in a living tree: removed first with care, x1.1 cutting.
 * - Over the road: the road target already adds traffic-management time in the time model.
 */
const GROUPS: Record<HazardGroup, GroupRule> = {
  compromised: {
    meaning: 'dead or decayed wood cannot be climbed or rigged in the normal way',
    warning:
      'Dead, dying or decayed wood can break at low and unpredictable loads: do not climb or rig from it. Dismantle from a MEWP or fell with a winch or pulling line from a safe distance, after an on-site assessment (HSE AFAG401, AFAG403).',
    times: { cutting: 1.5, prep: 1.3, cleanup: 1 },
    siteVisit: 'dead, dying or decayed wood needs an on-site assessment before anyone climbs or fells it',
  },
  deadwood: {
    meaning: 'dead branches come out first, with care',
    warning: 'Dead branches can fall while the tree is worked on: keep an exclusion zone and wear helmets.',
    times: { cutting: 1.1, prep: 1, cleanup: 1 },
    siteVisit: null,
  },
  damaged: {
    meaning: 'split or storm-damaged wood holds tension that is released with relief cuts and restraint',
    warning:
      'Split or storm-damaged wood holds tension and compression that can release without warning: only an experienced operator should cut it (HSE AFAG303, windblow).',
    times: { cutting: 1.3, prep: 1.2, cleanup: 1 },
    siteVisit: 'split or storm-damaged wood needs an on-site assessment',
  },
  lean: {
    meaning: 'a lean decides the fall, so it is pulled or wedged against',
    warning: 'A leaning tree may not fall where it is cut to fall: plan the direction with a pulling line and clear the whole lean side.',
    times: { cutting: 1.15, prep: 1.1, cleanup: 1 },
    siteVisit: "a leaning tree's direction of fall needs checking on site",
  },
  road: {
    meaning: 'work over a road needs traffic management',
    warning: 'Overhanging a road or footpath: traffic management (signs, cones, a banksman) and possibly a highway licence are needed before work.',
    times: { cutting: 1, prep: 1, cleanup: 1 },
    siteVisit: 'a tree over a road needs a traffic management plan on site',
  },
  ivy: {
    meaning: 'ivy is cut and stripped first and adds brush',
    warning: 'Ivy can hide cracks, cavities and decay in the stem: strip it and inspect the stem before climbing.',
    times: { cutting: 1.2, prep: 1, cleanup: 1.1 },
    siteVisit: null,
  },
};

/** Hazards together may at most double a component's time. Assumption: beyond that, only a site visit can price it. */
export const HAZARD_CAP = 2;

export interface HazardEffects {
  /** Compromised wood: the tree must not be climbed or rigged from (a MEWP or a pull instead). */
  noClimbing: boolean;
  factors: string[];
  warnings: string[];
  siteVisitReasons: string[];
  times: TimeMultipliers;
}

const NONE: TimeMultipliers = { cutting: 1, prep: 1, cleanup: 1 };

function times(t: TimeMultipliers): string {
  const parts = (['cutting', 'prep', 'cleanup'] as const).filter((k) => t[k] !== 1).map((k) => `${k === 'prep' ? 'set-up' : k} x${t[k]}`);
  return parts.length > 0 ? `, so ${parts.join(', ')}` : '';
}

/** What the named hazards do to the job: one factor, warning and reason per kind, and the time multipliers. */
export function hazardEffects(keys: readonly HazardKey[]): HazardEffects {
  const byGroup = new Map<HazardGroup, HazardKey[]>();
  for (const key of new Set(keys)) {
    const group = HAZARD_WORDS[key].group;
    byGroup.set(group, [...(byGroup.get(group) ?? []), key]);
  }
  const effects: HazardEffects = { noClimbing: byGroup.has('compromised'), factors: [], warnings: [], siteVisitReasons: [], times: { ...NONE } };
  for (const [group, members] of byGroup) {
    const rule = GROUPS[group];
    const words = members.map((k) => HAZARD_WORDS[k].label).join(', ');
    effects.factors.push(`Your details mention ${words}: ${rule.meaning}${times(rule.times)}`);
    effects.warnings.push(rule.warning);
    if (rule.siteVisit) effects.siteVisitReasons.push(rule.siteVisit);
    for (const part of ['cutting', 'prep', 'cleanup'] as const) effects.times[part] *= rule.times[part];
  }
  if (byGroup.has('compromised') && byGroup.get('compromised')!.includes('ash_dieback')) {
    effects.warnings.push('Ash dieback: affected ash becomes brittle quickly; treat every part of the tree as dead wood.');
  }
  for (const part of ['cutting', 'prep', 'cleanup'] as const) {
    effects.times[part] = Math.min(HAZARD_CAP, Math.round(effects.times[part] * 1000) / 1000);
  }
  return effects;
}
