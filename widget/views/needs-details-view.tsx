import { ArrowLeft, Ruler } from 'lucide-react';
import type { EmbedNeedsDetails } from '../../core/embed';
import { ViewHeading } from '../components/view-heading';
import { buttonStyles, cardStyles, hintStyles } from '../ui';

interface NeedsDetailsViewProps {
  answer: EmbedNeedsDetails;
  /** Back to the upload with the photo and the context kept. */
  onBack: () => void;
  focus: boolean;
}

/**
 * No estimate without a size, or for a photo that is probably not a tree (issue "Estimates a
 * tree surgeon would sign"): what is missing and why, and the way to add it. Nothing was
 * charged to the business for it.
 */
export function NeedsDetailsView({ answer, onBack, focus }: NeedsDetailsViewProps) {
  const needsSize = answer.missing.includes('height') || answer.missing.includes('diameter');
  const needsPhoto = answer.missing.includes('tree_photo');
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <ViewHeading focus={focus}>{answer.message}</ViewHeading>
        <p className="text-stone-700">Your photo and notes are kept, so you only need to add what is missing.</p>
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

      {needsSize && (
        <p className={`${hintStyles} flex gap-2`}>
          <Ruler aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            Type the tree&apos;s height and trunk size in Additional Context, for example &ldquo;about 40 ft tall, 12 inch
            trunk&rdquo; or &ldquo;12 m tall, 30 cm across&rdquo;.
          </span>
        </p>
      )}
      {needsPhoto && <p className={hintStyles}>Choose a photo that shows the whole tree, from about its own height away.</p>}

      <button type="button" className={`${buttonStyles.primary} w-full`} onClick={onBack}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        {needsSize ? 'Add details' : 'Choose another photo'}
      </button>
    </div>
  );
}
