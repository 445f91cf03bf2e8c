import { Sparkles } from 'lucide-react';
import { ANALYSIS_COST_CREDITS } from '../../../core/credits';
import { MAX_DESCRIPTION_CHARS } from '../../../core/analysis';
import { TextArea } from '../text-area';
import { buttonStyles, cardStyles } from '../ui';
import type { AnalysisDraft } from './draft';
import { PhotoGuidance } from './photo-guidance';
import { PhotoPicker } from './photo-picker';
import { SiteQuestions } from './site-questions';
import { StageHeading } from './stage-heading';

interface UploadStageProps {
  draft: AnalysisDraft;
  onDraftChange: (draft: AnalysisDraft) => void;
  onBegin: (file: File) => void;
  focusHeading: boolean;
}

/** SPEC 2, Upload: the photo, then the optional Project Details and site questions. */
export function UploadStage({ draft, onDraftChange, onBegin, focusHeading }: UploadStageProps) {
  const { file } = draft;
  return (
    <section aria-labelledby="upload-stage-title" className={`${cardStyles} p-4 sm:p-6`}>
      <StageHeading id="upload-stage-title" focus={focusHeading}>
        Upload Tree Photo
      </StageHeading>
      <p className="mt-1 mb-4 text-sm text-stone-700">
        One photo of one tree. Each analysis uses {ANALYSIS_COST_CREDITS} credits.
      </p>
      <form
        noValidate
        className="flex flex-col gap-6"
        onSubmit={(event) => {
          event.preventDefault();
          if (file) onBegin(file);
        }}
      >
        <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <PhotoPicker file={file} onChange={(next) => onDraftChange({ ...draft, file: next })} />
          <PhotoGuidance />
        </div>

        {file ? (
          <>
            <TextArea
              label="Project Details"
              hint="Optional. Anything the photo cannot show: the species if you know it, the trunk size, the job you want done."
              placeholder="e.g. Mature oak, about 50 ft tall, trunk about 24 inches across, leaning towards the garage."
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
