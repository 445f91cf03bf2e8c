import type { MeasureLine } from './measure-draft';

/**
 * One colour per measured line, wherever it is drawn: the dashboard's measuring tool and
 * results, the estimator's measuring panel and the PDF quote's photo. Light colours (Tailwind
 * yellow-400, sky-400, pink-300), always drawn over a dark outline with dark label text or on a
 * dark label, so they stand out on foliage, sky and brick alike, on screen and on paper.
 */
export const MEASURE_LINE_COLOURS: Readonly<Record<MeasureLine, string>> = {
  reference: '#facc15',
  height: '#38bdf8',
  trunk: '#f9a8d4',
};

/** The colours as a caption names them (the PDF quote's "height 17.1 m (blue)"). */
export const MEASURE_LINE_COLOUR_NAMES: Readonly<Record<MeasureLine, string>> = {
  reference: 'yellow',
  height: 'blue',
  trunk: 'pink',
};
