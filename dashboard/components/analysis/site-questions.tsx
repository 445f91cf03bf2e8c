import { Eraser } from 'lucide-react';
import { useId } from 'react';
import { encodeAnswer, SITE_QUESTIONS, withAnswer, type SiteDetails, type SiteQuestion } from '../../../core/questions';
import { buttonStyles } from '../ui';

function QuestionGroup({
  question,
  value,
  onChange,
}: {
  question: SiteQuestion;
  value: string;
  onChange: (value: string) => void;
}) {
  const name = useId();
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-medium text-stone-800">{question.question}</legend>
      {question.hint ? <p className="-mt-1 mb-2 text-xs text-stone-600">{question.hint}</p> : null}
      <div className="flex flex-wrap gap-2">
        {question.options.map((option) => (
          <label
            key={option.value}
            className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-stone-300 bg-white px-3 py-2 text-sm text-stone-800 hover:border-stone-400 has-checked:border-green-700 has-checked:bg-green-50 has-checked:text-green-900"
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="size-4 accent-green-800"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The optional site questions beside Project Details. The photo cannot show them and
 * they decide the price more than the tree's size does. Unanswered means unknown.
 */
export function SiteQuestions({ value, onChange }: { value: SiteDetails; onChange: (value: SiteDetails) => void }) {
  const answered = Object.values(value).some((v) => v !== undefined);
  return (
    <section aria-labelledby="site-questions-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id="site-questions-title" className="text-sm font-semibold text-stone-900">
            About the site <span className="font-normal text-stone-600">(optional)</span>
          </h3>
          <p className="text-xs text-stone-600">
            The photo cannot show these, and they affect the time and price more than the tree&apos;s size.
          </p>
        </div>
        {answered ? (
          <button type="button" className={`${buttonStyles.quiet} px-2 py-1.5`} onClick={() => onChange({})}>
            <Eraser aria-hidden="true" className="size-4" />
            Clear site answers
          </button>
        ) : null}
      </div>
      <div className="grid gap-x-6 gap-y-4 md:grid-cols-2">
        {SITE_QUESTIONS.map((question) => (
          <QuestionGroup
            key={question.key}
            question={question}
            value={encodeAnswer(value[question.key])}
            onChange={(v) => onChange(withAnswer(value, question.key, v))}
          />
        ))}
      </div>
    </section>
  );
}
