import { ArrowLeft, Calculator, CircleCheck } from 'lucide-react';
import { lazy, Suspense } from 'react';
import type { EmbedNeedsDetails } from '../../core/embed-api';
import { SizeWarnings } from '../components/size-warnings';
import { ViewHeading } from '../components/view-heading';
import type { QuestionsPanelProps } from '../questions/questions-panel';
import { buttonStyles, cardStyles, hintStyles } from '../ui';

/** The size questions and measuring, from the questions' chunk (already loaded: the photo was chosen). */
const SizeStep = lazy(() => import('../questions/questions-panel').then((chunk) => ({ default: chunk.SizeStep })));

interface NeedsDetailsViewProps {
  answer: EmbedNeedsDetails;
  file: File | null;
  answers: Omit<QuestionsPanelProps, 'file'>;
  /** Ask again with the sizes now chosen. */
  onRetry: () => void;
  /** Ask again, saying the sizes the checks found unusual are right. */
  onConfirmSizes: () => void;
  /** Back to the upload with the photo, the answers and the context kept. */
  onBack: () => void;
  focus: boolean;
}

/**
 * No estimate without a size, or for a photo that is probably not a tree (docs/analysis.md, No
 * quote without a size). Nothing was charged to the business for it. A missing size is
 * answered right here with a tap: the size pictures, "Not sure" (a typical garden tree's price),
 * or measuring on the photo, then "Get my estimate"; a photo that is not a tree sends the visitor back for another.
 */
export function NeedsDetailsView({ answer, file, answers, onRetry, onConfirmSizes, onBack, focus }: NeedsDetailsViewProps) {
  const needsSize = answer.missing.includes('height') || answer.missing.includes('diameter');
  const needsPhoto = answer.missing.includes('tree_photo');
  if (answer.missing.includes('check_sizes') && !needsSize && !needsPhoto && file !== null) {
    return <CheckSizesView answer={answer} file={file} answers={answers} onRetry={onRetry} onConfirmSizes={onConfirmSizes} focus={focus} />;
  }
  const canAnswerHere = needsSize && !needsPhoto && file !== null;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <ViewHeading focus={focus}>{answer.message}</ViewHeading>
        <p className="text-stone-700">
          {canAnswerHere
            ? 'Pick the closest size, or measure it on your photo. Your photo and answers are kept.'
            : 'Your photo and notes are kept, so you only need to add what is missing.'}
        </p>
      </div>

      {answer.reasons.length > 0 && (
        <div className={cardStyles}>
          <h3 className="text-sm font-semibold text-stone-800">Why</h3>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-stone-700">
            {answer.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      )}

      {canAnswerHere ? (
        <>
          <Suspense fallback={<p className={hintStyles}>Loading the sizes…</p>}>
            <SizeStep {...answers} sizesFromPhoto={false} file={file} />
          </Suspense>
          <button type="button" className={`${buttonStyles.primary} w-full`} onClick={onRetry}>
            <Calculator aria-hidden="true" className="size-4" />
            Get my estimate
          </button>
          <button type="button" className={`${buttonStyles.secondary} w-full`} onClick={onBack}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            Back to my photo and answers
          </button>
        </>
      ) : (
        <>
          {needsPhoto && <p className={hintStyles}>Choose a photo that shows the whole tree, from about its own height away.</p>}
          <button type="button" className={`${buttonStyles.primary} w-full`} onClick={onBack}>
            <ArrowLeft aria-hidden="true" className="size-4" />
            {needsPhoto ? 'Choose another photo' : 'Add details'}
          </button>
        </>
      )}
    </div>
  );
}

/**
 * Sizes that look unusual for the tree, or measured by something too small on the photo: the
 * visitor says they are right, or changes them right here (a size picture, or measuring again),
 * before any price. Nothing was charged to the business for this answer.
 */
function CheckSizesView({
  answer,
  file,
  answers,
  onRetry,
  onConfirmSizes,
  focus,
}: Pick<NeedsDetailsViewProps, 'answer' | 'answers' | 'onRetry' | 'onConfirmSizes' | 'focus'> & { file: File }) {
  return (
    <div className="flex flex-col gap-4">
      <ViewHeading focus={focus}>{answer.message}</ViewHeading>
      <SizeWarnings title="These sizes look unusual" warnings={answer.reasons} />
      <button type="button" className={`${buttonStyles.primary} w-full`} onClick={onConfirmSizes}>
        <CircleCheck aria-hidden="true" className="size-4" />
        These sizes are right
      </button>
      <div className="flex flex-col gap-3 border-t border-stone-200 pt-4">
        <h3 className="text-base font-semibold text-stone-900">Or change them</h3>
        <p className={hintStyles}>Measure again with something taller beside the tree, or clear the measuring and pick the closest size (a measured size is used over a picked one). Your photo and answers are kept.</p>
        <Suspense fallback={<p className={hintStyles}>Loading the sizes…</p>}>
          <SizeStep {...answers} sizesFromPhoto={false} file={file} />
        </Suspense>
        <button type="button" className={`${buttonStyles.secondary} w-full`} onClick={onRetry}>
          <Calculator aria-hidden="true" className="size-4" />
          Get my estimate with these sizes
        </button>
      </div>
    </div>
  );
}
