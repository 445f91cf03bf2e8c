import { ChevronDown } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { exactSpecies, speciesOptions, type SpeciesOption } from '../../../core/species-search';

/**
 * The species picker: a combobox with type-to-filter over core/species.ts's list and
 * "Not sure" (the WAI-ARIA APG "editable combobox with list autocomplete" pattern). Arrow
 * keys move through the list, Enter chooses, Escape closes it (or, closed, restores the
 * choice); focus stays in the input throughout, the active option named by
 * aria-activedescendant.
 */
export function SpeciesCombobox({
  value,
  onChange,
  unknownMeans,
}: {
  value: string;
  onChange: (species: string) => void;
  /** What happens without a species on this install, e.g. "the estimate assumes a dense broadleaf". */
  unknownMeans: string;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const options = speciesOptions(query ?? '');
  const shown = query ?? value;

  function choose(option: SpeciesOption) {
    onChange(option.value);
    setQuery(null);
    setOpen(false);
  }

  function close() {
    // Typed text that names a listed species exactly is as good as choosing it; anything else is dropped.
    if (query !== null) {
      const named = exactSpecies(query);
      if (named) onChange(named);
      else if (query.trim() === '') onChange('');
    }
    setQuery(null);
    setOpen(false);
  }

  function openAt(index: number) {
    setOpen(true);
    setActive(index);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const last = options.length - 1;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) openAt(Math.max(options.findIndex((o) => o.value === value && query === null), 0));
        else setActive((i) => Math.min(i + 1, last));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) openAt(last);
        else setActive((i) => Math.max(i - 1, 0));
        break;
      case 'Home':
      case 'End':
        if (open) {
          event.preventDefault();
          setActive(event.key === 'Home' ? 0 : last);
        }
        break;
      case 'Enter': {
        const option = options[active];
        if (open && option) {
          // Choosing from the list must not submit the upload form.
          event.preventDefault();
          choose(option);
        }
        break;
      }
      case 'Escape':
        if (open || query !== null) {
          event.preventDefault();
          event.stopPropagation();
          setQuery(null);
          setOpen(false);
        }
        break;
      case 'Tab':
        if (open) close();
        break;
    }
  }

  const activeOption = open ? options[active] : undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-800">
        Species
      </label>
      <div className="relative">
        <input
          ref={inputRef}
          id={id}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={activeOption ? `${listId}-${active}` : undefined}
          aria-describedby={hintId}
          autoComplete="off"
          spellCheck={false}
          placeholder="Not sure (type to search)"
          value={shown}
          onChange={(event) => {
            setQuery(event.target.value);
            openAt(event.target.value.trim() === '' ? 0 : Math.min(1, speciesOptions(event.target.value).length - 1));
          }}
          onKeyDown={onKeyDown}
          onBlur={close}
          onClick={() => (open ? setOpen(false) : openAt(0))}
          className="w-full rounded-lg border border-stone-300 bg-white py-2.5 pr-9 pl-3 text-base text-stone-900 shadow-xs placeholder:text-stone-500 hover:border-stone-400 focus-visible:outline-2 sm:text-sm"
        />
        <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-stone-600" />
        <ul
          id={listId}
          role="listbox"
          aria-label="Species"
          hidden={!open}
          className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-lg border border-stone-300 bg-white py-1 shadow-lg"
        >
          {options.map((option, index) => (
            <li
              key={option.value || 'not-sure'}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={`flex cursor-pointer items-baseline justify-between gap-3 px-3 py-2 text-sm ${
                index === active ? 'bg-green-100 text-green-950' : 'text-stone-900'
              } ${option.value === value && query === null ? 'font-semibold' : ''}`}
              // Keeps focus in the input, so choosing does not blur (and close) first.
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => setActive(index)}
              onClick={() => choose(option)}
            >
              <span className="min-w-0">
                {option.label}
                {option.matched ? <span className="text-stone-600">{` (${option.matched})`}</span> : null}
                {option.latin ? <span className="block truncate text-xs text-stone-600 italic">{option.latin}</span> : null}
              </span>
              {option.kind ? <span className="shrink-0 text-xs text-stone-600">{option.kind}</span> : null}
            </li>
          ))}
        </ul>
      </div>
      <p id={hintId} className="text-xs text-stone-600">
        {value ? `Chosen: ${value}.` : `Not chosen: ${unknownMeans}.`} Common and Latin names work.
      </p>
    </div>
  );
}
