/**
 * The questions a user answers beside the photo (docs/product.md, Analysis), defined once for the
 * dashboard's upload stage, its report of a past analysis, and the embedded estimator. Each is
 * one tap in a homeowner's words. No zod here: the widget imports this file and its first chunk
 * is budgeted (core/site.ts and core/tree-details.ts build their schemas from these lists).
 */

/**
 * Height bands by what a homeowner can compare with: a UK storey is about 2.4-2.7 m floor to
 * floor, so a two-storey ridge is about 8 m. The value used is the band's middle. Assumption.
 * `short` is the band as a tile or a report line shows it.
 */
export const HEIGHT_BANDS = {
  below_one_storey: { label: 'Lower than a single-storey roof (under 4 m)', short: 'Below a bungalow roof', range: 'under 4 m', feet: 10 },
  about_two_storey: { label: 'About as tall as a two-storey house (4 to 8 m)', short: 'About a two-storey house', range: '4 to 8 m', feet: 20 },
  taller_than_house: { label: 'Taller than a two-storey house (8 to 15 m)', short: 'Taller than a house', range: '8 to 15 m', feet: 38 },
  much_taller: { label: 'Much taller than a house (over 15 m)', short: 'Much taller than a house', range: 'over 15 m', feet: 60 },
} as const;

/**
 * Trunk bands at 1.5 m up by household objects: a drinks can is 6.6 cm across, a UK
 * dinner plate about 27 cm, a person's hug reaches round about 50 cm across. Middle used.
 * `cm` is the band's bounds in centimetres (null: open), which the section 211 notice sets
 * against its 7.5 cm threshold (core/section-211.ts).
 */
export const DIAMETER_BANDS = {
  thinner_than_can: { label: 'Thinner than a drinks can (under 7 cm)', short: 'Thinner than a drinks can', range: 'under 7 cm', inches: 2, cm: { from: null, to: 7 } },
  up_to_plate: { label: 'Up to a dinner plate (7 to 27 cm)', short: 'Up to a dinner plate', range: '7 to 27 cm', inches: 7, cm: { from: 7, to: 27 } },
  thicker_than_plate: { label: 'Thicker than a dinner plate (27 to 50 cm)', short: 'Thicker than a dinner plate', range: '27 to 50 cm', inches: 15, cm: { from: 27, to: 50 } },
  too_wide_to_hug: { label: 'Too wide to hug (over 50 cm)', short: 'Too wide to hug', range: 'over 50 cm', inches: 26, cm: { from: 50, to: null } },
} as const;

export type HeightBand = keyof typeof HEIGHT_BANDS;
export type DiameterBand = keyof typeof DIAMETER_BANDS;
export const HEIGHT_BAND_KEYS = Object.keys(HEIGHT_BANDS) as [HeightBand, ...HeightBand[]];
export const DIAMETER_BAND_KEYS = Object.keys(DIAMETER_BANDS) as [DiameterBand, ...DiameterBand[]];

/** The size questions' own words. */
export const HEIGHT_QUESTION = 'How tall is the tree?';
export const DIAMETER_QUESTION = 'How thick is the trunk?';
/** 1.5 m: where the law measures a trunk for a conservation area's notice (core/protection.ts SECTION_211_TRUNK_CM). */
export const DIAMETER_HINT = 'Across the trunk, 1.5 m above the ground.';
export const SPECIES_QUESTION = 'What kind of tree is it?';

/** docs/product.md, Analysis: the site answers. Unanswered means unknown; the estimate says what it assumed. */
export const TARGETS = ['nothing', 'fence_shed', 'building', 'road'] as const;
export const ACCESS = ['open', 'side_gate', 'through_house'] as const;
export const DRAG_DISTANCES = ['short', 'medium', 'long'] as const;
export type Targets = (typeof TARGETS)[number];
export type Access = (typeof ACCESS)[number];
export type DragDistance = (typeof DRAG_DISTANCES)[number];

// A type, not an interface: the database column takes it as Record<string, unknown>.
export type SiteDetails = {
  /** What is within falling distance of the tree. */
  targets?: Targets;
  powerLines?: boolean;
  access?: Access;
  /** How far brush must be dragged to the chipper: short < 10 m, medium 10-30 m, long > 30 m. */
  dragDistance?: DragDistance;
  stumpGrinding?: boolean;
  wasteRemoval?: boolean;
};

export const TARGET_LABELS: Record<Targets, string> = {
  nothing: 'Nothing',
  fence_shed: 'Fence or shed',
  building: 'Building',
  road: 'Road or footpath',
};
export const ACCESS_LABELS: Record<Access, string> = {
  open: 'Open (vehicle can reach)',
  side_gate: 'Side gate only',
  through_house: 'Through the house',
};
export const DRAG_LABELS: Record<DragDistance, string> = {
  short: 'Under 10 m',
  medium: '10 to 30 m',
  long: 'Over 30 m',
};

export interface QuestionOption {
  /** The radio's value: the enum value, or "yes"/"no" for a yes-or-no question. */
  value: string;
  label: string;
}

export interface SiteQuestion {
  key: keyof SiteDetails;
  /** The question as the user reads it (a fieldset's legend). */
  question: string;
  /** A line under it, where the question needs one. */
  hint?: string;
  options: QuestionOption[];
}

const YES_NO: QuestionOption[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

const options = (labels: Record<string, string>): QuestionOption[] => Object.entries(labels).map(([value, label]) => ({ value, label }));

/** The site questions, in the order a contractor walks the job. */
export const SITE_QUESTIONS: readonly SiteQuestion[] = [
  { key: 'targets', question: 'What could the tree hit if it fell?', options: options(TARGET_LABELS) },
  { key: 'powerLines', question: 'Are there power lines near the tree?', options: YES_NO },
  { key: 'access', question: 'How can a crew get to the tree?', options: options(ACCESS_LABELS) },
  {
    key: 'dragDistance',
    question: 'How far is the tree from where a van can park?',
    hint: 'Branches are carried from the tree to the chipper by the van.',
    options: options(DRAG_LABELS),
  },
  { key: 'stumpGrinding', question: 'Grind out the stump too?', options: YES_NO },
  { key: 'wasteRemoval', question: 'Take the wood and waste away?', options: YES_NO },
];

const BOOLEAN_KEYS = new Set<keyof SiteDetails>(['powerLines', 'stumpGrinding', 'wasteRemoval']);

/** A radio's value for an answer: yes/no for the booleans, the enum value otherwise, '' when unanswered. */
export function encodeAnswer(answer: SiteDetails[keyof SiteDetails]): string {
  if (answer === undefined) return '';
  if (typeof answer === 'boolean') return answer ? 'yes' : 'no';
  return answer;
}

/** The details with one question answered by a radio's value ('' clears it). */
export function withAnswer(details: SiteDetails, key: keyof SiteDetails, value: string): SiteDetails {
  const next = { ...details };
  if (value === '') delete next[key];
  // The options come from the same lists as siteDetailsSchema, so the value fits the key.
  else Object.assign(next, { [key]: BOOLEAN_KEYS.has(key) ? value === 'yes' : value });
  return next;
}

/** The questions answered, each with its answer as the user picked it: for a past analysis or a lead. */
export function siteAnswers(details: SiteDetails): { question: string; answer: string }[] {
  return SITE_QUESTIONS.flatMap(({ key, question, options: choices }) => {
    const value = encodeAnswer(details[key]);
    const choice = choices.find((option) => option.value === value);
    return choice ? [{ question, answer: choice.label }] : [];
  });
}

/** The answered questions only, as the upload's `siteDetails` field; undefined when none are. */
export function siteDetailsField(details: SiteDetails): string | undefined {
  const answered = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));
  return Object.keys(answered).length > 0 ? JSON.stringify(answered) : undefined;
}
