import { formatDiameter, formatHeight, measuredSizes, type MeasureDraft } from '../../core/measure-draft';
import type { SiteDetails } from '../../core/questions';
import type { TreeAnswers } from './answers';
import { MeasureSection } from './measure-section';
import { SiteQuestions } from './site-questions';
import { SizeQuestions } from './size-questions';
import { SpeciesQuestion } from './species-question';
import { useBusinessUnits } from '../units-context';

export interface QuestionsPanelProps {
  tree: TreeAnswers;
  onTreeChange: (value: TreeAnswers) => void;
  site: SiteDetails;
  onSiteChange: (value: SiteDetails) => void;
  sizesFromPhoto: boolean;
  file: File;
  measure: MeasureDraft;
  onMeasureChange: (value: MeasureDraft) => void;
}

type SizeStepProps = Pick<QuestionsPanelProps, 'tree' | 'onTreeChange' | 'sizesFromPhoto' | 'file' | 'measure' | 'onMeasureChange'>;

/** The size questions and measuring on the photo: in the questions, and again on "needs details". */
export function SizeStep({ tree, onTreeChange, sizesFromPhoto, file, measure, onMeasureChange }: SizeStepProps) {
  const units = useBusinessUnits();
  // A size measured on the photo is the one used: its question says so instead of showing a tile as chosen.
  const sizes = measuredSizes(measure);
  const measured =
    sizes && !('problem' in sizes)
      ? {
          height: sizes.heightM !== null ? `about ${formatHeight(sizes.heightM, units)} tall` : null,
          trunk: sizes.diameterM !== null ? `about ${formatDiameter(sizes.diameterM, units)} across` : null,
        }
      : { height: null, trunk: null };
  return (
    <>
      <SizeQuestions value={tree} onChange={onTreeChange} sizesFromPhoto={sizesFromPhoto} measured={measured} />
      <MeasureSection file={file} value={measure} onChange={onMeasureChange} species={tree.species} />
    </>
  );
}

const sectionTitle = 'text-base font-semibold text-stone-900';

/**
 * The questions after the photo: the tree's size and kind, then the
 * site, one tap each. A chunk of its own: the pictures and the species list load once a photo
 * is chosen, never for a visitor who only looks.
 */
export default function QuestionsPanel(props: QuestionsPanelProps) {
  const { tree, onTreeChange, site, onSiteChange, sizesFromPhoto } = props;
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="tree-questions" className="flex flex-col gap-4">
        <div>
          <h3 id="tree-questions" className={sectionTitle}>
            About your tree
          </h3>
          <p className="text-sm text-stone-600">
            {sizesFromPhoto
              ? 'We read the size from your photo. If you know better, pick the closest.'
              : 'Pick the closest; a rough answer is enough for an estimate.'}
          </p>
        </div>
        <SizeStep {...props} />
        <SpeciesQuestion value={tree.species} onChange={(species) => onTreeChange({ ...tree, species })} />
      </section>
      <section aria-labelledby="site-questions" className="flex flex-col gap-4">
        <div>
          <h3 id="site-questions" className={sectionTitle}>
            About the job
          </h3>
          <p className="text-sm text-stone-600">These change the price more than the tree&apos;s size does. Skip any you are not sure of.</p>
        </div>
        <SiteQuestions value={site} onChange={onSiteChange} />
      </section>
    </div>
  );
}
