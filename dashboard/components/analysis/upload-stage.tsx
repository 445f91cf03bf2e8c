import { Sparkles } from 'lucide-react';
import { useRef, useState } from 'react';
import { ANALYSIS_COST_CREDITS } from '../../../core/credits';
import { MAX_DESCRIPTION_CHARS } from '../../../core/analysis';
import { useVisionModel } from '../../api/capabilities';
import { useUserTokens } from '../../api/credits';
import { usePreferredUnits } from '../../api/units';
import { TextArea } from '../text-area';
import { buttonStyles, cardStyles } from '../ui';
import type { AnalysisDraft } from './draft';
import { PhotoGuidance } from './photo-guidance';
import { PhotoPicker } from './photo-picker';
import { SiteQuestions } from './site-questions';
import { StageHeading } from './stage-heading';
import { TreeDetails } from './tree-details';
import { MEASURE_LINE_ORDER, measureForPhoto, treeDetailsFromDraft } from './tree-details-draft';

interface UploadStageProps {
  draft: AnalysisDraft;
  onDraftChange: (draft: AnalysisDraft) => void;
  onBegin: (file: File) => void;
  focusHeading: boolean;
  /** Back from "needs details": focus goes to the Tree details group instead of the heading. */
  focusTreeDetails?: boolean;
}

/** Upload: the photo, then the optional Tree details, Project Details and site questions. */
export function UploadStage({ draft, onDraftChange, onBegin, focusHeading, focusTreeDetails = false }: UploadStageProps) {
  const { file } = draft;
  const visionModel = useVisionModel();
  const tokens = useUserTokens();
  const preferredUnits = usePreferredUnits();
  const heightRef = useRef<HTMLInputElement>(null);
  const diameterRef = useRef<HTMLInputElement>(null);
  const [measureOpen, setMeasureOpen] = useState(() =>
    MEASURE_LINE_ORDER.some((line) => Object.keys(draft.treeDetails.measure.points[line]).length > 0),
  );

  return (
    <section aria-labelledby="upload-stage-title" className={`${cardStyles} p-4 sm:p-6`}>
      <StageHeading id="upload-stage-title" focus={focusHeading && !focusTreeDetails}>
        Upload Tree Photo
      </StageHeading>
      <p className="mt-1 mb-4 text-sm text-stone-700">
        One photo of one tree.{' '}
        {/* During the Unlimited pass analyses cost no credits. */}
        {tokens.data?.unlimited
          ? 'Your Unlimited pass covers each analysis: no credits are used.'
          : `Each analysis uses ${ANALYSIS_COST_CREDITS} credits.`}
      </p>
      <form
        noValidate
        className="flex flex-col gap-6"
        onSubmit={(event) => {
          event.preventDefault();
          if (!file) return;
          // A typed size that cannot be read is said beside its field; send nothing until it is fixed.
          const { problems } = treeDetailsFromDraft(draft.treeDetails);
          if (problems.height) return heightRef.current?.focus();
          if (problems.diameter) return diameterRef.current?.focus();
          onBegin(file);
        }}
      >
        <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <PhotoPicker
            file={file}
            // Points tapped on one photo mean nothing on another.
            onChange={(next) =>
              onDraftChange({ ...draft, file: next, treeDetails: { ...draft.treeDetails, measure: measureForPhoto(draft.treeDetails.measure) } })
            }
          />
          <PhotoGuidance />
        </div>

        {file ? (
          <>
            <TreeDetails
              file={file}
              value={draft.treeDetails}
              onChange={(treeDetails) => onDraftChange({ ...draft, treeDetails })}
              measureOpen={measureOpen}
              onMeasureOpenChange={setMeasureOpen}
              focusHeading={focusTreeDetails}
              visionModel={visionModel}
              heightRef={heightRef}
              diameterRef={diameterRef}
              units={preferredUnits}
            />
            <TextArea
              label="Project Details"
              hint="Optional. Anything else the photo cannot show: the tree's condition, the job you want done."
              placeholder="e.g. Leaning towards the garage, some dead branches, ivy on the trunk."
              maxLength={MAX_DESCRIPTION_CHARS}
              value={draft.description}
              onChange={(event) => onDraftChange({ ...draft, description: event.target.value })}
            />
            <SiteQuestions
              value={draft.siteDetails}
              onChange={(siteDetails) => onDraftChange({ ...draft, siteDetails })}
            />
          </>
        ) : null}

        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <button type="submit" className={`${buttonStyles.primary} w-full px-6 py-3 text-base sm:w-auto`} disabled={!file}>
            <Sparkles aria-hidden="true" className="size-5" />
            Begin Professional Analysis
          </button>
          {file ? null : <p className="text-sm text-stone-600">Choose a photo to begin.</p>}
        </div>
      </form>
    </section>
  );
}
