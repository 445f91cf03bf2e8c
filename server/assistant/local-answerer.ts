import MiniSearch, { type SearchOptions } from 'minisearch';
import { ARBORIST_ADVICE, HELP_FALLBACK, helpPassages, passageAnswer, type HelpOptions, type HelpPassage } from '../../core/help-text';
import type { Assistant } from './types';

/**
 * The local assistant (docs/product.md, Help assistant and admin log): no network, always replies. It finds the
 * help passage that best matches the question with MiniSearch's BM25 ranking and answers
 * with it, or with a polite pointer to How It Works when nothing matches. A question that
 * touches danger or felling also gets the certified-arborist advice.
 */

/*
 * Words that say nothing about what is asked: left out of the index and the query so "how
 * do I ..." cannot match every passage (MiniSearch's documented way: processTerm -> null).
 */
const STOP_WORDS = new Set(
  `a about am an and any are as at be can could did do does for from get got have has how i if in is it its
   me my of on or please should so that the there this to up was we what when where which who why will with
   would you your i'm it's tell know need want much many`.split(/\s+/),
);

/*
 * Plurals folded to the singular, so "costs" finds "cost", "metres" finds "metre" and
 * "enquiries" finds "enquiry": Harman's S stemmer (Harman 1991, "How effective is suffixing?",
 * JASIS 42(1)), three ordered rules on the word's end, in the index and the question alike.
 * Words of three letters or fewer are left alone ("gas", "yes").
 */
function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && !word.endsWith('aes') && !word.endsWith('ees') && !word.endsWith('oes')) return word.slice(0, -1);
  if (word.endsWith('s') && !word.endsWith('us') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return lower.length === 0 || STOP_WORDS.has(lower) ? null : singular(lower);
}

const FIELDS = ['title', 'text', 'more', 'askedAs'] as const;

/** The most edits a fuzzy match forgives (MiniSearch's default maxFuzzy, stated here because the search relies on it). */
const MAX_FUZZY = 6;

/*
 * Prefix search lets "line" find "lines"; fuzzy search forgives a typo in longer words only,
 * where one letter is not a different word. Titles and the ways people ask weigh more
 * than the body text. A word longer than every indexed word by more than MAX_FUZZY edits
 * can match none of them, and is not searched fuzzily: MiniSearch fills a table of its
 * length squared for each fuzzy word (100 MB for a 10,000-letter one).
 */
const searchOptions = (longestTerm: number): SearchOptions => ({
  boost: { title: 3, askedAs: 2 },
  prefix: (term) => term.length >= 4,
  fuzzy: (term) => (term.length >= 5 && term.length <= longestTerm + MAX_FUZZY ? 0.2 : false),
  maxFuzzy: MAX_FUZZY,
  combineWith: 'OR',
});

export interface HelpSearch {
  /** The passage that best answers the question, or null when nothing matches. */
  best(question: string): HelpPassage | null;
  /** Whether the question is about danger or felling: it matches the arborist passage's words. */
  aboutDanger(question: string): boolean;
}

export function createHelpSearch(options: HelpOptions): HelpSearch {
  const passages = helpPassages(options);
  const byId = new Map(passages.map((p) => [p.id, p]));
  const extractField = (passage: HelpPassage, field: string) => String(passage[field as keyof HelpPassage] ?? '');
  const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
  let longestTerm = 0;
  for (const passage of passages) {
    for (const field of FIELDS) {
      for (const token of tokenize(extractField(passage, field))) longestTerm = Math.max(longestTerm, processTerm(token)?.length ?? 0);
    }
  }
  const index = new MiniSearch<HelpPassage>({
    fields: [...FIELDS],
    extractField,
    processTerm,
    searchOptions: searchOptions(longestTerm),
  });
  index.addAll(passages);

  return {
    best(question) {
      const [top] = index.search(question);
      return top ? (byId.get(String(top.id)) ?? null) : null;
    },
    aboutDanger(question) {
      // Exact words from the ways people ask about danger: "pro" must not reach "professional"
      // by prefix, nor "work" match the passage's "climbing work".
      const hits = index.search(question, { fields: ['askedAs'], filter: (r) => r.id === 'safety-arborist', prefix: false, fuzzy: false });
      return hits.length > 0;
    },
  };
}

export function createLocalAssistant(options: HelpOptions): Assistant {
  const search = createHelpSearch(options);
  return {
    name: 'local',
    answer(question) {
      const passage = search.best(question);
      if (!passage) return Promise.resolve(HELP_FALLBACK);
      const answer = passageAnswer(passage);
      const warn = passage.id !== 'safety-arborist' && (passage.safety === true || search.aboutDanger(question));
      return Promise.resolve(warn ? `${answer} ${ARBORIST_ADVICE}` : answer);
    },
  };
}
