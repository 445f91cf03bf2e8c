import { MEASURE_LINE_COLOUR_NAMES as NAME, MEASURE_LINE_COLOURS } from '../../core/measure-colours';
import { measureFromPhoto, type PhotoMeasurement, type PhotoPoint } from '../../core/photo-measure';
import { COLOUR, type Doc } from './report-layout';
import { loadSharp } from '../images/sharp';
import { winAnsi } from './report-text';

/**
 * The tree's photo on the quote, with the lines the user measured it by drawn over it. The
 * taps are in the photo's natural pixels (core/photo-measure.ts); the stored photo is the same
 * picture, possibly scaled down (at most 2048 px), so each axis is scaled from the natural size
 * to the size drawn here.
 */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Pixel size of the stored photo (orientation already applied and stripped when it was stored). */
export async function photoSize(image: Buffer): Promise<{ width: number; height: number } | null> {
  const sharp = await loadSharp();
  try {
    const meta = await sharp(image).metadata();
    return meta.width && meta.height ? { width: meta.width, height: meta.height } : null;
  } catch {
    return null;
  }
}

/** The largest rectangle of the photo's shape that fits in the box, centred. */
export function fitInBox(size: { width: number; height: number }, box: Box): Box {
  const scale = Math.min(box.width / size.width, box.height / size.height);
  const width = size.width * scale;
  const height = size.height * scale;
  return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height };
}

/** The measured lines in the colours the user drew them in on screen (core/measure-colours.ts). */
const LINE = { reference: MEASURE_LINE_COLOURS.reference, tree: MEASURE_LINE_COLOURS.height, trunk: MEASURE_LINE_COLOURS.trunk };

/**
 * Draws the photo fitted in `box`, and the measurement over it when there is one. Returns the
 * caption that says what the lines are, or null. A photo pdfkit cannot read is a grey box.
 */
export function drawPhoto(
  doc: Doc,
  image: Buffer,
  size: { width: number; height: number } | null,
  box: Box,
  measurement: PhotoMeasurement | null,
): string | null {
  doc.rect(box.x, box.y, box.width, box.height).fill(COLOUR.box);
  const drawn = size ? fitInBox(size, box) : box;
  try {
    doc.image(image, drawn.x, drawn.y, { width: drawn.width, height: drawn.height });
  } catch {
    // A photo pdfkit cannot read should not cost the customer the rest of the quote.
    doc.fillColor(COLOUR.muted).font('Helvetica').fontSize(10);
    doc.text('Photo unavailable', box.x, box.y + box.height / 2 - 6, { width: box.width, align: 'center' });
    doc.rect(box.x, box.y, box.width, box.height).lineWidth(0.75).stroke(COLOUR.rule);
    return null;
  }
  const caption = measurement && size ? drawMeasurement(doc, measurement, drawn) : null;
  doc.rect(box.x, box.y, box.width, box.height).lineWidth(0.75).stroke(COLOUR.rule);
  return caption;
}

function drawMeasurement(doc: Doc, m: PhotoMeasurement, drawn: Box): string | null {
  const sx = drawn.width / m.imageWidth;
  const sy = drawn.height / m.imageHeight;
  const at = (p: PhotoPoint): PhotoPoint => ({
    x: drawn.x + Math.min(Math.max(p.x, 0), m.imageWidth) * sx,
    y: drawn.y + Math.min(Math.max(p.y, 0), m.imageHeight) * sy,
  });
  const sizes = measureFromPhoto(m);
  const measured = 'problem' in sizes ? { heightM: null, diameterM: null } : sizes;

  doc.save();
  doc.rect(drawn.x, drawn.y, drawn.width, drawn.height).clip();
  measuredLine(doc, at(m.reference.top), at(m.reference.bottom), LINE.reference, `${formatMetres(m.reference.lengthM)} ref.`, drawn);
  if (m.tree) {
    const label = measured.heightM != null ? formatMetres(measured.heightM) : 'Height';
    measuredLine(doc, at(m.tree.top), at(m.tree.base), LINE.tree, label, drawn);
  }
  if (m.trunk) {
    const label = measured.diameterM != null ? formatCentimetres(measured.diameterM) : 'Trunk';
    measuredLine(doc, at(m.trunk.left), at(m.trunk.right), LINE.trunk, label, drawn);
  }
  doc.restore();

  const parts: string[] = [];
  if (measured.heightM != null) parts.push(`height ${formatMetres(measured.heightM)} (${NAME.height})`);
  if (measured.diameterM != null) parts.push(`trunk ${formatCentimetres(measured.diameterM)} across (${NAME.trunk})`);
  // "A door (2.0 m)" reads "a door (2.0 m)" mid-sentence; a typed label stays as typed.
  const label = winAnsi(m.reference.label).replace(/^(An?) /, (article: string) => article.toLowerCase());
  const reference = `${label} as the reference (${NAME.reference})`;
  return parts.length > 0 ? `Measured on the photo: ${parts.join(', ')}, with ${reference}.` : `Measured on the photo with ${reference}.`;
}

/** A line with a dark casing (readable on sky and foliage alike), end caps and a label. */
function measuredLine(doc: Doc, a: PhotoPoint, b: PhotoPoint, colour: string, label: string, drawn: Box): void {
  doc.save().lineCap('round');
  doc.moveTo(a.x, a.y).lineTo(b.x, b.y).lineWidth(3.2).strokeOpacity(0.55).stroke('#000000');
  doc.moveTo(a.x, a.y).lineTo(b.x, b.y).lineWidth(1.6).strokeOpacity(1).stroke(colour);
  for (const p of [a, b]) doc.circle(p.x, p.y, 2.4).lineWidth(0.8).fillAndStroke(colour, '#000000');
  doc.restore();

  doc.font('Helvetica-Bold').fontSize(7);
  const textWidth = doc.widthOfString(label);
  const [w, h] = [textWidth + 6, 10];
  // Beside the middle of the line, kept inside the photo.
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const vertical = Math.abs(b.y - a.y) >= Math.abs(b.x - a.x);
  let x = vertical ? mid.x + 5 : mid.x - w / 2;
  let y = vertical ? mid.y - h / 2 : mid.y + 5;
  x = Math.min(Math.max(x, drawn.x + 2), drawn.x + drawn.width - w - 2);
  y = Math.min(Math.max(y, drawn.y + 2), drawn.y + drawn.height - h - 2);
  doc.save().roundedRect(x, y, w, h, 2).fillOpacity(0.8).fill('#111111').restore();
  doc.fillColor(colour).text(label, x + 3, y + 2, { lineBreak: false });
}

function formatMetres(m: number): string {
  return `${m.toFixed(1)} m`;
}

function formatCentimetres(m: number): string {
  return `${Math.round(m * 100)} cm`;
}
