import type { ValueSources } from './tree-details';
import { DEFAULT_UNIT_SYSTEM, diameterText, heightText, type EnteredSizes, type UnitSystem } from './units';
import {
  DIAMETER_BANDS,
  DIAMETER_QUESTION,
  HEIGHT_BANDS,
  HEIGHT_QUESTION,
  SPECIES_QUESTION,
  siteAnswers,
  type SiteDetails,
} from './questions';

/**
 * Every answer a visitor gave the estimator, as its business's owner reads it with their quote
 * request: the tree questions, then the site questions, each with the words
 * the visitor picked. Read back from what the analysis stored: the sizes it used and where each
 * came from (a band stores the band's middle value, so the band is found again by its value).
 */
export interface VisitorAnswer {
  question: string;
  answer: string;
}

export interface StoredTreeAnswers {
  species: string | null;
  heightFt: number | null;
  dbhIn: number | null;
  sources: ValueSources | null;
  /** The units the analysis was made in (the business's, or those typed); metric when unknown. */
  units?: UnitSystem | null;
  /** The sizes as typed, so 90 cm reads back as 90 cm. */
  enteredSizes?: EnteredSizes | null;
}

export const NOT_SURE = 'Not sure';

const HOW: Partial<Record<ValueSources['height'], string>> = {
  user: 'typed in',
  measured: 'measured on the photo',
};

interface SizeWords {
  /** The stored size with the other unit in brackets, as every screen shows it (core/units.ts). */
  text: (value: number, tree: StoredTreeAnswers) => string;
  bandLabel: (value: number) => string | undefined;
}

/** "About as tall as a two-storey house (4 to 8 m)", "12 m (40 ft), typed in", or null when the visitor gave none. */
function sizeAnswer(value: number | null, source: ValueSources['height'] | undefined, size: SizeWords, tree: StoredTreeAnswers): string | null {
  if (value === null || source === undefined) return null;
  const inUnits = size.text(value, tree);
  if (source === 'band') return size.bandLabel(value) ?? `About ${inUnits}, a size chosen`;
  const how = HOW[source];
  return how ? `${inUnits}, ${how}` : null;
}

const HEIGHT: SizeWords = {
  text: (feet, tree) => heightText(feet, tree.units ?? DEFAULT_UNIT_SYSTEM, tree.enteredSizes?.height),
  bandLabel: (feet) => Object.values(HEIGHT_BANDS).find((band) => band.feet === feet)?.label,
};
const DIAMETER: SizeWords = {
  text: (inches, tree) => diameterText(inches, tree.units ?? DEFAULT_UNIT_SYSTEM, tree.enteredSizes?.diameter),
  bandLabel: (inches) => Object.values(DIAMETER_BANDS).find((band) => band.inches === inches)?.label,
};

/**
 * The tree questions: the species the visitor chose, or "Not sure" when they named none (a name
 * read from the photo or the description is not their answer); a size only where the visitor
 * gave one (a band, typed or measured), never one the estimate read or assumed.
 */
export function treeAnswers(tree: StoredTreeAnswers): VisitorAnswer[] {
  const species = tree.sources?.species === 'user' && tree.species ? tree.species : NOT_SURE;
  const height = sizeAnswer(tree.heightFt, tree.sources?.height, HEIGHT, tree);
  const diameter = sizeAnswer(tree.dbhIn, tree.sources?.diameter, DIAMETER, tree);
  return [
    { question: SPECIES_QUESTION, answer: species },
    ...(height ? [{ question: HEIGHT_QUESTION, answer: height }] : []),
    ...(diameter ? [{ question: DIAMETER_QUESTION, answer: diameter }] : []),
  ];
}

/** The tree answers, then each site question answered, in the order the estimator asks them. */
export function visitorAnswers(tree: StoredTreeAnswers, site: SiteDetails | null): VisitorAnswer[] {
  return [...treeAnswers(tree), ...(site ? siteAnswers(site) : [])];
}
