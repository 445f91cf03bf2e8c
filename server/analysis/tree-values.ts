import { normaliseSpecies, type NormalisedSpecies, type UserTreeSizes } from '../../core/normalise';
import type { ValueSource, ValueSources } from '../../core/tree-details';
import type { ParsedDescription } from './description-parser';
import type { Perception } from './types';

/**
 * Which species, height and trunk size the estimate uses, and where each came from. For each,
 * the first that has one wins (docs/product.md, Analysis):
 *   typed by the user > measured on the photo > a band the user chose > a model's reading
 *   > the project details > assumed.
 * The user's values override a vision model's; when they differ, the factors say so.
 */
export interface TreeValues {
  species: NormalisedSpecies;
  heightFt: number | null;
  dbhIn: number | null;
  crownSpreadFt: number | null;
  /** Sources of what was given; a size left null here is later assumed (estimate.ts). */
  sources: ValueSources;
  factors: string[];
}

interface Candidate<T> {
  value: T | null;
  source: ValueSource;
}

function first<T>(candidates: Candidate<T>[]): Candidate<T> | null {
  return candidates.find((c) => c.value !== null) ?? null;
}

const SOURCE_WORDS: Partial<Record<ValueSource, string>> = {
  user: 'as you entered it',
  measured: 'as measured on your photo',
  band: 'from the size you chose',
};

export function resolveTreeValues(user: UserTreeSizes | null, perception: Perception, parsed: ParsedDescription): TreeValues {
  const model = perception.readFrom === 'model' ? perception : null;
  const factors: string[] = [];

  const height = first<number>([
    { value: user?.heightFt?.value ?? null, source: user?.heightFt?.source ?? 'user' },
    { value: model?.heightFt ?? null, source: 'model' },
    { value: parsed.heightFt, source: 'description' },
  ]);
  const dbh = first<number>([
    { value: user?.dbhIn?.value ?? null, source: user?.dbhIn?.source ?? 'user' },
    { value: model?.dbhIn ?? null, source: 'model' },
    { value: parsed.dbhIn, source: 'description' },
  ]);
  const speciesName = first<string>([
    { value: user?.species?.name ?? null, source: 'user' },
    { value: model?.species ?? null, source: 'model' },
    { value: parsed.species?.name ?? null, source: 'description' },
  ]);

  // Say where the user's word replaced the model's, so the contractor can see both.
  const overruled = (what: string, chosen: Candidate<number> | null, modelValue: number | null | undefined, unit: string) => {
    const words = chosen ? SOURCE_WORDS[chosen.source] : undefined;
    if (words && modelValue != null && modelValue !== chosen!.value) {
      factors.push(`${what} ${chosen!.value} ${unit} ${words}; the AI model read ${modelValue} ${unit} from the photo`);
    }
  };
  overruled('Height', height, model?.heightFt, 'ft');
  overruled('Trunk diameter', dbh, model?.dbhIn, 'in');
  if (speciesName?.source === 'user' && model?.species && normaliseSpecies(model.species).name !== speciesName.value) {
    factors.push(`Species ${speciesName.value} as you chose it; the AI model thought ${model.species}`);
  }

  return {
    species: normaliseSpecies(speciesName?.value ?? null),
    heightFt: height?.value ?? null,
    dbhIn: dbh?.value ?? null,
    crownSpreadFt: model?.crownSpreadFt ?? parsed.crownSpreadFt,
    sources: {
      species: speciesName?.source ?? null,
      height: height?.source ?? 'assumed',
      diameter: dbh?.source ?? 'assumed',
    },
    factors,
  };
}
