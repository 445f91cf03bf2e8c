import { Check } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { labelStyles } from '../ui';

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
  /** Tiles with pictures for the sizes, pills for the short answers. */
  look: 'tiles' | 'pills';
  /** Says "(optional)" after the question. */
  optional?: boolean;
}

/** A list of choices from a label map (core/contact-preference.ts and the like). */
export function choicesOf(labels: Record<string, string>): Choice[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}

/**
 * One question, one tap: native radios in a fieldset, so a screen reader names the question and
 * its answer, and arrow keys move between answers. Shared by the questions and the quote request. The radio itself is visually hidden; its
 * label is the tap target (at least 44 px tall), outlined when focused by keyboard.
 */
export function ChoiceGroup({ legend, hint, choices, value, onChange, look, optional }: ChoiceGroupProps) {
  const name = useId();
  const hintId = `${name}-hint`;
  return (
    <fieldset className="min-w-0" aria-describedby={hint ? hintId : undefined}>
      <legend className={`${labelStyles} mb-1`}>
        {legend}
        {optional && <span className="font-normal text-stone-600"> (optional)</span>}
      </legend>
      {hint && (
        <p id={hintId} className="mb-2 text-sm text-stone-600">
          {hint}
        </p>
      )}
      <div className={look === 'tiles' ? 'mt-2 grid grid-cols-1 gap-2 @sm:grid-cols-2' : 'mt-2 flex flex-wrap gap-2'}>
        {choices.map((choice) => (
          <label
            key={choice.value}
            className={`flex min-h-11 cursor-pointer items-center border text-sm text-stone-800 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent-visible ${
              look === 'tiles'
                ? 'gap-3 rounded-lg border-stone-300 bg-white px-3 py-2 hover:border-stone-500 has-checked:border-accent-visible has-checked:bg-stone-100 has-checked:font-semibold has-checked:text-stone-900 has-checked:ring-1 has-checked:ring-accent-visible'
                : 'gap-1.5 rounded-full border-stone-400 bg-white px-4 py-1.5 font-semibold hover:border-stone-600 has-checked:border-accent-visible has-checked:bg-accent has-checked:text-on-accent'
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
            {/* The tick says "chosen" without relying on colour alone. */}
            {value === choice.value && !choice.picture && <Check aria-hidden="true" className="size-4 shrink-0" />}
            <span className="flex min-w-0 flex-col">
              <span>{choice.label}</span>
              {choice.detail && <span className="text-xs font-normal opacity-80">{choice.detail}</span>}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
