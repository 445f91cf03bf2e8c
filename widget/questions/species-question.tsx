import { Search } from 'lucide-react';
import { useId, useState } from 'react';
import { SPECIES_QUESTION } from '../../core/questions';
import { commonSpeciesOptions, NOT_SURE, speciesOptions } from '../../core/species-search';
import { fieldStyles, labelStyles } from '../ui';
import { ChoiceGroup, type Choice } from '../components/choice-group';

/** Matches shown at once: enough to find a tree by a few letters, few enough to tap on a phone. */
const SHOWN = 6;
/** Tapped, before a letter is typed: the common UK garden trees (core/species-search.ts). */
const COMMON = commonSpeciesOptions();

/**
 * "What kind of tree is it?": Not sure (checked until a tree is picked), or a search of the
 * species list by any name a tree goes by (core/species-search.ts, as the dashboard's picker).
 */
export function SpeciesQuestion({ value, onChange }: { value: string; onChange: (species: string) => void }) {
  const [query, setQuery] = useState('');
  /** The list opens on a tap of the search box, and stays open once opened. */
  const [opened, setOpened] = useState(false);
  const searchId = useId();
  const hintId = useId();
  const matches =
    query.trim() === '' ? (opened ? COMMON : []) : speciesOptions(query).filter((option) => option.value !== '').slice(0, SHOWN);
  const choices: Choice[] = [{ value: NOT_SURE.value, label: NOT_SURE.label }];
  if (value && !matches.some((option) => option.value === value)) choices.push({ value, label: value });
  for (const option of matches) {
    choices.push({ value: option.value, label: option.label, detail: option.matched ? `Also called ${option.matched}` : undefined });
  }
  return (
    <div className="flex flex-col gap-2">
      <div>
        <label htmlFor={searchId} className={labelStyles}>
          {SPECIES_QUESTION} <span className="font-normal text-stone-600">(optional)</span>
        </label>
        <div className="relative mt-1">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-500" />
          <input
            id={searchId}
            type="search"
            autoComplete="off"
            placeholder="e.g. oak"
            aria-describedby={hintId}
            value={query}
            onFocus={() => setOpened(true)}
            onClick={() => setOpened(true)}
            onChange={(event) => setQuery(event.target.value)}
            className={`${fieldStyles} pl-9`}
          />
        </div>
        <p id={hintId} className="mt-1 text-sm text-stone-600">
          Tap to see common trees, or type any name.
        </p>
      </div>
      <ChoiceGroup
        look="pills"
        legend="Kind of tree"
        hint={query.trim() && matches.length === 0 ? 'No tree by that name in our list: Not sure is fine.' : undefined}
        choices={choices}
        value={value}
        onChange={onChange}
      />
    </div>
  );
}
