import { ArrowLeft, CircleCheck, PencilRuler, Ruler } from 'lucide-react';
import type { NeedsDetails } from '../../../core/tree-details';
import { buttonStyles, cardStyles } from '../ui';
import { FileImage } from './file-image';
import { SizeWarnings } from './size-warnings';
import { StageHeading } from './stage-heading';

/**
 * The answer that is not a quote: the server could not estimate without a size, or the
 * photo does not look like a tree. Nothing was charged; the way back keeps the photo and
 * everything entered, and lands on what is missing.
 */
export function NeedsDetailsStage({
  answer,
  file,
  onBack,
  onConfirmSizes,
}: {
  answer: NeedsDetails;
  file: File;
  onBack: () => void;
  /** Sizes the checks found unlikely: send the same analysis again, saying they are right. */
  onConfirmSizes: () => void;
}) {
  const notATree = answer.missing.includes('tree_photo');
  const needsSize = answer.missing.includes('height') || answer.missing.includes('diameter');
  if (answer.missing.includes('check_sizes') && !notATree && !needsSize) {
    return <CheckSizes answer={answer} file={file} onCorrect={onBack} onConfirm={onConfirmSizes} />;
  }
  return (
    <section aria-labelledby="needs-details-title" className={`${cardStyles} flex flex-col gap-5 p-4 sm:p-6`} data-testid="needs-details">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <FileImage file={file} alt="The photo you chose" className="max-h-56 w-full rounded-xl bg-stone-100 object-contain sm:w-56" />
        <div className="flex min-w-0 flex-col gap-3">
          <StageHeading id="needs-details-title" focus>
            {notATree && !needsSize ? 'Is This a Tree?' : 'More Details Needed'}
          </StageHeading>
          <p className="text-base text-stone-900">{answer.message}</p>
          {answer.reasons.length > 0 ? (
            <ul aria-label="Why" className="list-disc space-y-1 pl-5 text-sm text-stone-700 marker:text-amber-700">
              {answer.reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
          ) : null}
          <p className="inline-flex items-center gap-2 self-start rounded-lg bg-green-50 px-3 py-2 text-sm font-medium text-green-900">
            <CircleCheck aria-hidden="true" className="size-4" />
            No credits were used
          </p>
        </div>
      </div>
      {needsSize ? (
        <p className="flex items-start gap-2 text-sm text-stone-700">
          <Ruler aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-green-800" />
          Type the height and trunk diameter, pick the sizes nearest, or use &ldquo;Measure on the photo&rdquo; with a door
          or a person beside the tree.
        </p>
      ) : null}
      <div>
        <button type="button" className={buttonStyles.primary} onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          {needsSize ? 'Add Tree Details' : 'Back to the Photo and Details'}
        </button>
      </div>
    </section>
  );
}

/**
 * Sizes that look unlikely for the tree, or measured by too small a reference: no price until
 * they are corrected or said to be right (the estimate then carries the warnings and a lower
 * confidence). Nothing was charged for this answer.
 */
function CheckSizes({ answer, file, onCorrect, onConfirm }: { answer: NeedsDetails; file: File; onCorrect: () => void; onConfirm: () => void }) {
  return (
    <section aria-labelledby="check-sizes-title" className={`${cardStyles} flex flex-col gap-5 p-4 sm:p-6`} data-testid="needs-details">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <FileImage file={file} alt="The photo you chose" className="max-h-56 w-full rounded-xl bg-stone-100 object-contain sm:w-56" />
        <div className="flex min-w-0 flex-col gap-3">
          <StageHeading id="check-sizes-title" focus>
            Check the Sizes
          </StageHeading>
          <p className="text-base text-stone-900">{answer.message}</p>
          <SizeWarnings title="These sizes look unlikely" warnings={answer.reasons} />
          <p className="text-sm text-stone-700">
            Correct the sizes, or measure again with a reference that fills more of the photo. If they are right, the estimate is
            made with these warnings on it and a lower confidence.
          </p>
          <p className="inline-flex items-center gap-2 self-start rounded-lg bg-green-50 px-3 py-2 text-sm font-medium text-green-900">
            <CircleCheck aria-hidden="true" className="size-4" />
            No credits were used
          </p>
        </div>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <button type="button" className={buttonStyles.primary} onClick={onCorrect}>
          <PencilRuler aria-hidden="true" className="size-4" />
          Correct the Sizes
        </button>
        <button type="button" className={buttonStyles.secondary} onClick={onConfirm}>
          <CircleCheck aria-hidden="true" className="size-4" />
          These Sizes Are Right
        </button>
      </div>
    </section>
  );
}
