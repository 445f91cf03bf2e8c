import { describe, expect, it } from 'vitest';
import { DOOR_MEASUREMENT } from '../../testing/analysis';
import type { Doc } from './report-layout';
import { drawPhoto } from './report-photo';

/** A pdfkit document that only remembers the colours lines and dots are drawn in. */
function recordingDoc(): { doc: Doc; colours: string[] } {
  const colours: string[] = [];
  const doc: Doc = new Proxy({} as Doc, {
    get: (_, name) =>
      name === 'widthOfString'
        ? () => 20
        : (...args: unknown[]) => {
            if (name === 'stroke' || name === 'fillAndStroke') colours.push(String(args[0]));
            return doc;
          },
  });
  return { doc, colours };
}

describe('the measured lines on the quote', () => {
  it('are drawn in the colours the measuring screens use, and the caption names them', () => {
    const { doc, colours } = recordingDoc();
    const caption = drawPhoto(doc, Buffer.from('photo'), { width: 1000, height: 1500 }, { x: 0, y: 0, width: 200, height: 300 }, DOOR_MEASUREMENT);
    // Reference yellow-400, height sky-400, trunk pink-300 (core/measure-colours.ts), each over black, in the photo's grey frame.
    expect(new Set(colours)).toEqual(new Set(['#facc15', '#38bdf8', '#f9a8d4', '#000000', '#d5dbd6']));
    expect(caption).toBe('Measured on the photo: height 12.0 m (blue), trunk 50 cm across (pink), with a door (2.0 m) as the reference (yellow).');
  });
});
