import { useId, type ReactNode } from 'react';

export interface Choice {
  value: string;
  label: string;
  /** A second, smaller line (a band's range in metres). */
  detail?: string;
  picture?: ReactNode;
}

interface ChoiceGroupProps {
  legend: string;
  hint?: string;
  choices: Choice[];
  /** The checked choice's value; '' is a choice too ("Not sure", "Let the photo decide"). */
  value: string;
  onChange: (value: string) => void;
  /** Tiles with pictures for the sizes, pills for the short site answers. */
  look: 'tiles' | 'pills';
}

/**
 * One question, one tap: native radios in a fieldset, so a screen reader names the question and
 * its answer, and arrow keys move between answers. The radio itself is visually hidden; its
 * label is the tap target (at least 44 px tall), outlined when focused by keyboard.
 */
export function ChoiceGroup({ legend, hint, choices, value, onChange, look }: ChoiceGroupProps) {
  const name = useId();
  const hintId = `${name}-hint`;
  return (
    <fieldset className="min-w-0" aria-describedby={hint ? hintId : undefined}>
      <legend className="mb-1 text-sm font-semibold text-stone-900">{legend}</legend>
      {hint && (
        <p id={hintId} className="mb-2 text-sm text-stone-600">
          {hint}
        </p>
      )}
      <div className={look === 'tiles' ? 'mt-2 grid grid-cols-1 gap-2 @sm:grid-cols-2' : 'mt-2 flex flex-wrap gap-2'}>
        {choices.map((choice) => (
          <label
            key={choice.value}
            className={`flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-stone-300 bg-white text-sm text-stone-800 hover:border-stone-500 has-checked:border-accent-visible has-checked:bg-stone-100 has-checked:font-semibold has-checked:text-stone-900 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent-visible ${
              look === 'tiles' ? 'px-3 py-2' : 'px-3 py-1.5'
            }`}
          >
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              className="sr-only"
            />
            {choice.picture}
            <span className="flex min-w-0 flex-col">
              <span>{choice.label}</span>
              {choice.detail && <span className="text-xs font-normal text-stone-600">{choice.detail}</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
