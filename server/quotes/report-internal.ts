import type { Analysis } from '../../core/analysis';
import { formatGbp, parsePence } from '../../core/money';
import { measureFromPhoto } from '../../core/photo-measure';
import { describeMethod } from '../../core/quote';
import { ACCESS_LABELS, DRAG_LABELS, TARGET_LABELS } from '../../core/site';
import { VALUE_SOURCE_LABELS, type ValueSource } from '../../core/tree-details';
import { COLOUR, MARGIN, contentWidth, drawList, ensureSpace, keyValueRows, sectionHeading, type Doc } from './report-layout';
import { winAnsi } from './report-text';

/**
 * The contractor's page (`?copy=internal`): how the estimate was made, what it assumed and
 * where each value came from. None of it is on the customer's copy. Every stored code (method,
 * provider, value sources, site answers) is printed through its label, never as it is stored.
 */
export const INTERNAL_TITLE = 'Internal notes - not for the customer';

const PROVIDER_LABELS: Record<string, string> = {
  local: 'Local estimate from the details given (no vision model)',
  openai: 'Vision model read the photo',
};

export function drawInternalPage(doc: Doc, analysis: Analysis, reference: string, hasCompanyProfile: boolean): void {
  doc.addPage();
  const width = contentWidth(doc);
  doc.rect(MARGIN, doc.y, width, 34).fill(COLOUR.warnLight);
  doc.rect(MARGIN, doc.y, 4, 34).fill(COLOUR.warn);
  doc.fillColor(COLOUR.warn).font('Helvetica-Bold').fontSize(13).text(INTERNAL_TITLE, MARGIN + 14, doc.y + 6, { width: width - 28 });
  doc.fillColor(COLOUR.text).font('Helvetica').fontSize(9).text(`For your records with quote ${winAnsi(reference)}. Do not send this page.`, MARGIN + 14);
  doc.y += 16;

  if (!hasCompanyProfile) {
    note(doc, 'Your company details are not set. Add your trading name, phone, e-mail, address, VAT number and logo in Settings so the customer knows who the quote is from.');
  }
  if (!analysis.cost) note(doc, 'No hourly rate was set, so the quote shows no price. Set your hourly rate in Settings and run the estimate again.');

  let y = sectionHeading(doc, 'How the estimate was made', MARGIN, doc.y, width);
  const rate = parsePence(analysis.hourlyRate);
  y = keyValueRows(
    doc,
    [
      ['Provider', PROVIDER_LABELS[analysis.provider] ?? 'Another estimator (not one this version knows)'],
      ['Confidence', `${Math.round(analysis.confidence * 100)}%`],
      [
        'Calibration',
        analysis.calibratedFrom
          ? `${analysis.calibratedFrom}: scaled by the actual times reported.`
          : 'Not calibrated: send actual times as feedback to tune later estimates.',
      ],
      ['Hourly rate', rate !== undefined && rate > 0 ? `${formatGbp(rate)} per hour` : 'Not set'],
      ['Method (time model)', analysis.method ? (describeMethod(analysis.method)?.title ?? 'One the time model does not know') : 'Not given'],
    ],
    MARGIN,
    y,
    width,
    130,
  );
  doc.y = y + 8;

  y = sectionHeading(doc, 'Where the values came from', MARGIN, doc.y, width);
  const source = (s: ValueSource | null | undefined) => (s ? VALUE_SOURCE_LABELS[s] : 'Not recorded');
  y = keyValueRows(
    doc,
    [
      ['Species', source(analysis.sources?.species)],
      ['Height', source(analysis.sources?.height)],
      ['Trunk diameter', source(analysis.sources?.diameter)],
      ['Wood density', analysis.woodDensity ?? 'Not known'],
      ...measurementRows(analysis),
    ],
    MARGIN,
    y,
    width,
    130,
  );
  doc.y = y + 8;

  y = sectionHeading(doc, 'Site answers', MARGIN, doc.y, width);
  const site = analysis.siteDetails ?? {};
  const yesNo = (v: boolean | undefined) => (v === undefined ? 'Not answered' : v ? 'Yes' : 'No');
  y = keyValueRows(
    doc,
    [
      ['Within falling distance', site.targets ? TARGET_LABELS[site.targets] : 'Not answered'],
      ['Power lines near', yesNo(site.powerLines)],
      ['Access for equipment', site.access ? ACCESS_LABELS[site.access] : 'Not answered'],
      ['Brush drag distance', site.dragDistance ? DRAG_LABELS[site.dragDistance] : 'Not answered'],
      ['Stump grinding', yesNo(site.stumpGrinding)],
      ['Wood and waste removal', yesNo(site.wasteRemoval)],
      ['Project details', analysis.description ?? 'None given'],
    ],
    MARGIN,
    y,
    width,
    130,
  );
  doc.y = y + 8;

  // Sizes the user confirmed though they looked unlikely: the contractor checks them on site.
  if (analysis.sizeWarnings.length > 0) drawList(doc, 'Sizes confirmed, though they look unlikely', analysis.sizeWarnings, COLOUR.warn);
  drawList(doc, 'Factors affecting cutting time', analysis.factors, COLOUR.brand);
}

function measurementRows(analysis: Analysis): [string, string][] {
  const m = analysis.measurement;
  if (!m) return [['Photo measurement', 'None']];
  const sizes = measureFromPhoto(m);
  if ('problem' in sizes) return [['Photo measurement', sizes.problem]];
  const parts = [
    sizes.heightM != null ? `height ${sizes.heightM.toFixed(1)} m` : null,
    sizes.diameterM != null ? `trunk ${Math.round(sizes.diameterM * 100)} cm` : null,
  ].filter(Boolean);
  const reference = /\d/.test(m.reference.label) ? m.reference.label : `${m.reference.label} (${m.reference.lengthM} m)`;
  return [['Photo measurement', `${parts.join(', ') || 'reference only'}; reference: ${reference}`]];
}

function note(doc: Doc, text: string): void {
  const width = contentWidth(doc);
  const height = doc.font('Helvetica').fontSize(9.5).heightOfString(text, { width: width - 20 }) + 14;
  ensureSpace(doc, height);
  const y = doc.y;
  doc.rect(MARGIN, y, width, height).fill(COLOUR.box);
  doc.fillColor(COLOUR.text).font('Helvetica').fontSize(9.5).text(text, MARGIN + 10, y + 7, { width: width - 20 });
  doc.y = y + height + 10;
}
