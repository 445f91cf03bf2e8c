import { ClipboardList } from 'lucide-react';
import type { Analysis } from '../../../core/analysis';
import { cardStyles } from '../ui';
import { siteAnswers } from '../../../core/questions';

/**
 * What the user told us with the photo: the Project Details and the site questions they
 * answered. A past analysis shows them beside its estimate, which they shaped.
 */
export function JobDetails({ analysis }: { analysis: Pick<Analysis, 'description' | 'siteDetails'> }) {
  const answers = analysis.siteDetails ? siteAnswers(analysis.siteDetails) : [];
  const description = analysis.description?.trim();
  return (
    <section aria-labelledby="job-details-title" className={`${cardStyles} mt-6 flex flex-col gap-4 p-4 sm:p-6`}>
      <h2 id="job-details-title" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
        <ClipboardList aria-hidden="true" className="size-5 text-green-800" />
        What You Told Us
      </h2>
      <div>
        <h3 className="text-sm font-medium text-stone-600">Project Details</h3>
        <p className="mt-1 text-sm whitespace-pre-line text-stone-800">{description || 'None given.'}</p>
      </div>
      <div>
        <h3 className="text-sm font-medium text-stone-600">Site questions</h3>
        {answers.length > 0 ? (
          <dl className="mt-1 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            {answers.map(({ question, answer }) => (
              <div key={question}>
                <dt className="text-stone-600">{question}</dt>
                <dd className="font-semibold text-stone-900">{answer}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="mt-1 text-sm text-stone-800">None answered.</p>
        )}
      </div>
    </section>
  );
}
