import type { Access, DragDistance, SiteDetails, Targets } from './questions';

/**
 * "Not sure" means not sure (docs/analysis.md, Not sure and unanswered): what the estimate prices a
 * site question left unanswered or answered "Not sure" as, and a size nobody could give. One rule,
 * used by the estimate (server/analysis/estimate.ts) and read back by every screen that shows the
 * price. Zod-free: the widget imports the prefix.
 *
 * The rule: price on the cautious side where the answer costs time or risk, so that an answer
 * the visitor gives later can only bring the price down, and say so in plain words under "What
 * we assumed". Where the answer is an extra the visitor asks for (stump grinding, taking the
 * wood away), price what a homeowner expects without asking, and list it too.
 */

/** The site as the time model prices it: every question answered. */
export interface CautiousSite {
  targets: Targets;
  powerLines: boolean;
  access: Access;
  dragDistance: DragDistance;
  stumpGrinding: boolean;
  wasteRemoval: boolean;
}

/** How the estimate's factor listing what it assumed starts; the phrases after it are split on ", ". */
export const SITE_ASSUMED_PREFIX = 'Not answered, assumed: ';

/** The wire value of a "Not sure" site answer (the same as leaving the question out). */
export const NOT_SURE = 'not_sure';

interface Assumption<T> {
  value: T;
  /** Short, no commas: the factor's list, the quote's "Priced for" and the lead's "assumed". */
  phrase: string;
  /** What the visitor reads under "What we assumed". */
  sentence: string;
}

export const CAUTIOUS_SITE: { [K in keyof CautiousSite]: Assumption<CautiousSite[K]> } = {
  // The costliest target the time model knows: a building means sections lowered with care and
  // the most protection (core/time-model.ts TARGET_SEVERITY). A road adds traffic management,
  // a line of its own a homeowner would have told us about.
  targets: {
    value: 'building',
    phrase: 'a building within falling distance',
    sentence: 'We assumed a building could be hit if the tree fell; tell us if not and the price may come down.',
  },
  // Power lines add the network operator's liaison time and rule out a straight fell.
  powerLines: {
    value: true,
    phrase: 'power lines may be near',
    sentence: 'We assumed there may be power lines near the tree; tell us if not and the price may come down.',
  },
  // Restricted: no vehicle at the tree, everything carried through a side gate. Not "through the
  // house": a homeowner who is not sure how a crew gets in is unsure whether a van can reach,
  // never whether the only way in is through their own house.
  access: {
    value: 'side_gate',
    phrase: 'side gate only access',
    sentence: 'We assumed a van cannot reach the tree and the crew carries everything through a side gate; tell us if a van can get to it and the price may come down.',
  },
  // The longer band: every metre of drag is paid for in the cleanup time.
  dragDistance: {
    value: 'long',
    phrase: 'brush drag of over 30 m',
    sentence: 'We assumed the tree is over 30 m from where a van can park; tell us if it is nearer and the price may come down.',
  },
  // An extra the visitor asks for: nobody expects to pay for grinding they did not ask for, so it
  // is priced without, and the price's "Not included" line says so too.
  stumpGrinding: {
    value: false,
    phrase: 'no stump grinding',
    sentence: 'We assumed the stump is left low at ground level, not ground out; ask if you want it ground out (that adds to the price).',
  },
  // What a homeowner expects of a tree surgeon unless they say they want the logs: the wood and
  // waste go, which is also the longer cleanup and the disposal charge.
  wasteRemoval: {
    value: true,
    phrase: 'wood and waste taken away',
    sentence: 'We assumed the wood and waste are taken away; tell us if you want to keep the wood and the price may come down.',
  },
};

export const SITE_QUESTION_KEYS = Object.keys(CAUTIOUS_SITE) as (keyof CautiousSite)[];

/**
 * The site the estimate prices: each answer given (by the visitor, else read from the details or
 * the photo), and the cautious value for each one not, with the phrases of what was assumed.
 */
export function cautiousSite(answers: SiteDetails, perceived: SiteDetails = {}): { site: CautiousSite; assumed: string[] } {
  const site = {} as Record<keyof CautiousSite, CautiousSite[keyof CautiousSite]>;
  const assumed: string[] = [];
  for (const key of SITE_QUESTION_KEYS) {
    const given = answers[key] ?? perceived[key];
    if (given !== undefined) site[key] = given;
    else {
      site[key] = CAUTIOUS_SITE[key].value;
      assumed.push(CAUTIOUS_SITE[key].phrase);
    }
  }
  return { site: site as CautiousSite, assumed };
}

/**
 * A typical garden tree, for a height or trunk nobody could give (the visitor said "Not sure", or
 * left it blank where the photo cannot be read): from a small garden tree about a storey and a
 * half high with a trunk about a dinner plate across (a birch, a cherry, an apple: 6 m, 20 cm) to a
 * mature one well above a two-storey house with a trunk about a hug across (an oak, a sycamore, a
 * leylandii: 15 m, 50 cm). Wider than any one band of core/questions.ts, on purpose: the price
 * covers both ends and a site visit is recommended to pin it down. Feet and inches are the
 * metres and centimetres rounded (the time model works in them). Assumption.
 */
export const TYPICAL_GARDEN_TREE = {
  height: { minM: 6, maxM: 15, minFt: 20, maxFt: 49 },
  trunk: { minCm: 20, maxCm: 50, minIn: 8, maxIn: 20 },
} as const;

export type SizeKey = 'height' | 'trunk';

const FT_PER_M = 3.28084;
const CM_PER_IN = 2.54;

/** The phrase for a size priced across a range, in whole feet or inches: "tree height of 6 to 15 m (20 to 49 ft)". */
export function sizeRangePhrase(size: SizeKey, min: number, max: number): string {
  // The typical range's ends are said as chosen (20 in is 50.8 cm: "50 cm", as documented).
  if (size === 'height') {
    const { minFt, maxFt, minM, maxM } = TYPICAL_GARDEN_TREE.height;
    const m = (ft: number) => (ft === minFt ? minM : ft === maxFt ? maxM : Math.round(ft / FT_PER_M));
    return `tree height of ${m(min)} to ${m(max)} m (${min} to ${max} ft)`;
  }
  const { minIn, maxIn, minCm, maxCm } = TYPICAL_GARDEN_TREE.trunk;
  const cm = (inches: number) => (inches === minIn ? minCm : inches === maxIn ? maxCm : Math.round(inches * CM_PER_IN));
  return `trunk width of ${cm(min)} to ${cm(max)} cm (${min} to ${max} in)`;
}

const SIZE_PHRASE = /^(tree height|trunk width) of (.+)$/;

/** The sentence a visitor reads for one phrase of the estimate's assumptions. */
export function assumptionSentence(phrase: string): string {
  const site = SITE_QUESTION_KEYS.find((key) => CAUTIOUS_SITE[key].phrase === phrase);
  if (site) return CAUTIOUS_SITE[site].sentence;
  const size = SIZE_PHRASE.exec(phrase);
  if (size) {
    const what = size[1] === 'tree height' ? "the tree's height" : 'how thick the trunk is';
    return `We did not know ${what}, so we priced a typical garden tree, ${size[2]}; a site visit will confirm it.`;
  }
  // An estimate made before these rules: its own phrase ("fence or shed within falling distance").
  return `We assumed ${phrase}.`;
}

/**
 * What the estimate took for what nobody said, from its factor ("Not answered, assumed: ..."):
 * the phrases (core/quote.ts siteAssumptions reads them for the quote and the lead).
 */
export function assumedPhrases(factors: readonly string[]): string[] {
  const factor = factors.find((f) => f.startsWith(SITE_ASSUMED_PREFIX));
  return factor ? factor.slice(SITE_ASSUMED_PREFIX.length).split(', ').filter(Boolean) : [];
}

/** "What we assumed", in the visitor's words: one sentence for each assumption of the estimate. */
export function assumptionSentences(factors: readonly string[]): string[] {
  return assumedPhrases(factors).map(assumptionSentence);
}
