import {
  DIAMETER_BAND_KEYS,
  DIAMETER_BANDS,
  DIAMETER_HINT,
  DIAMETER_QUESTION,
  HEIGHT_BAND_KEYS,
  HEIGHT_BANDS,
  HEIGHT_QUESTION,
  type DiameterBand,
  type HeightBand,
} from '../../core/questions';
import { diameterBandRange, heightBandRange } from '../../core/band-ranges';
import { useBusinessUnits } from '../units-context';
import type { TreeAnswers } from './answers';
import { ChoiceGroup, type Choice } from '../components/choice-group';
import { HeightPicture, TrunkPicture } from './pictures';

export const LET_PHOTO_DECIDE = 'Let the photo decide';

interface SizeQuestionsProps {
  value: TreeAnswers;
  onChange: (value: TreeAnswers) => void;
  /** The server reads sizes from the photo: offer "Let the photo decide" (and check it until a size is chosen). */
  sizesFromPhoto: boolean;
}

/** How tall, and how thick the trunk: the four bands of core/questions.ts each, with pictures. */
export function SizeQuestions({ value, onChange, sizesFromPhoto }: SizeQuestionsProps) {
  const units = useBusinessUnits();
  const photo: Choice[] = sizesFromPhoto ? [{ value: '', label: LET_PHOTO_DECIDE, detail: 'We judge it from your photo' }] : [];
  const heights: Choice[] = HEIGHT_BAND_KEYS.map((band) => ({
    value: band,
    label: HEIGHT_BANDS[band].short,
    detail: heightBandRange(band, units),
    picture: <HeightPicture band={band} />,
  }));
  const trunks: Choice[] = DIAMETER_BAND_KEYS.map((band) => ({
    value: band,
    label: DIAMETER_BANDS[band].short,
    detail: diameterBandRange(band, units),
    picture: <TrunkPicture band={band} />,
  }));
  return (
    <>
      <ChoiceGroup
        look="tiles"
        legend={HEIGHT_QUESTION}
        hint="Compare it with a house nearby; roughly is fine."
        choices={[...photo, ...heights]}
        value={value.height}
        onChange={(height) => onChange({ ...value, height: height as HeightBand | '' })}
      />
      <ChoiceGroup
        look="tiles"
        legend={DIAMETER_QUESTION}
        hint={DIAMETER_HINT}
        choices={[...photo, ...trunks]}
        value={value.diameter}
        onChange={(diameter) => onChange({ ...value, diameter: diameter as DiameterBand | '' })}
      />
    </>
  );
}
