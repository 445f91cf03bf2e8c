import { Eraser } from 'lucide-react';
import { useId } from 'react';
import { ACCESS_LABELS, DRAG_LABELS, TARGET_LABELS, type SiteDetails } from '../../../core/site';
import { buttonStyles } from '../ui';

interface Option {
  value: string;
  label: string;
}

interface Question {
  key: keyof SiteDetails;
  legend: string;
  options: Option[];
}

const YES_NO: Option[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

const options = (labels: Record<string, string>): Option[] =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

/** DECISIONS, Analysis: the site questions, in the order a contractor walks the job. */
const QUESTIONS: Question[] = [
  { key: 'targets', legend: 'What is within falling distance?', options: options(TARGET_LABELS) },
  { key: 'powerLines', legend: 'Power lines near the tree?', options: YES_NO },
  { key: 'access', legend: 'Access for equipment', options: options(ACCESS_LABELS) },
  { key: 'dragDistance', legend: 'Distance to drag brush to the chipper', options: options(DRAG_LABELS) },
  { key: 'stumpGrinding', legend: 'Stump grinding wanted?', options: YES_NO },
  { key: 'wasteRemoval', legend: 'Wood and waste removal wanted?', options: YES_NO },
];

/** The questions answered, each with its answer as the user picked it: for a past analysis. */
export function siteAnswers(details: SiteDetails): { question: string; answer: string }[] {
  return QUESTIONS.flatMap(({ key, legend, options: choices }) => {
    const value = encode(details[key]);
    const choice = choices.find((option) => option.value === value);
    return choice ? [{ question: legend, answer: choice.label }] : [];
  });
}

const BOOLEAN_KEYS = new Set<keyof SiteDetails>(['powerLines', 'stumpGrinding', 'wasteRemoval']);

/** A radio's value for an answer: yes/no for the booleans, the enum value otherwise. */
function encode(answer: SiteDetails[keyof SiteDetails]): string {
  if (answer === undefined) return '';
  if (typeof answer === 'boolean') return answer ? 'yes' : 'no';
  return answer;
}

function answer(details: SiteDetails, key: keyof SiteDetails, value: string): SiteDetails {
  // The options above come from the same label maps as siteDetailsSchema, so the value fits the key.
  return { ...details, [key]: BOOLEAN_KEYS.has(key) ? value === 'yes' : value } as SiteDetails;
}

function QuestionGroup({
  question,
  value,
  onChange,
}: {
  question: Question;
  value: string;
  onChange: (value: string) => void;
}) {
  const name = useId();
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-medium text-stone-800">{question.legend}</legend>
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
        {QUESTIONS.map((question) => (
          <QuestionGroup
            key={question.key}
            question={question}
            value={encode(value[question.key])}
            onChange={(v) => onChange(answer(value, question.key, v))}
          />
        ))}
      </div>
    </section>
  );
}

/** The answered questions only, as the upload's `siteDetails` field; undefined when none are. */
export function siteDetailsField(details: SiteDetails): string | undefined {
  const answered = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined));
  return Object.keys(answered).length > 0 ? JSON.stringify(answered) : undefined;
}
