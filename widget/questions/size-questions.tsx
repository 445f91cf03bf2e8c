import {
  DIAMETER_BAND_KEYS,
  DIAMETER_BANDS,
  DIAMETER_HINT,
  DIAMETER_QUESTION,
  HEIGHT_BAND_KEYS,
  HEIGHT_BANDS,
  HEIGHT_QUESTION,
} from '../../core/questions';
import { diameterBandRange, heightBandRange } from '../../core/band-ranges';
import { useBusinessUnits } from '../units-context';
import { shownSize, SIZE_NOT_SURE, type TreeAnswers } from './answers';
import { ChoiceGroup, type Choice } from '../components/choice-group';
import { HeightPicture, TrunkPicture } from './pictures';

export const LET_PHOTO_DECIDE = 'Let the photo decide';
/** A size the visitor cannot judge: priced as a typical garden tree, a visit recommended (docs/analysis.md, Not sure and unanswered). */
const NOT_SURE: Choice = { value: SIZE_NOT_SURE, label: 'Not sure', detail: 'We price a typical garden tree' };

/** No tile is shown as chosen while a measured size is used. */
const MEASURED = 'measured';

interface SizeQuestionsProps {
  value: TreeAnswers;
  onChange: (value: TreeAnswers) => void;
  /** The server reads sizes from the photo: offer "Let the photo decide" (and check it until a size is chosen). */
  sizesFromPhoto: boolean;
  /** Sizes measured on the photo ("about 12.1 m (40 ft) tall"): used over any tile, and said so. */
  measured?: { height: string | null; trunk: string | null };
}

const measuredHint = (text: string) => `From your measuring: ${text}. That is the size we use.`;

/**
 * How tall, and how thick the trunk: the four bands of core/questions.ts each, with pictures, and
 * "Not sure" (checked while blank where the photo's size cannot be read).
 */
export function SizeQuestions({ value, onChange, sizesFromPhoto, measured }: SizeQuestionsProps) {
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
        hint={measured?.height ? measuredHint(measured.height) : 'Compare it with a house nearby; roughly is fine.'}
        choices={[...photo, ...heights, NOT_SURE]}
        value={measured?.height ? MEASURED : shownSize(value.height, sizesFromPhoto)}
        onChange={(height) => onChange({ ...value, height: height as TreeAnswers['height'] })}
      />
      <ChoiceGroup
        look="tiles"
        legend={DIAMETER_QUESTION}
        hint={measured?.trunk ? measuredHint(measured.trunk) : DIAMETER_HINT}
        choices={[...photo, ...trunks, NOT_SURE]}
        value={measured?.trunk ? MEASURED : shownSize(value.diameter, sizesFromPhoto)}
        onChange={(diameter) => onChange({ ...value, diameter: diameter as TreeAnswers['diameter'] })}
      />
    </>
  );
}
