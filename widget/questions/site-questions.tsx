import { encodeAnswer, SITE_QUESTIONS, withAnswer, type SiteDetails, type SiteQuestion } from '../../core/questions';
import { ChoiceGroup } from '../components/choice-group';

const NOT_SURE = { value: '', label: 'Not sure' };

/**
 * Where core/questions.ts speaks as the trade does (the owner reads those words with the
 * request), the estimator asks in a homeowner's: no vehicles "reaching", no chipper.
 */
const HOMEOWNER_OPTIONS: Partial<Record<keyof SiteDetails, Record<string, string>>> = {
  access: { open: 'A van can get to it', side_gate: 'Side gate only' },
};
const HOMEOWNER_HINTS: Partial<Record<keyof SiteDetails, string>> = {
  dragDistance: 'The branches are carried from the tree to the van.',
};

const inHomeownerWords = (question: SiteQuestion): SiteQuestion => ({
  ...question,
  hint: HOMEOWNER_HINTS[question.key] ?? question.hint,
  options: question.options.map((option) => ({ ...option, label: HOMEOWNER_OPTIONS[question.key]?.[option.value] ?? option.label })),
});

/** The site questions of core/questions.ts, each with "Not sure" (checked until answered). */
export function SiteQuestions({ value, onChange }: { value: SiteDetails; onChange: (value: SiteDetails) => void }) {
  return (
    <>
      {SITE_QUESTIONS.map(inHomeownerWords).map((question) => (
        <ChoiceGroup
          key={question.key}
          look="pills"
          legend={question.question}
          hint={question.hint}
          choices={[...question.options, NOT_SURE]}
          value={encodeAnswer(value[question.key])}
          onChange={(answer) => onChange(withAnswer(value, question.key, answer))}
        />
      ))}
    </>
  );
}
