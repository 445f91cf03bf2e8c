import { foldName, matchSpecies, SPECIES, type TreeKind } from './species';

export interface SpeciesOption {
  /** The name sent as treeDetails.species; empty for "Not sure". */
  value: string;
  label: string;
  /** The Latin name, and broadleaf or conifer; empty for "Not sure". */
  latin: string;
  kind: TreeKind | null;
  /** The other name the typed text matched, when it was not the name itself ("leylandii"). */
  matched: string | null;
}

export const NOT_SURE: SpeciesOption = { value: '', label: 'Not sure', latin: '', kind: null, matched: null };

/** core/species.ts's picker order: alphabetical, the two kinds without a species ("Conifer") last. */
const ALL = [...SPECIES]
  .sort((x, y) => Number(Boolean(x.generic)) - Number(Boolean(y.generic)) || x.name.localeCompare(y.name, 'en-GB'))
  .map((species) => ({ species, name: foldName(species.name), others: [species.latin, ...species.aliases].map((n) => ({ text: n, folded: foldName(n) })) }));

/** 0: the text starts it; 1: a later word starts with it; 2: it is inside; Infinity: no match. */
function rank(haystack: string, needle: string): number {
  if (haystack.startsWith(needle)) return 0;
  if (haystack.split(' ').some((word) => word.startsWith(needle))) return 1;
  return haystack.includes(needle) ? 2 : Infinity;
}

/**
 * The species list filtered by what the user typed: by name first ("Scots pine" for "sc"),
 * then by the other names a tree goes by, Latin included ("leylandii", "quercus", "conker");
 * "Not sure" always first.
 */
export function speciesOptions(query: string): SpeciesOption[] {
  const needle = foldName(query);
  const ranked: { option: SpeciesOption; rank: number }[] = [];
  for (const { species, name, others } of ALL) {
    const option: SpeciesOption = { value: species.name, label: species.name, latin: species.latin, kind: species.kind, matched: null };
    if (needle === '') {
      ranked.push({ option, rank: 0 });
      continue;
    }
    const byName = rank(name, needle);
    if (byName < Infinity) {
      ranked.push({ option, rank: byName });
      continue;
    }
    let best: { rank: number; text: string } | null = null;
    for (const other of others) {
      const r = rank(other.folded, needle);
      if (r < (best?.rank ?? Infinity)) best = { rank: r, text: other.text };
    }
    if (best) {
      const isLatin = best.text === species.latin;
      ranked.push({ option: { ...option, matched: isLatin ? null : best.text }, rank: 3 + best.rank });
    }
  }
  ranked.sort((a, b) => a.rank - b.rank);
  return [NOT_SURE, ...ranked.map((r) => r.option)];
}

/**
 * The trees a UK garden most often has, most common first (the Forestry Commission's and the
 * RHS's lists of common garden and street trees; assumption): what the species question lists
 * the moment it is tapped, before a letter is typed. Then the two kinds for "I only know that much".
 */
export const COMMON_UK_TREES = [
  'Oak',
  'Sycamore',
  'Ash',
  'Silver birch',
  'Leyland cypress',
  'Beech',
  'Horse chestnut',
  'Flowering cherry',
  'Apple',
  'Willow',
  'Hawthorn',
  'Lime',
  'Conifer',
  'Broadleaf tree',
] as const;

/** The common UK trees as options, in that order (Not sure is the question's own first choice). */
export function commonSpeciesOptions(): SpeciesOption[] {
  return COMMON_UK_TREES.flatMap((name) => {
    const found = ALL.find(({ species }) => species.name === name);
    return found ? [{ value: found.species.name, label: found.species.name, latin: found.species.latin, kind: found.species.kind, matched: null }] : [];
  });
}

/** The listed species a typed text names (core/species.ts's matcher, as the server reads it), if any. */
export function exactSpecies(text: string): string | undefined {
  return matchSpecies(text)?.name;
}
