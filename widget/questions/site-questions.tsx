import { encodeAnswer, SITE_QUESTIONS, withAnswer, type SiteDetails } from '../../core/questions';
import { ChoiceGroup } from '../components/choice-group';

const NOT_SURE = { value: '', label: 'Not sure' };

/** The site questions of core/questions.ts, each with "Not sure" (checked until answered). */
export function SiteQuestions({ value, onChange }: { value: SiteDetails; onChange: (value: SiteDetails) => void }) {
  return (
    <>
      {SITE_QUESTIONS.map((question) => (
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
